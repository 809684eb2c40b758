import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { mkdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { AudioExt } from './sniff';

// Reference audio lives in <mediaDir>/audio under names the server makes (uuid + sniffed extension).
// The client's filename never reaches the disk, so nothing it sends can point outside this folder.

export const audioDir = (mediaDir: string) => path.join(mediaDir, 'audio');

export async function ensureAudioDir(mediaDir: string): Promise<string> {
  const dir = audioDir(mediaDir);
  await mkdir(dir, { recursive: true });
  return dir;
}

const STORED_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(wav|mp3|webm|m4a|ogg|flac)$/;

/** True only for names this server makes: the media route refuses anything else before touching the disk. */
export const isStoredName = (name: string) => STORED_NAME.test(name);

export const newStoredName = (ext: AudioExt) => `${randomUUID()}.${ext}`;

/** Where a stored file is; throws for a name the server would never have made. */
export function storedPath(mediaDir: string, name: string): string {
  if (!isStoredName(name)) throw new Error(`Not a stored audio name: ${name}`);
  return path.join(audioDir(mediaDir), name);
}

/** 256 random bits: the capability that lets an <audio> element (which sends no bearer token) fetch the file. */
export const newAccessKey = () => randomBytes(32).toString('base64url');

export function keyMatches(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const audioUrl = (fileName: string, accessKey: string) => `/media/audio/${fileName}?key=${accessKey}`;

/** Removes stored files; a file already gone is not an error (the rows are the source of truth). */
export async function removeStoredFiles(mediaDir: string, names: string[], log?: (msg: string) => void) {
  await Promise.all(
    names.map(async (n) => {
      try {
        await unlink(storedPath(mediaDir, n));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') log?.(`could not remove ${n}: ${(e as Error).message}`);
      }
    }),
  );
}
