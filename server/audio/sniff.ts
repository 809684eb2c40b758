import type { AUDIO_EXTENSIONS } from '../../src/schemas/constants';

export type AudioExt = (typeof AUDIO_EXTENSIONS)[number];
export interface AudioKind {
  ext: AudioExt;
  mime: string;
}

/** How many leading bytes `sniffAudio` needs to decide. */
export const SNIFF_BYTES = 64;

const ascii = (b: Buffer, at: number, s: string) =>
  b.length >= at + s.length && b.toString('latin1', at, at + s.length) === s;

// An MPEG audio frame header (no ID3 tag): 11 sync bits, a real version and layer, a usable bitrate and
// sample-rate index. ADTS AAC shares the sync word but has layer 00, so it is not taken for mp3.
function isMpegFrame(b: Buffer): boolean {
  if (b.length < 4 || b[0] !== 0xff || (b[1] & 0xe0) !== 0xe0) return false;
  const version = (b[1] >> 3) & 0x03;
  const layer = (b[1] >> 1) & 0x03;
  const bitrate = b[2] >> 4;
  const sampleRate = (b[2] >> 2) & 0x03;
  return version !== 0x01 && layer !== 0x00 && bitrate !== 0x0f && sampleRate !== 0x03;
}

/**
 * The audio type of a file judged by its first bytes (its name and declared type are not trusted).
 * Null for anything that is not one of the accepted kinds — an executable renamed to .wav included.
 */
export function sniffAudio(head: Buffer): AudioKind | null {
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WAVE')) return { ext: 'wav', mime: 'audio/wav' };
  if (ascii(head, 0, 'ID3') || isMpegFrame(head)) return { ext: 'mp3', mime: 'audio/mpeg' };
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return { ext: 'webm', mime: 'audio/webm' };
  if (ascii(head, 4, 'ftyp')) return { ext: 'm4a', mime: 'audio/mp4' };
  if (ascii(head, 0, 'OggS')) return { ext: 'ogg', mime: 'audio/ogg' };
  if (ascii(head, 0, 'fLaC')) return { ext: 'flac', mime: 'audio/flac' };
  return null;
}
