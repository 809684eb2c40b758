import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

// Synthesized speech lives in <mediaDir>/tts under random names and is served at /media/tts/<name>.
// The name is the capability: 128 random bits, because an <audio> element sends no bearer token.

const TTS_NAME = /^[0-9a-f]{32}\.(wav|mp3|flac|ogg|aac)$/;

export const isTtsName = (name: string) => TTS_NAME.test(name);
/** What /media/tts/ serves: a plain stem (no dots, no slashes) and an audio extension, so no name can leave the folder. */
const SERVABLE = /^[A-Za-z0-9_-]{1,128}\.(wav|mp3|flac|ogg|aac)$/;
export const isServableTtsName = (name: string) => SERVABLE.test(name);
export const ttsDir = (mediaDir: string) => path.join(mediaDir, 'tts');
export const ttsUrl = (name: string) => `/media/tts/${name}`;

/** Where a stored clip is; throws for a name this server would never have made. */
export function ttsPath(mediaDir: string, name: string): string {
  if (!isTtsName(name)) throw new Error(`Not a speech clip name: ${name}`);
  return path.join(ttsDir(mediaDir), name);
}

export async function writeTtsAudio(
  mediaDir: string,
  audio: Buffer,
  extension: string,
): Promise<{ filename: string; path: string; url: string }> {
  const filename = `${randomBytes(16).toString('hex')}.${extension}`;
  const file = ttsPath(mediaDir, filename);
  await mkdir(ttsDir(mediaDir), { recursive: true });
  await writeFile(file, audio);
  return { filename, path: file, url: ttsUrl(filename) };
}
