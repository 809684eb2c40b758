import type { Source } from '../../src/schemas/sources';
import type { Db } from '../db/db';
import { HttpError } from '../http/errors';
import type { SourcesConfig } from './config';
import { embedAfterStore } from './embed';
import { fetchPage } from './fetchPage';
import { passagesOf } from './passages';
import { readSourceFile } from './read';
import { UnreadableSource } from './read/types';
import { insertSource, usageOf } from './store';

// Adding a source: the caps checked before reading (count, quota), the document read within SOURCE_READ_TIMEOUT_MS,
// cut into passages, and stored in one transaction with the caps checked again under the user's lock. A file that
// cannot be read is refused here and nothing of it is kept.

const MB = 1024 * 1024;

async function checkRoom(db: Pick<Db, 'query'>, cfg: SourcesConfig, userId: string, adding: number) {
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

/** Runs `work` with an abort signal that fires at the read time cap; the cap's refusal is a clear 422. */
async function withinReadTime<T>(cfg: SourcesConfig, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(
        new UnreadableSource(
          `Reading took longer than ${Math.round(cfg.readTimeoutMs / 1000)} s (SOURCE_READ_TIMEOUT_MS); nothing was added.`,
        ),
      );
    }, cfg.readTimeoutMs);
  });
  try {
    return await Promise.race([work(controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function addSource(
  db: Db,
  cfg: SourcesConfig,
  userId: string,
  input: { fileName: string; bytes: Uint8Array } | { url: string },
): Promise<Source> {
  await checkRoom(db, cfg, userId, 'bytes' in input ? input.bytes.length : 0);
  const read = await withinReadTime(cfg, async (signal) => {
    const file =
      'url' in input
        ? await fetchPage(input.url, { maxBytes: cfg.maxBytes, allowPrivate: cfg.allowPrivate, signal })
        : { url: null, fileName: input.fileName, bytes: input.bytes };
    const doc = await readSourceFile(file.fileName, file.bytes, {
      maxPages: cfg.maxPages,
      unzippedMaxBytes: cfg.unzippedMaxBytes,
      signal,
    });
    return { file, doc, passages: passagesOf(doc.sections, cfg.maxPassages) };
  }).catch((e) => {
    if (e instanceof UnreadableSource) throw new HttpError(e.status, e.message);
    throw e;
  });
  if (!read.passages.length) throw new HttpError(422, 'This document has no text to read.');
  const name = 'url' in input ? (read.doc.title ?? read.file.fileName) : input.fileName;
  const stored = await db.transaction(async (tx) => {
    // The user's row is the lock: two additions of one person are counted one after the other.
    await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
    await checkRoom(tx, cfg, userId, read.file.bytes.length);
    return insertSource(
      tx,
      {
        userId,
        name: name.slice(0, 200),
        kind: read.doc.kind,
        url: read.file.url,
        pages: read.doc.pages,
        bytes: read.file.bytes.length,
      },
      read.passages,
    );
  });
  return embedAfterStore(db, userId, stored);
}
