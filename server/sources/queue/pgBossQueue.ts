import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { PgBoss } from 'pg-boss';
import type { Source } from '../../../src/schemas/sources';
import type { Db } from '../../db/db';
import { HttpError } from '../../http/errors';
import type { SourcesConfig } from '../config';
import { type ReadJob, readAndStore, readTimeSentence } from '../ingest';
import type { ReaderPool } from '../worker/readerPool';
import type { SourceReadQueue } from './readQueue';

// With DATABASE_URL a source to read is a pg-boss job (docs/sources.md#how-reading-runs): the file waits in
// source_reads (the job's ticket, migration 016) and any process's worker takes the job, reads the file in its
// reader threads and stores the source, deleting the ticket in the same transaction. The process that took the
// POST waits for the job's outcome and answers with it.
//
// A crash never leaves a source half: the source and its passages are one transaction. A job whose process died
// while reading expires after the read cap (pg-boss's supervisor) and is taken again by a live process (once:
// RETRY_LIMIT), which reads it from its ticket. A waiter that reaches its deadline deletes the ticket, so the job
// then stores nothing; a ticket left by processes that all died is swept (sweep()).

export const READ_QUEUE = 'source-read';
const RETRY_LIMIT = 1;
/** How often a waiter looks at its job's state. */
const WAIT_POLL_MS = 100;
/** How often each process looks for jobs submitted by others (its own are handed to its worker at once). */
const POLL_SECONDS = 2;
const SWEEP_EVERY_MS = 5 * 60_000;

type JobOutput = { source: Source } | { refused: { status: number; detail: string } } | { gone: true };

class TicketGone extends Error {}

export interface PgBossQueueOptions {
  url: string;
  db: Db;
  cfg: SourcesConfig;
  pool: ReaderPool;
  log?: Pick<FastifyBaseLogger, 'warn'>;
  /** Whether this process takes jobs (default true; a test's stand-in for a process that dies does not). */
  work?: boolean;
}

export class PgBossReadQueue implements SourceReadQueue {
  readonly kind = 'postgres';
  private workerId: string | null = null;
  private starting: Promise<PgBoss> | null = null;
  private sweeper: NodeJS.Timeout | null = null;

  constructor(private readonly opts: PgBossQueueOptions) {}

  /** How long a job may be active before another process may take it: a whole read, and the store after it. */
  get expireSeconds(): number {
    return Math.ceil(this.opts.cfg.readTimeoutMs / 1000) + 5;
  }

  /** Starts pg-boss once (its schema, the queue, this process's worker); every call waits for the same start. */
  start(): Promise<PgBoss> {
    this.starting ??= (async () => {
      const { PgBoss } = await import('pg-boss');
      const boss = new PgBoss({ connectionString: this.opts.url, max: 3, schedule: false, supervise: true });
      boss.on('error', (err) => this.opts.log?.warn({ err }, 'source reading queue'));
      await boss.start();
      await boss.createQueue(READ_QUEUE, {
        expireInSeconds: this.expireSeconds,
        retryLimit: RETRY_LIMIT,
        retryDelay: 0,
        deleteAfterSeconds: 3_600,
      });
      if (this.opts.work !== false) {
        this.workerId = await boss.work<{ readId: string }, JobOutput>(
          READ_QUEUE,
          { pollingIntervalSeconds: POLL_SECONDS, localConcurrency: this.opts.cfg.readThreads },
          async ([job]) => this.handle(job.data.readId),
        );
        await this.sweep().catch((err) => this.opts.log?.warn({ err }, 'sweeping source tickets'));
        this.sweeper = setInterval(
          () => void this.sweep().catch((err) => this.opts.log?.warn({ err }, 'sweeping source tickets')),
          SWEEP_EVERY_MS,
        );
        this.sweeper.unref();
      }
      return boss;
    })();
    return this.starting;
  }

