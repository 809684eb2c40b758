// Audio formats the speech providers produce, and how they are named and served.

export const SPEECH_FORMATS = ['wav', 'mp3', 'flac', 'ogg', 'aac'] as const;
export type SpeechFormat = (typeof SPEECH_FORMATS)[number];

export const MIME_BY_EXTENSION: Record<string, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  ogg: 'audio/ogg',
  aac: 'audio/aac',
  webm: 'audio/webm',
  m4a: 'audio/mp4',
};

/** From a Content-Type the server sent (or the format we asked for) to a file extension we serve. */
export function extensionFor(contentType: string | null, requested: string): string {
  const ct = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const byType: Record<string, string> = {
    'audio/wav': 'wav',
    'audio/x-wav': 'wav',
    'audio/wave': 'wav',
    'audio/vnd.wave': 'wav',
    'audio/mpeg': 'mp3',
    'audio/mp3': 'mp3',
    'audio/flac': 'flac',
    'audio/x-flac': 'flac',
    'audio/ogg': 'ogg',
    'audio/opus': 'ogg',
    'audio/aac': 'aac',
  };
  if (byType[ct]) return byType[ct];
  if (requested === 'opus') return 'ogg';
  return requested in MIME_BY_EXTENSION ? requested : 'wav';
}

/**
 * espeak-ng writing to a pipe cannot seek back to fill in the RIFF sizes, so it leaves placeholders.
 * Players cope, but a HEAD check and seeking want true sizes: write them in.
 */
export function fixWavSizes(wav: Buffer): Buffer {
  if (wav.length < 44 || wav.toString('ascii', 0, 4) !== 'RIFF' || wav.toString('ascii', 8, 12) !== 'WAVE') return wav;
  wav.writeUInt32LE(wav.length - 8, 4);
  // Walk the chunks to the data chunk (usually right after a 16-byte fmt chunk).
  let at = 12;
  while (at + 8 <= wav.length) {
    const id = wav.toString('ascii', at, at + 4);
    if (id === 'data') {
      wav.writeUInt32LE(wav.length - at - 8, at + 4);
      break;
    }
    at += 8 + wav.readUInt32LE(at + 4);
  }
  return wav;
}
