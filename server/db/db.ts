import { PGlite } from '@electric-sql/pglite';
import { pgliteOptions } from './pgliteOptions';
import { seedDataDir, templateDir } from './pgliteTemplate';

// One small interface over both engines so routes never know which one runs. Queries use $1-style
// parameters, which both PGlite and PostgreSQL speak natively.
export interface Db {
  readonly kind: 'pglite' | 'postgres';
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  exec(sql: string): Promise<void>;
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** PGlite on disk: whether the data directory was there, copied from the template, or made by initdb (start-up line). */
  readonly opened?: 'existing' | 'copied' | 'initdb';
}
export type Queryable = Pick<Db, 'query'>;

/**
 * How a new PGlite data directory starts (pgliteTemplate.ts): a copy of a template cluster that `prepare` (the
 * migrations) was run on once, kept under `key` (which names the migrations it holds).
 */
export interface PgliteTemplate {
  key: string;
  prepare: (db: Db) => Promise<unknown>;
}

export async function openDb(opts: { databaseUrl?: string; dataDir: string; template?: PgliteTemplate }): Promise<Db> {
  const url = opts.databaseUrl;
  if (url && /^postgres(ql)?:\/\//.test(url)) return openPostgres(url);
  return openPglite(url === 'memory://' ? undefined : `${opts.dataDir}/pgdata`, opts.template);
}

async function openPglite(dir: string | undefined, template?: PgliteTemplate): Promise<Db> {
  const opened = dir
    ? await seedDataDir(dir, templateDir(template?.key), template && ((pg) => template.prepare(wrapPglite(pg))))
    : undefined;
  return wrapPglite(dir ? await PGlite.create(dir, pgliteOptions()) : await PGlite.create(pgliteOptions()), opened);
}

function wrapPglite(db: PGlite, opened?: Db['opened']): Db {
  return {
    kind: 'pglite',
    opened,
    async query<T>(sql: string, params: unknown[] = []) {
      return (await db.query<T>(sql, params)).rows;
    },
    async exec(sql) {
      await db.exec(sql);
    },
    transaction: (fn) =>
      db.transaction((tx) => fn({ query: async <T>(s: string, p: unknown[] = []) => (await tx.query<T>(s, p)).rows })),
    close: () => db.close(),
  };
}

async function openPostgres(url: string): Promise<Db> {
  // Loaded only for PostgreSQL: the embedded database's start does not pay for the client.
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection the database drops (a restart, an administrator's terminate) is reported here; the pool
  // discards it and the next query opens a new one. Without a listener the error would end the process.
  pool.on('error', () => {});
  await pool.query('SELECT 1');
  return {
    kind: 'postgres',
    async query<T>(sql: string, params: unknown[] = []) {
      return (await pool.query(sql, params)).rows as T[];
    },
    async exec(sql) {
      await pool.query(sql);
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn({
          query: async <T>(s: string, p: unknown[] = []) => (await client.query(s, p)).rows as T[],
        });
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
