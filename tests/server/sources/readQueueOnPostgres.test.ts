import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config';
import { type Db, openDb } from '../../../server/db/db';
import { migrate } from '../../../server/db/migrate';
import type { ReadJob } from '../../../server/sources/ingest';
import { PgBossReadQueue, READ_QUEUE } from '../../../server/sources/queue/pgBossQueue';
import { ReaderPool } from '../../../server/sources/worker/readerPool';
import { pdfOf } from '../../support/documents';
import { postgresUnavailableReason, startPostgres, type PgCluster } from '../postgresCluster';

// With DATABASE_URL a source to read is a pg-boss job (server/sources/queue/pgBossQueue.ts). A job taken by a
// process that dies is taken again by a live one once it expires, and stored whole; a job nobody will finish is
// cleaned (its ticket swept); a waiter that gives up leaves nothing stored. No source row is ever half.
const reason = postgresUnavailableReason();
describe.skipIf(reason !== null)(
  `the source reading queue on PostgreSQL${reason ? ` (skipped: ${reason})` : ''}`,
  () => {
    let cluster: PgCluster;
    let db: Db;
    let dir: string;
    const pool = new ReaderPool({ threads: 1, memoryMb: 256 });
    // A 3 s read cap (the reader thread is started beforehand): a job expires 8 s after it was taken.
    const cfg = loadConfig({ SOURCE_READ_TIMEOUT_MS: '3000' }).sources;
    const queues: PgBossReadQueue[] = [];
    const queue = (work: boolean) => {
      const q = new PgBossReadQueue({ url: cluster.url, db, cfg, pool, work });
      queues.push(q);
      return q;
    };
    let userId: string;
    const job = (fileName = 'report.pdf'): ReadJob => ({
      userId,
      fileName,
      url: null,
      bytes: pdfOf(['The ferry carries 4,000 riders a day.', 'The bridge is closed on Sundays.']),
      deadline: Date.now() + 60_000,
    });
    const count = async (sql: string) => Number((await db.query<{ n: string }>(sql, [userId]))[0].n);
    const tickets = () => count('SELECT count(*) AS n FROM source_reads WHERE user_id = $1');
    const sources = () => count('SELECT count(*) AS n FROM sources WHERE user_id = $1');
    const passages = () => count('SELECT count(*) AS n FROM source_passages WHERE user_id = $1');

    beforeAll(async () => {
      cluster = await startPostgres();
      dir = mkdtempSync(path.join(tmpdir(), 'agora-read-queue-'));
      db = await openDb({ databaseUrl: cluster.url, dataDir: dir });
      await migrate(db);
      const warm = { fileName: 'warm.txt', bytes: new TextEncoder().encode('Warm.'), maxPassages: 10 };
      await pool.read({ ...warm, maxPages: 1, unzippedMaxBytes: 1024 * 1024 }, 60_000);
    }, 90_000);
    afterAll(async () => {
      for (const q of queues) await q.close();
      await pool.close();
      await db?.close();
      await cluster?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });
    const newUser = async () => {
      userId = randomUUID();
      await db.query(`INSERT INTO users (id, email, password_hash) VALUES ($1, $2, 'x')`, [userId, `${userId}@test`]);
    };

    it('reads a job in a live process and answers the waiter', async () => {
      await newUser();
      const source = await queue(true).submit(job());
      expect(source).toMatchObject({ kind: 'pdf', pages: 2, passages: 2, status: 'ready' });
      expect([await tickets(), await sources(), await passages()]).toEqual([0, 1, 2]);
    }, 60_000);

    it('takes again a job whose process died while reading it, and stores it whole', async () => {
      await newUser();
      const dying = queue(false);
      const boss = await dying.start();
      const { readId, jobId } = await dying.enqueue(job());
      // The dying process takes the job and never finishes it.
      const [taken] = await boss.fetch(READ_QUEUE);
      expect(taken.id).toBe(jobId);
      const live = queue(true);
      const liveBoss = await live.start();
      await new Promise((r) => setTimeout(r, 2_000));
      expect(await sources()).toBe(0);
      // Past its expiry the supervisor (run here rather than waiting for its timer) lets another process take it.
      const outcome = live.outcome(readId, jobId, Date.now() + 60_000);
      await new Promise((r) => setTimeout(r, (dying.expireSeconds - 2) * 1_000 + 500));
      await liveBoss.supervise(READ_QUEUE);
      const source = await outcome;
      expect(source).toMatchObject({ kind: 'pdf', passages: 2 });
      expect([await tickets(), await sources(), await passages()]).toEqual([0, 1, 2]);
    }, 90_000);

    it('cleans a job nobody will finish: its ticket is swept and nothing is stored', async () => {
      await newUser();
      const dying = queue(false);
      const boss = await dying.start();
      const { jobId } = await dying.enqueue(job());
      const [taken] = await boss.fetch(READ_QUEUE);
      expect(taken.id).toBe(jobId);
      expect(await tickets()).toBe(1);
      // Every process that could take it is gone: the sweep removes tickets older than all its attempts' expiry.
      expect(await dying.sweep(0)).toBeGreaterThanOrEqual(1);
      await boss.cancel(READ_QUEUE, jobId);
      expect([await tickets(), await sources(), await passages()]).toEqual([0, 0, 0]);
    }, 60_000);

    it('stores nothing for a waiter that gave up, even when the job runs afterwards', async () => {
      await newUser();
      const dying = queue(false);
      const boss = await dying.start();
      const { readId, jobId } = await dying.enqueue(job());
      await expect(dying.outcome(readId, jobId, Date.now())).rejects.toMatchObject({ status: 422 });
      expect(await tickets()).toBe(0);
      // Had a process taken the job before it was cancelled, it finds no ticket and stores nothing.
      const [late] = await boss.fetch(READ_QUEUE);
      expect(late).toBeUndefined();
      expect(await sources()).toBe(0);
    }, 60_000);
  },
);
