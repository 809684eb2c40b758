// Reads a fetch answer's body up to a number of bytes: what another server sends is bounded before it is held,
// and the read stops (the socket is let go) the moment it passes the cap, never after reading it whole.

export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the answer is larger than ${maxBytes} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/** The body as text (UTF-8), cut at maxBytes. */
export async function readCapped(res: Response, maxBytes: number): Promise<string> {
  return (await readCappedBytes(res, maxBytes)).toString('utf8');
}

/** The body's bytes, refused past maxBytes: a declared length over it before a byte is read, else as it streams. */
export async function readCappedBytes(res: Response, maxBytes: number): Promise<Buffer> {
  if (!res.body) return Buffer.alloc(0);
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body.cancel().catch(() => undefined);
    throw new BodyTooLargeError(maxBytes);
  }
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) throw new BodyTooLargeError(maxBytes);
      parts.push(value);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  return Buffer.concat(parts);
}
