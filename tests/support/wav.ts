// WAV files made in code, so no binary fixture is checked in: the fake speech engines, the upload
// fixtures and the recorder all need a small file that real audio code accepts.

/** A mono 16-bit PCM WAV holding `pcm`; `placeholderSizes` writes the sizes a streaming writer leaves (not yet known). */
export function wavFile(pcm: Buffer, opts: { rate?: number; placeholderSizes?: boolean } = {}): Buffer {
  const rate = opts.rate ?? 16_000;
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(opts.placeholderSizes ? 0x7ffff024 : 36 + pcm.length, 4);
  h.write('WAVE', 8, 'latin1');
  h.write('fmt ', 12, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(opts.placeholderSizes ? 0x7ffff000 : pcm.length, 40);
  return Buffer.concat([h, pcm]);
}

/** `samples` of silence as a WAV. */
export const silentWav = (samples: number, opts: { rate?: number; placeholderSizes?: boolean } = {}) =>
  wavFile(Buffer.alloc(samples * 2), opts);
