import { randomUUID } from 'node:crypto';
import type { Passage, Source } from '../../src/schemas/sources';
import type { Queryable } from '../db/db';
import { HttpError } from '../http/errors';
import type { PassageDraft } from './passages';

// The sources' SQL. Every query names the user: another user's source is not found, in the same words as one
// that does not exist.

export const SOURCE_NOT_FOUND = 'Source not found';

interface SourceRow {
  id: string;
  name: string;
  kind: Source['kind'];
  url: string | null;
  pages: number;
  passages: number;
  bytes: string | number;
  status: Source['status'];
  created_at: Date | string;
  embed_state?: Source['embedding'];
  embed_error?: string | null;
}

const toSource = (r: SourceRow): Source => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  url: r.url,
  pages: r.pages,
  passages: r.passages,
  bytes: Number(r.bytes),
  status: r.status,
  created_at: new Date(r.created_at).toISOString(),
  searched_by: r.embed_state === 'ready' ? 'words_and_meaning' : 'words',
  embedding: r.embed_state ?? 'none',
  embedding_note: r.embed_state === 'failed' ? `${r.embed_error ?? 'Embedding failed'}; searched by words.` : null,
});

export async function usageOf(db: Queryable, userId: string): Promise<{ count: number; bytes: number }> {
  const [r] = await db.query<{ count: string; bytes: string | null }>(
    'SELECT count(*) AS count, sum(bytes) AS bytes FROM sources WHERE user_id = $1',
    [userId],
  );
  return { count: Number(r?.count ?? 0), bytes: Number(r?.bytes ?? 0) };
}

export interface NewSource {
  userId: string;
  name: string;
  kind: Source['kind'];
  url: string | null;
  pages: number;
  bytes: number;
}

/**
 * Passages per INSERT. PGlite runs each query on the event loop (WebAssembly) and resolves it without letting
 * timers or sockets in, so a large source's rows go in small batches with a turn of the loop between them: the
 * tsvector and GIN work of 8 page-long passages (25 measured up to ~35 ms each under light load, over half the
 * 50 ms /health budget) is what /health and a discussion's deltas wait for at most.
 */
const ROWS_PER_INSERT = 8;
const nextTurnOfTheLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Stores a source and its passages in one transaction: a source is there whole or not at all. */
export async function insertSource(tx: Queryable, s: NewSource, passages: PassageDraft[]): Promise<Source> {
  const id = randomUUID();
  const [row] = await tx.query<SourceRow>(
    `INSERT INTO sources (id, user_id, name, kind, url, pages, passages, bytes, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'ready') RETURNING *`,
    [id, s.userId, s.name, s.kind, s.url, s.pages, passages.length, s.bytes],
  );
  for (let start = 0; start < passages.length; start += ROWS_PER_INSERT) {
    if (start) await nextTurnOfTheLoop();
    const batch = passages.slice(start, start + ROWS_PER_INSERT);
    const params: unknown[] = [];
    const values = batch.map((p, i) => {
      params.push(randomUUID(), id, s.userId, start + i, p.page, p.heading, p.text);
      const b = i * 7;
      return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}, $${b + 7})`;
    });
    await tx.query(
      `INSERT INTO source_passages (id, source_id, user_id, ord, page, heading, text) VALUES ${values.join(', ')}`,
      params,
    );
  }
  return toSource(row);
}

export async function listSources(db: Queryable, userId: string): Promise<Source[]> {
  const rows = await db.query<SourceRow>('SELECT * FROM sources WHERE user_id = $1 ORDER BY created_at DESC, id', [
    userId,
  ]);
  return rows.map(toSource);
}

export async function ownedSource(db: Queryable, userId: string, id: string): Promise<Source> {
  const [row] = await db.query<SourceRow>('SELECT * FROM sources WHERE id = $1 AND user_id = $2', [id, userId]);
  if (!row) throw new HttpError(404, SOURCE_NOT_FOUND);
  return toSource(row);
}

export async function deleteSource(db: Queryable, userId: string, id: string): Promise<void> {
  const rows = await db.query('DELETE FROM sources WHERE id = $1 AND user_id = $2 RETURNING id', [id, userId]);
  if (!rows.length) throw new HttpError(404, SOURCE_NOT_FOUND);
}

interface PassageRow {
  id: string;
  source_id: string;
  page: number | null;
  heading: string | null;
  text: string;
}
const toPassage = (r: PassageRow): Passage => ({
  id: r.id,
  source_id: r.source_id,
  page: r.page,
  heading: r.heading,
  text: r.text,
});

export async function listPassages(
  db: Queryable,
  userId: string,
  sourceId: string,
  offset: number,
  limit: number,
): Promise<{ items: Passage[]; total: number; next_offset: number | null }> {
  const source = await ownedSource(db, userId, sourceId);
  const rows = await db.query<PassageRow>(
    `SELECT id, source_id, page, heading, text FROM source_passages
     WHERE source_id = $1 AND user_id = $2 ORDER BY ord LIMIT $3 OFFSET $4`,
    [sourceId, userId, limit, offset],
  );
  const next = offset + rows.length;
  return { items: rows.map(toPassage), total: source.passages, next_offset: next < source.passages ? next : null };
}

export async function ownedPassage(db: Queryable, userId: string, sourceId: string, passageId: string) {
  const [row] = await db.query<PassageRow>(
    'SELECT id, source_id, page, heading, text FROM source_passages WHERE id = $1 AND source_id = $2 AND user_id = $3',
    [passageId, sourceId, userId],
  );
  if (!row) throw new HttpError(404, 'Passage not found');
  return toPassage(row);
}

/** Whether every id names one of the user's sources. */
export async function ownsAllSources(db: Queryable, userId: string, ids: readonly string[]): Promise<boolean> {
  const unique = [...new Set(ids)];
  if (!unique.length) return true;
  const [r] = await db.query<{ n: string }>(
    'SELECT count(*) AS n FROM sources WHERE user_id = $1 AND id = ANY($2::text[])',
    [userId, unique],
  );
  return Number(r?.n ?? 0) === unique.length;
}

/** Refuses a list naming a source the user does not have (in the words of a missing one). */
export async function checkOwnedSources(db: Queryable, userId: string, ids: readonly string[]): Promise<void> {
  if (!(await ownsAllSources(db, userId, ids))) throw new HttpError(404, SOURCE_NOT_FOUND);
}

/** An agent's own sources (the editor's 'Knowledge' section). */
export async function agentSourceIds(db: Queryable, agentIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (!agentIds.length) return out;
  const rows = await db.query<{ agent_id: string; source_id: string }>(
    'SELECT agent_id, source_id FROM agent_sources WHERE agent_id = ANY($1::text[]) ORDER BY source_id',
    [[...agentIds]],
  );
  for (const r of rows) out.set(r.agent_id, [...(out.get(r.agent_id) ?? []), r.source_id]);
  return out;
}

export async function setAgentSources(tx: Queryable, userId: string, agentId: string, ids: readonly string[]) {
  await checkOwnedSources(tx, userId, ids);
  await tx.query('DELETE FROM agent_sources WHERE agent_id = $1', [agentId]);
  const unique = [...new Set(ids)];
  if (unique.length)
    await tx.query(
      'INSERT INTO agent_sources (agent_id, source_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING',
      [agentId, unique],
    );
}
