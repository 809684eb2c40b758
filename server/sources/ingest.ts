import type { Source } from '../../src/schemas/sources';
import type { Db, Queryable } from '../db/db';
import { HttpError } from '../http/errors';
import type { SourcesConfig } from './config';
import { embedAfterStore } from './embed';
import { fetchPage } from './fetchPage';
import type { PassageDraft } from './passages';
import { UnreadableSource } from './read/types';
import { insertSource, usageOf } from './store';
import type { ReaderPool } from './worker/readerPool';

// Adding a source: the caps checked before reading (count, quota); a web page fetched here (I/O, on the event loop);
// then the reading as a job (queue/): the document parsed and cut into passages in a reader thread
// (worker/readerPool.ts), and stored in one transaction with the caps checked again under the user's lock. All of
// it within SOURCE_READ_TIMEOUT_MS. A file that cannot be read is refused and nothing of it is kept.

const MB = 1024 * 1024;

async function checkRoom(db: Queryable, cfg: SourcesConfig, userId: string, adding: number) {
  const used = await usageOf(db, userId);
  if (used.count >= cfg.perUser)
    throw new HttpError(
      409,
      `You have ${used.count} sources, the most one person may keep (SOURCES_PER_USER); remove some first.`,
    );
  if (used.bytes + adding > cfg.quotaBytes)
    throw new HttpError(
      413,
      `Your sources would take ${((used.bytes + adding) / MB).toFixed(1)} MB of the ${(cfg.quotaBytes / MB).toFixed(0)} MB each person may keep (SOURCE_QUOTA_MB); remove some first.`,
    );
}

export const readTimeSentence = (cfg: SourcesConfig) =>
  `Reading took longer than ${Math.round(cfg.readTimeoutMs / 1000)} s (SOURCE_READ_TIMEOUT_MS); nothing was added.`;

/** One source to read: the file (or the page's body) and who adds it, by when it must be done. */
export interface ReadJob {
  userId: string;
  fileName: string;
  /** The page's address when it is a web page (its title names it then), else null. */
  url: string | null;
  bytes: Uint8Array;
  /** Epoch ms: SOURCE_READ_TIMEOUT_MS after the POST began. */
  deadline: number;
}

/** What a reader thread made of a job's file. */
export interface ReadResult {
  kind: Source['kind'];
  title: string | null;
  pages: number;
  passages: PassageDraft[];
}

const asHttp = (e: unknown) => (e instanceof UnreadableSource ? new HttpError(e.status, e.message) : e);

/** Step 1 of a job: the document parsed and cut into passages in a reader thread; a refusal is an HttpError. */
export async function readDocument(pool: ReaderPool, cfg: SourcesConfig, job: ReadJob): Promise<ReadResult> {
  const left = job.deadline - Date.now();
  if (left <= 0) throw new HttpError(422, readTimeSentence(cfg));
  const read = await pool
    .read(
      {
        fileName: job.fileName,
        bytes: job.bytes,
        maxPages: cfg.maxPages,
        unzippedMaxBytes: cfg.unzippedMaxBytes,
        maxPassages: cfg.maxPassages,
      },
      left,
    )
    .catch((e) => {
      throw asHttp(e);
    });
  if (!read.passages.length) throw new HttpError(422, 'This document has no text to read.');
  return read;
}

/**
 * Step 2 of a job: the source and its passages stored in one transaction, the caps checked again under the user's
 * row lock. `claim` runs first in the same transaction (the queue's ticket: a job whose waiter gave up stores
 * nothing). Steps that follow a stored source (embedding its passages) come after this call.
 */
export async function storeSource(
  db: Db,
  cfg: SourcesConfig,
  job: ReadJob,
  read: ReadResult,
  claim?: (tx: Queryable) => Promise<void>,
): Promise<Source> {
  const name = job.url !== null ? (read.title ?? job.fileName) : job.fileName;
  const stored = await db.transaction(async (tx) => {
    await claim?.(tx);
    // The user's row is the lock: two additions of one person are counted one after the other.
    await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [job.userId]);
    await checkRoom(tx, cfg, job.userId, job.bytes.length);
    return insertSource(
      tx,
      {
        userId: job.userId,
        name: name.slice(0, 200),
        kind: read.kind,
        url: job.url,
        pages: read.pages,
        bytes: job.bytes.length,
      },
      read.passages,
    );
  });
  return embedAfterStore(db, job.userId, stored);
}

/** A whole job, as either queue runs it. */
export async function readAndStore(
  deps: { db: Db; cfg: SourcesConfig; pool: ReaderPool },
  job: ReadJob,
  claim?: (tx: Queryable) => Promise<void>,
): Promise<Source> {
  const read = await readDocument(deps.pool, deps.cfg, job);
  return storeSource(deps.db, deps.cfg, job, read, claim);
}

export async function addSource(
  db: Db,
  cfg: SourcesConfig,
  /** Either queue (queue/): in-process on PGlite, pg-boss with DATABASE_URL. */
  queue: { submit(job: ReadJob): Promise<Source> },
  userId: string,
  input: { fileName: string; bytes: Uint8Array } | { url: string },
): Promise<Source> {
  const deadline = Date.now() + cfg.readTimeoutMs;
  await checkRoom(db, cfg, userId, 'bytes' in input ? input.bytes.length : 0);
  let file: { url: string | null; fileName: string; bytes: Uint8Array };
  if ('url' in input) {
    const signal = AbortSignal.timeout(cfg.readTimeoutMs);
    file = await fetchPage(input.url, { maxBytes: cfg.maxBytes, allowPrivate: cfg.allowPrivate, signal }).catch((e) => {
      if (signal.aborted) throw new HttpError(422, readTimeSentence(cfg));
      throw asHttp(e);
    });
  } else file = { url: null, fileName: input.fileName, bytes: input.bytes };
  return queue.submit({ userId, fileName: file.fileName, url: file.url, bytes: file.bytes, deadline });
}
