import { readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { isTtsName, ttsDir } from './media';

// Speech clips are only needed while a discussion is heard or exported soon after, so they do not pile up
// forever: clips older than the retention are removed at start and then every hour.

export const TTS_PRUNE_INTERVAL_MS = 60 * 60_000;

/** Removes clips this server made that are older than `maxAgeMs`; answers how many went. */
export async function pruneTtsClips(mediaDir: string, maxAgeMs: number, now = Date.now()): Promise<number> {
  const dir = ttsDir(mediaDir);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0; // no clip was ever written
  }
  let removed = 0;
  for (const name of names) {
    if (!isTtsName(name)) continue; // never touch what we did not make
    const file = path.join(dir, name);
    try {
      if (now - (await stat(file)).mtimeMs > maxAgeMs) {
        await unlink(file);
        removed++;
      }
    } catch {
      // gone meanwhile: nothing to do
    }
  }
  return removed;
}

/** Prunes now and every hour until the returned stop function is called. A retention of 0 keeps clips forever. */
export function scheduleTtsPruning(mediaDir: string, maxAgeMs: number, onError: (err: unknown) => void): () => void {
  if (maxAgeMs <= 0) return () => {};
  const run = () => void pruneTtsClips(mediaDir, maxAgeMs).catch(onError);
  run();
  const timer = setInterval(run, TTS_PRUNE_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
