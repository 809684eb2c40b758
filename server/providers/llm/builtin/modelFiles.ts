import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';

// GGUF files in the models directory. A model is named by its file name alone ('builtin:<file>'), never by a
// path, so a name from the network cannot reach outside the directory.

export const BUILTIN_PREFIX = 'builtin:';
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,199}\.gguf$/;
/** Where a download writes until it is complete; never listed as a model. */
export const PARTIAL_SUFFIX = '.part';

export interface ModelFile {
  name: string;
  bytes: number;
  modifiedAt: string;
}

/** A safe file name for a model ('x.gguf', letters, digits, '.', '_', '+', '-'), or null. */
export function safeModelFileName(name: string): string | null {
  return SAFE_NAME.test(name) && !name.includes('..') ? name : null;
}

/** The absolute path of a model file in `dir`, or null when the name is not a safe GGUF file name. */
export function modelPath(dir: string, name: string): string | null {
  const safe = safeModelFileName(name);
  return safe ? path.join(dir, safe) : null;
}

export async function listModelFiles(dir: string): Promise<ModelFile[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const files = await Promise.all(
    names
      .filter((n) => safeModelFileName(n))
      .map(async (name) => {
        try {
          const s = await stat(path.join(dir, name));
          return s.isFile() ? { name, bytes: s.size, modifiedAt: s.mtime.toISOString() } : null;
        } catch {
          return null;
        }
      }),
  );
  return files.filter((f): f is ModelFile => !!f).sort((a, b) => a.name.localeCompare(b.name));
}

/** Whether the file starts with the GGUF magic; anything else is refused before llama.cpp reads it. */
export async function isGguf(file: string): Promise<boolean> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(4);
    const { bytesRead } = await fh.read(buf, 0, 4, 0);
    return bytesRead === 4 && buf.toString('ascii') === 'GGUF';
  } finally {
    await fh.close();
  }
}
