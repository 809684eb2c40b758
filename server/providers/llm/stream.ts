// Line readers for the two streaming formats the LLM servers speak: NDJSON (Ollama) and
// server-sent events (OpenAI-compatible). Both read a fetch body and yield complete lines.
//
// Each chunk is searched for line breaks once (the pieces of a line not yet ended are kept in a list, never
// rescanned), so the cost is linear in the body; a line longer than `maxLineBytes` ends the read with a
// LineTooLongError instead of growing without end.

/** Default longest line: far more than any real stream event, small enough to hold in memory. */
export const DEFAULT_MAX_LINE_BYTES = 1024 * 1024;

export class LineTooLongError extends Error {
  constructor(readonly maxBytes: number) {
    super(`a stream line passed ${maxBytes} bytes without a line break`);
    this.name = 'LineTooLongError';
  }
}

export async function* lines(
  body: ReadableStream<Uint8Array>,
  maxLineBytes = DEFAULT_MAX_LINE_BYTES,
): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const take = (last: Uint8Array) => {
    const whole = pending.length ? concat([...pending, last], pendingBytes + last.byteLength) : last;
    pending = [];
    pendingBytes = 0;
    return decoder.decode(whole).replace(/\r$/, '');
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      let from = 0;
      let nl: number;
      while ((nl = value.indexOf(10, from)) !== -1) {
        if (pendingBytes + nl - from > maxLineBytes) throw new LineTooLongError(maxLineBytes);
        yield take(value.subarray(from, nl));
        from = nl + 1;
      }
      if (from < value.byteLength) {
        const rest = value.subarray(from);
        pendingBytes += rest.byteLength;
        if (pendingBytes > maxLineBytes) throw new LineTooLongError(maxLineBytes);
        pending.push(rest);
      }
    }
    if (pendingBytes) yield take(new Uint8Array(0));
  } finally {
    // Stops the body too when the reader gives up early (a line too long, a reply cap, the caller's break).
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** The `data` of each server-sent event (multi-line data joined with \n); comments and other fields are skipped. */
export async function* sseData(
  body: ReadableStream<Uint8Array>,
  maxLineBytes = DEFAULT_MAX_LINE_BYTES,
): AsyncGenerator<string> {
  let data: string[] = [];
  let size = 0;
  for await (const line of lines(body, maxLineBytes)) {
    if (line === '') {
      if (data.length) yield data.join('\n');
      data = [];
      size = 0;
    } else if (line.startsWith('data:')) {
      // An event of many short data lines is bounded as one line would be.
      size += line.length;
      if (size > maxLineBytes) throw new LineTooLongError(maxLineBytes);
      data.push(line.slice(5).replace(/^ /, ''));
    }
  }
  if (data.length) yield data.join('\n');
}
