import { constants, existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pgliteOptions } from './pgliteOptions';

// Why this file: a new PGlite data directory runs initdb inside WebAssembly, which writes ~40 MB through the
// emulated file system, then the migrations; together most of a fresh start (seconds). Their result is the same
// for every data directory of one PGlite version and one set of migrations, so it is made once, kept beside the
// installed packages (node_modules/.cache/agora/pgdata-<version>-<migrations key>), and a new data directory
// starts as a plain copy of it (the migrations then find nothing to do). PGlite's own docs suggest the same
// ("pre-populated FS"), but their package lags PGlite's versions; this one always matches.

/** The directory the template cluster of this PGlite version (and `key`) lives in, or null when it has no place. */
export function templateDir(key?: string): string | null {
  try {
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    let dir = path.dirname(entry);
    while (!existsSync(path.join(dir, 'package.json'))) {
      const up = path.dirname(dir);
      if (up === dir) return null;
      dir = up;
    }
    const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string };
    // node_modules/@electric-sql/pglite → node_modules/.cache/agora
    return path.join(dir, '..', '..', '.cache', 'agora', `pgdata-${version}${key ? `-${key}` : ''}`);
  } catch {
    return null;
  }
}

const isCluster = (dir: string) => existsSync(path.join(dir, 'PG_VERSION'));
const isEmpty = (dir: string) => !existsSync(dir) || readdirSync(dir).length === 0;

type Prepare = (db: PGlite) => Promise<unknown>;

/**
 * initdb (and `prepare`) once into a private directory, then move it into place (two servers starting at once
 * both succeed).
 */
async function makeTemplate(template: string, prepare?: Prepare): Promise<void> {
  const work = `${template}.tmp-${process.pid}-${Date.now()}`;
  try {
    await mkdir(path.dirname(template), { recursive: true });
    const db = await PGlite.create(work, pgliteOptions());
    try {
      await prepare?.(db);
    } finally {
      await db.close();
    }
    await rename(work, template).catch((e: NodeJS.ErrnoException) => {
      if (!isCluster(template)) throw e; // another process put its template in place first: use that one
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Copies a directory tree: every folder first, then every file at once (a clone where the file system can).
 * fs.cp walks the ~1,000 files of a cluster one stat and one copy at a time, about ten times slower.
 */
async function copyTree(from: string, to: string): Promise<void> {
  const entries = await readdir(from, { withFileTypes: true, recursive: true });
  const target = (e: { parentPath: string; name: string }) =>
    path.join(to, path.relative(from, path.join(e.parentPath, e.name)));
  await mkdir(to, { recursive: true });
  for (const e of entries) if (e.isDirectory()) await mkdir(target(e), { recursive: true });
  await Promise.all(
    entries
      .filter((e) => e.isFile())
      .map((e) => copyFile(path.join(e.parentPath, e.name), target(e), constants.COPYFILE_FICLONE)),
  );
}

/**
 * Fills a new (missing or empty) PGlite data directory with a copy of the template cluster; an existing one is
 * left alone. Resolves with what happened, for the start-up line. Any failure (a read-only node_modules, a full
 * disk) falls back to PGlite's own initdb: it is only slower.
 */
export async function seedDataDir(
  dir: string,
  template: string | null = templateDir(),
  prepare?: Prepare,
): Promise<'existing' | 'copied' | 'initdb'> {
  if (!isEmpty(dir)) return 'existing';
  if (!template) return 'initdb';
  try {
    if (!isCluster(template)) await makeTemplate(template, prepare);
    await copyTree(template, dir);
    return 'copied';
  } catch {
    await rm(dir, { recursive: true, force: true }).catch(() => {});
    return 'initdb';
  }
}
