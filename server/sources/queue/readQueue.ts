import type { Source } from '../../../src/schemas/sources';
import type { ReadJob } from '../ingest';

/**
 * Where a source to read waits for a reader. `submit` resolves with the stored source once its job is done, or
 * rejects with the refusal (an HttpError with the person's sentence), within the job's deadline; past the deadline
 * the job is given up and nothing of it is stored. PGlite (one process) runs jobs in this process
 * (inProcessQueue.ts); with DATABASE_URL a job is a row of a PostgreSQL job queue any process takes
 * (pgBossQueue.ts).
 */
export interface SourceReadQueue {
  readonly kind: 'in-process' | 'postgres';
  submit(job: ReadJob): Promise<Source>;
  close(): Promise<void>;
}
