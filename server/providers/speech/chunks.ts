// Speech servers cap the text of one request (the Chatterbox TTS API at 3,000 characters by default, OpenAI at
// 4,096): longer speech is split at sentence ends, each piece spoken on its own, and the WAV pieces joined.

/** Pieces of at most `max` characters, cut after a sentence end where there is one, else at a space. */
export function splitAtSentences(text: string, max: number): string[] {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean ? [clean] : [];
  const sentences = clean.match(/[^.!?…]+(?:[.!?…]+["'”’)\]]*|$)\s*/g) ?? [clean];
  const out: string[] = [];
  let current = '';
  const push = () => {
    if (current.trim()) out.push(current.trim());
    current = '';
  };
  for (const s of sentences) {
    if ((current + s).trim().length <= max) {
      current += s;
      continue;
    }
    push();
    // One sentence longer than the cap: cut it at the last space that fits (or hard, with no space).
    let rest = s.trim();
    while (rest.length > max) {
      const cut = rest.lastIndexOf(' ', max);
      const at = cut > max / 2 ? cut : max;
      out.push(rest.slice(0, at).trim());
      rest = rest.slice(at).trim();
    }
    current = rest ? `${rest} ` : '';
  }
  push();
  return out;
}

interface WavParts {
  fmt: Buffer;
  data: Buffer;
}

function wavParts(wav: Buffer): WavParts | null {
  if (wav.length < 12 || wav.toString('ascii', 0, 4) !== 'RIFF' || wav.toString('ascii', 8, 12) !== 'WAVE') return null;
  let fmt: Buffer | null = null;
  let at = 12;
  while (at + 8 <= wav.length) {
    const id = wav.toString('ascii', at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    const body = wav.subarray(at + 8, Math.min(wav.length, at + 8 + size));
    if (id === 'fmt ') fmt = body;
    if (id === 'data') return fmt ? { fmt, data: body } : null;
    at += 8 + size + (size % 2);
  }
  return null;
}

/** One WAV from several of the same format; null when they are not all WAV with one format. */
export function joinWavs(pieces: Buffer[]): Buffer | null {
  if (pieces.length === 1) return pieces[0];
  const parts = pieces.map(wavParts);
  if (parts.some((p) => !p) || parts.some((p) => !p!.fmt.equals(parts[0]!.fmt))) return null;
  const fmt = parts[0]!.fmt;
  const data = Buffer.concat(parts.map((p) => p!.data));
  const header = Buffer.alloc(12 + 8 + fmt.length + 8);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(header.length - 8 + data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(fmt.length, 16);
  fmt.copy(header, 20);
  header.write('data', 20 + fmt.length, 'ascii');
  header.writeUInt32LE(data.length, 24 + fmt.length);
  return Buffer.concat([header, data]);
}