  /** Puts a job in the queue (its ticket first); this process's worker is woken to take it. */
  async enqueue(job: ReadJob): Promise<{ readId: string; jobId: string }> {
    const boss = await this.start();
    const readId = randomUUID();
    await this.opts.db.query(
      'INSERT INTO source_reads (id, user_id, file_name, url, bytes) VALUES ($1, $2, $3, $4, $5)',
      [
        readId,
        job.userId,
        job.fileName,
        job.url,
        Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.length),
      ],
    );
    // The job's own expiry and retries (the queue keeps the ones it was created with when the cap changes later).
    const jobId = await boss.send(
      READ_QUEUE,
      { readId },
      { expireInSeconds: this.expireSeconds, retryLimit: RETRY_LIMIT, retryDelay: 0 },
    );
    if (!jobId) throw new Error('the source reading queue did not take the job');
    if (this.workerId) boss.notifyWorker(this.workerId);
    return { readId, jobId };
  }

  async submit(job: ReadJob): Promise<Source> {
    const { readId, jobId } = await this.enqueue(job);
    return this.outcome(readId, jobId, job.deadline);
  }

  /** Waits for a job's outcome until the deadline; then gives the job up (its ticket deleted) unless it just stored. */
  async outcome(readId: string, jobId: string, deadline: number): Promise<Source> {
    const boss = await this.start();
    let givenUp = false;
    for (;;) {
      const job = await boss.getJobById<{ readId: string }>(READ_QUEUE, jobId);
      if (job?.state === 'completed') {
        const out = job.output as JobOutput;
        if ('source' in out) return out.source;
        if ('refused' in out) throw new HttpError(out.refused.status, out.refused.detail);
        throw new HttpError(422, readTimeSentence(this.opts.cfg));
      }
      if (!job || job.state === 'failed' || job.state === 'cancelled') {
        await this.dropTicket(readId);
        throw new HttpError(503, 'The source could not be read (the reader failed); add it again.');
      }
      if (!givenUp && Date.now() >= deadline) {
        givenUp = true;
        // Whoever deletes the ticket first wins: the waiter (nothing will be stored) or the job (it is storing).
        if (await this.dropTicket(readId)) {
          await boss.cancel(READ_QUEUE, jobId).catch(() => undefined);
          throw new HttpError(422, readTimeSentence(this.opts.cfg));
        }
      }
      // A job that claimed its ticket is committing; its outcome follows within moments.
      if (givenUp && Date.now() >= deadline + 10_000) throw new HttpError(422, readTimeSentence(this.opts.cfg));
      await new Promise((r) => setTimeout(r, WAIT_POLL_MS));
    }
  }

  /** One job, in whichever process took it. A thrown error is a failed attempt (retried, then failed). */
  private async handle(readId: string): Promise<JobOutput> {
    const [ticket] = await this.opts.db.query<{
      user_id: string;
      file_name: string;
      url: string | null;
      bytes: Buffer;
    }>('SELECT user_id, file_name, url, bytes FROM source_reads WHERE id = $1', [readId]);
    if (!ticket) return { gone: true };
    const job: ReadJob = {
      userId: ticket.user_id,
      fileName: ticket.file_name,
      url: ticket.url,
      bytes: new Uint8Array(ticket.bytes),
      deadline: Date.now() + this.opts.cfg.readTimeoutMs,
    };
    try {
      const source = await readAndStore(this.opts, job, async (tx) => {
        const claimed = await tx.query('DELETE FROM source_reads WHERE id = $1 RETURNING id', [readId]);
        if (!claimed.length) throw new TicketGone();
      });
      return { source };
    } catch (e) {
      if (e instanceof TicketGone) return { gone: true };
      if (!(e instanceof HttpError)) throw e;
      await this.dropTicket(readId);
      return { refused: { status: e.status, detail: e.message } };
    }
  }

  private async dropTicket(readId: string): Promise<boolean> {
    return (await this.opts.db.query('DELETE FROM source_reads WHERE id = $1 RETURNING id', [readId])).length > 0;
  }

  /** Deletes tickets no job will take any more: older than every attempt's expiry together. */
  async sweep(olderThanMs = (RETRY_LIMIT + 2) * this.expireSeconds * 1000): Promise<number> {
    const rows = await this.opts.db.query(
      `DELETE FROM source_reads WHERE created_at < now() - ($1::double precision * interval '1 millisecond') RETURNING id`,
      [olderThanMs],
    );
    return rows.length;
  }

  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    const starting = this.starting;
    this.starting = null;
    const boss = await starting?.catch(() => null);
    await boss?.stop({ graceful: true, timeout: 5_000 }).catch(() => undefined);
  }
}
