import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './db';

const MIGRATION_LOCK = 7_301_011;
const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

const migrationFiles = async (dir: string) => (await readdir(dir)).filter((f) => /^\d+_.*\.sql$/.test(f)).sort();

/** Names the set of migrations (their names and text): a PGlite template cluster made with them is kept under it. */
export async function migrationsKey(dir = MIGRATIONS_DIR): Promise<string> {
  const hash = createHash('sha256');
  for (const file of await migrationFiles(dir))
    hash
      .update(file)
      .update('\0')
      .update(await readFile(path.join(dir, file)))
      .update('\0');
  return hash.digest('hex').slice(0, 12);
}

/** Applies every migrations/NNN_*.sql not yet recorded, in name order, each in its own transaction. */
export async function migrate(db: Db, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = await migrationFiles(dir);
  // The usual start has nothing to apply: it is found out by reading, without the write transaction below (whose
  // commit flushes the log: most of the migrations step of a start on existing data).
  const [{ present }] = await db.query<{ present: boolean }>(
    `SELECT to_regclass('schema_migrations') IS NOT NULL AS present`,
  );
  if (present) {
    const recorded = new Set(
      (await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name),
    );
    if (files.every((f) => recorded.has(f))) return [];
  }
  await db.exec(
    `BEGIN; SELECT pg_advisory_xact_lock(${MIGRATION_LOCK}); CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now()); COMMIT;`,
  );
  const done = new Set((await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
  const applied: string[] = [];
  for (const file of files) {
    if (done.has(file)) continue;
    const sql = await readFile(path.join(dir, file), 'utf8');
    // Several processes may start at once on one PostgreSQL: the advisory lock lets one migrate at a time, and a
    // migration another process already recorded is skipped (the statements are idempotent anyway).
    const name = file.replace(/'/g, "''");
    await db.exec(
      `BEGIN;\nSELECT pg_advisory_xact_lock(${MIGRATION_LOCK});\n${sql}\n;INSERT INTO schema_migrations(name) VALUES ('${name}') ON CONFLICT (name) DO NOTHING;\nCOMMIT;`,
    );
    applied.push(file);
  }
  return applied;
}
