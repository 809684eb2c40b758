import { constants } from 'node:fs';
import { copyFile, link, mkdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { isGguf, safeModelFileName } from './modelFiles';
import { Refused } from './refused';

// 'Add a file' names a path on the server's disk, typed by a user who may not be its operator. So: only
// inside the directories the operator listed (after resolving symbolic links, so a link cannot lead out),
// only a regular file whose name is a safe .gguf name and whose first bytes are GGUF. It is hard-linked
// into the models directory when both are on one file system (instant, no space), else copied.

const within = (dir: string, p: string) => p === dir || p.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);

export async function importModelFile(source: string, importDirs: string[], modelsDir: string): Promise<string> {
  if (!importDirs.length)
    throw new Refused(
      'Adding files from the server’s disk is off: the operator can list directories in BUILTIN_IMPORT_DIRS',
      403,
    );
  if (!path.isAbsolute(source)) throw new Refused('Give the absolute path of the file on the server', 422);
  const outside = () =>
    new Refused(`${source} is not inside a directory models may be added from (${importDirs.join(', ')})`, 403);
  const roots = await Promise.all(importDirs.map((d) => realpath(d).catch(() => null)));
  // Judged on the path as written first, so whether something exists outside the directories is never told.
  const written = path.resolve(source);
  if (!importDirs.some((d) => within(path.resolve(d), written)) && !roots.some((r) => r && within(r, written)))
    throw outside();
  let real: string;
  try {
    real = await realpath(source);
  } catch {
    throw new Refused(`There is no file at ${source}`, 404);
  }
  if (!roots.some((r) => r && within(r, real))) throw outside();
  const s = await stat(real);
  if (!s.isFile()) throw new Refused(`${source} is not a file`, 422);
  const name = path.basename(real);
  if (!safeModelFileName(name))
    throw new Refused(
      `"${name}" is not a usable model file name: it must end in .gguf and use only letters, digits, '.', '_', '+' and '-'`,
      422,
    );
  if (!(await isGguf(real))) throw new Refused(`${name} is not a GGUF model (its first bytes are not "GGUF")`, 422);
  await mkdir(modelsDir, { recursive: true });
  const target = path.join(modelsDir, name);
  try {
    await link(real, target);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new Refused(`${name} is already in the models directory`, 409);
    try {
      await copyFile(real, target, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
    } catch (e2) {
      if ((e2 as NodeJS.ErrnoException).code === 'EEXIST')
        throw new Refused(`${name} is already in the models directory`, 409);
      throw e2;
    }
  }
  return name;
}
