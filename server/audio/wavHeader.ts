import { open } from 'node:fs/promises';

// What a WAV file says about itself, read from its header before any converter sees it: a 20 KB file that
// declares a 1 Hz sample rate is hours of audio to a resampler (sox would write hundreds of megabytes), so the
// rate and the duration are judged first (transcription.ts).

export interface WavInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** Seconds of audio the data chunk holds (by its declared size, or by the file's size when that is a placeholder). */
  seconds: number;
}

/** Sample rates real recordings use lie well inside this; anything outside is refused as absurd. */
export const WAV_MIN_RATE = 4_000;
export const WAV_MAX_RATE = 384_000;

const HEAD_BYTES = 64 * 1024;

/** Reads the header of a RIFF/WAVE file; null when it is not one or its header is unreadable. */
export async function readWavInfo(file: string): Promise<WavInfo | null> {
  const fh = await open(file, 'r');
  let head: Buffer;
  let size: number;
  try {
    size = (await fh.stat()).size;
    const buf = Buffer.alloc(Math.min(HEAD_BYTES, size));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    head = buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
  return parseWavHeader(head, size);
}

export function parseWavHeader(head: Buffer, fileSize: number): WavInfo | null {
  const tag = (at: number) => head.toString('latin1', at, at + 4);
  if (head.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') return null;
  let fmt: { channels: number; sampleRate: number; byteRate: number; bitsPerSample: number } | null = null;
  let at = 12;
  while (at + 8 <= head.length) {
    const id = head.toString('latin1', at, at + 4);
    const len = head.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ' && body + 16 <= head.length) {
      fmt = {
        channels: head.readUInt16LE(body + 2),
        sampleRate: head.readUInt32LE(body + 4),
        byteRate: head.readUInt32LE(body + 8),
        bitsPerSample: head.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (!fmt) return null;
      const available = Math.max(0, fileSize - body);
      const bytes = Math.min(len, available);
      const byteRate = fmt.byteRate || (fmt.sampleRate * fmt.channels * fmt.bitsPerSample) / 8;
      const seconds = byteRate > 0 ? bytes / byteRate : Infinity;
      return { sampleRate: fmt.sampleRate, channels: fmt.channels, bitsPerSample: fmt.bitsPerSample, seconds };
    }
    at = body + len + (len % 2);
  }
  return null;
}

/** Why a WAV may not be transcribed, or null when it may. */
export function wavRefusal(info: WavInfo | null, maxMinutes: number): string | null {
  if (!info) return 'The server could not read the audio: its WAV header (fmt and data chunks) is missing or broken';
  if (info.sampleRate < WAV_MIN_RATE || info.sampleRate > WAV_MAX_RATE) {
    const range = `${WAV_MIN_RATE}–${WAV_MAX_RATE} Hz`;
    return `The WAV file declares a sample rate of ${info.sampleRate} Hz; this server transcribes ${range} audio only`;
  }
  if (info.channels < 1 || info.channels > 8) {
    return `The WAV file declares ${info.channels} channels; this server transcribes 1 to 8`;
  }
  if (info.seconds > maxMinutes * 60) {
    const most = duration(maxMinutes * 60);
    return `The recording is ${duration(info.seconds)} long; this server transcribes up to ${most} (TRANSCRIBE_MAX_MINUTES)`;
  }
  return null;
}

const duration = (seconds: number) => {
  if (!Number.isFinite(seconds)) return 'endless';
  return seconds >= 90 ? `${Math.round(seconds / 60)} minutes` : `${Math.round(seconds * 10) / 10} s`;
};
