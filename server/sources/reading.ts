import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context';
import { inProcessQueue } from './queue/inProcessQueue';
import { PgBossReadQueue } from './queue/pgBossQueue';
import type { SourceReadQueue } from './queue/readQueue';
import { ReaderPool } from './worker/readerPool';

// How sources are read in this process (docs/sources.md#how-reading-runs): the reader threads, and the queue a
// source to read waits in — in-process on PGlite, a PostgreSQL job queue with DATABASE_URL.

export interface SourceReading {
  pool: ReaderPool;
  queue: SourceReadQueue;
  close(): Promise<void>;
}

declare module '../context' {
  interface AppContext {
    /** Made by the sources' routes (server/sources/routes.ts). */
    sourceReading?: SourceReading;
  }
}

export function createSourceReading(ctx: AppContext, log: FastifyBaseLogger): SourceReading {
  const cfg = ctx.config.sources;
  const pool = new ReaderPool({ threads: cfg.readThreads, memoryMb: cfg.readMemoryMb });
  const deps = { db: ctx.db, cfg, pool };
  let queue: SourceReadQueue;
  if (ctx.db.kind === 'postgres' && ctx.config.databaseUrl) {
    const pg = new PgBossReadQueue({ ...deps, url: ctx.config.databaseUrl, log });
    // Started in the background: the server's start does not wait for pg-boss, the first addition does.
    pg.start().catch((err) => log.warn({ err }, 'the source reading queue did not start'));
    queue = pg;
  } else queue = inProcessQueue(deps);
  return {
    pool,
    queue,
    async close() {
      await queue.close();
      await pool.close();
    },
  };
}
