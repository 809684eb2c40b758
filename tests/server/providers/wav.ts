/** A tiny mono 16-bit PCM WAV (silence), optionally with the placeholder sizes a streaming writer leaves. */
export function makeWav(samples = 800, placeholderSizes = false): Buffer {
  const data = samples * 2;
  const b = Buffer.alloc(44 + data);
  b.write('RIFF', 0, 'ascii');
  b.writeUInt32LE(placeholderSizes ? 0x7ffff024 : 36 + data, 4);
  b.write('WAVE', 8, 'ascii');
  b.write('fmt ', 12, 'ascii');
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(22050, 24);
  b.writeUInt32LE(44100, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36, 'ascii');
  b.writeUInt32LE(placeholderSizes ? 0x7ffff000 : data, 40);
  return b;
}

/** Parses multipart/form-data the way a real server would (undici's own parser). */
export async function parseForm(body: Buffer, contentType: string | undefined): Promise<FormData> {
  return new Response(new Uint8Array(body), { headers: { 'content-type': contentType ?? '' } }).formData();
}
