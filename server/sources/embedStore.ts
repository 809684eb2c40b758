import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db, Queryable } from '../db/db';

// The SQL of searching by meaning: whether this database has pgvector, the person's embedding model, the passages'
// vectors (each with its model and dimension) and the nearest ones to a question. An HNSW index is made per
// dimension the first time vectors of that dimension are stored (a partial index over a cast: pgvector indexes only
// typed columns), up to pgvector's limit for it; a longer vector is searched exactly.

const MIGRATION = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'db',
  'migrations',
  '016_source_vectors.sql',
);
/** pgvector's HNSW index takes `vector` columns of at most this many dimensions. */
export const HNSW_MAX_DIMENSIONS = 2_000;
/** How many index entries a filtered nearest-neighbour scan reads at most (pgvector's iterative scan). */
export const HNSW_MAX_SCAN_TUPLES = 20_000;

const vectorsTable = async (db: Queryable) =>
  (await db.query<{ present: boolean }>(`SELECT to_regclass('source_passage_vectors') IS NOT NULL AS present`))[0]
    ?.present === true;

/**
 * Whether passages can be embedded here. The migration creates the vector table only where pgvector is installed;
 * a PostgreSQL that gained it since is given the table now (the migration's statements are idempotent).
 */
export async function vectorsAvailable(db: Db): Promise<boolean> {
  if (await vectorsTable(db)) return true;
  const [installed] = await db.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`);
  if (!installed) return false;
  await db.exec(await readFile(MIGRATION, 'utf8')).catch(() => undefined);
  return vectorsTable(db);
}

export interface EmbeddingSetting {
  model: string;
  dimensions: number;
}

export async function embeddingSetting(db: Queryable, userId: string): Promise<EmbeddingSetting | null> {
  const [r] = await db.query<EmbeddingSetting>(
    'SELECT model, dimensions FROM source_embedding_settings WHERE user_id = $1',
    [userId],
  );
  return r ?? null;
}

/**
 * Names the person's embedding model (or none): their sources' vectors of any other model go, and every source
 * is marked to be embedded again ('embedding') or searched by words alone ('none').
 */
export async function setEmbeddingSetting(db: Db, userId: string, next: EmbeddingSetting | null, vectors: boolean) {
  await db.transaction(async (tx) => {
    if (next)
      await tx.query(
        `INSERT INTO source_embedding_settings (user_id, model, dimensions) VALUES ($1, $2, $3)
         ON CONFLICT (user_id) DO UPDATE SET model = $2, dimensions = $3, updated_at = now()`,
        [userId, next.model, next.dimensions],
      );
    else await tx.query('DELETE FROM source_embedding_settings WHERE user_id = $1', [userId]);
    if (vectors)
      await tx.query(
        `DELETE FROM source_passage_vectors v USING sources s
         WHERE s.id = v.source_id AND s.user_id = $1 AND v.model IS DISTINCT FROM $2`,
        [userId, next?.model ?? null],
      );
    await tx.query(
      `UPDATE sources SET embed_state = $2, embed_model = $3, embed_error = NULL
       WHERE user_id = $1 AND (embed_model IS DISTINCT FROM $3 OR embed_state <> 'ready')`,
      [userId, next && vectors ? 'embedding' : 'none', next && vectors ? next.model : null],
    );
  });
}

export async function markSource(
  db: Queryable,
  sourceId: string,
  state: 'embedding' | 'ready' | 'failed' | 'none',
  model: string | null,
  error: string | null = null,
) {
  await db.query('UPDATE sources SET embed_state = $2, embed_model = $3, embed_error = $4 WHERE id = $1', [
    sourceId,
    state,
    model,
    error?.slice(0, 500) ?? null,
  ]);
}

/** The sources left 'embedding' (a restart cut them short): taken up again at start. */
export const unfinishedSources = (db: Queryable) =>
  db.query<{ id: string; user_id: string }>(`SELECT id, user_id FROM sources WHERE embed_state = 'embedding'`);

/** The next passages of a source without a vector of `model`, in document order. */
export const passagesToEmbed = (db: Queryable, sourceId: string, model: string, limit: number) =>
  db.query<{ id: string; heading: string | null; text: string }>(
    `SELECT p.id, p.heading, p.text FROM source_passages p
     WHERE p.source_id = $1 AND NOT EXISTS (
       SELECT 1 FROM source_passage_vectors v WHERE v.passage_id = p.id AND v.model = $2)
     ORDER BY p.ord LIMIT $3`,
    [sourceId, model, limit],
  );

const literal = (v: readonly number[]) => `[${v.join(',')}]`;
const checkDim = (dim: number) => {
  if (!Number.isInteger(dim) || dim < 1 || dim > 100_000) throw new Error(`not a vector dimension: ${dim}`);
  return dim;
};

const indexed = new WeakMap<Queryable, Set<number>>();
/** The HNSW index of one dimension, made once (two processes making it at once: one wins, the other is fine). */
export async function ensureIndex(db: Queryable, dim: number) {
  if (dim > HNSW_MAX_DIMENSIONS) return;
  const done = indexed.get(db) ?? new Set<number>();
  indexed.set(db, done);
  if (done.has(dim)) return;
  await db
    .query(
      `CREATE INDEX IF NOT EXISTS source_passage_vectors_hnsw_${dim} ON source_passage_vectors
       USING hnsw ((embedding::vector(${dim})) vector_cosine_ops) WHERE dim = ${dim}`,
    )
    .catch((e: Error) => {
      if (!/already exists/.test(e.message)) throw e;
    });
  done.add(dim);
}

export async function storeVectors(
  db: Queryable,
  sourceId: string,
  model: string,
  rows: ReadonlyArray<{ passageId: string; vector: readonly number[] }>,
) {
  if (!rows.length) return;
  const dim = checkDim(rows[0].vector.length);
  await ensureIndex(db, dim);
  const params: unknown[] = [sourceId, model, dim];
  const values = rows.map((r, i) => {
    params.push(r.passageId, literal(r.vector));
    return `($${4 + i * 2}::text, $1::text, $2::text, $3::int, $${5 + i * 2}::vector)`;
  });
  // A passage removed meanwhile (its source deleted) has no row to point at: its vector is not kept.
  await db.query(
    `INSERT INTO source_passage_vectors (passage_id, source_id, model, dim, embedding)
     SELECT v.passage_id, v.source_id, v.model, v.dim, v.embedding
     FROM (VALUES ${values.join(', ')}) AS v(passage_id, source_id, model, dim, embedding)
     WHERE EXISTS (SELECT 1 FROM source_passages p WHERE p.id = v.passage_id)
     ON CONFLICT (passage_id, model) DO NOTHING`,
    params,
  );
}

/** Of these sources, the ones whose passages are all embedded with `model`. */
export async function embeddedSources(
  db: Queryable,
  userId: string,
  sourceIds: readonly string[],
  model: string,
): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM sources WHERE user_id = $1 AND id = ANY($2::text[]) AND embed_state = 'ready' AND embed_model = $3`,
    [userId, [...new Set(sourceIds)], model],
  );
  return rows.map((r) => r.id);
}

export interface NearPassage {
  id: string;
  source_id: string;
  source_name: string;
  page: number | null;
  heading: string | null;
  text: string;
  distance: number;
}

/**
 * The `limit` passages of these sources nearest the question by cosine distance. Through the dimension's HNSW
 * index with pgvector's iterative scan (so a filter on a few sources of a large library still fills the list,
 * reading at most HNSW_MAX_SCAN_TUPLES entries); in the order of distance.
 */
export async function nearestPassages(
  db: Db,
  userId: string,
  sourceIds: readonly string[],
  model: string,
  question: readonly number[],
  limit: number,
): Promise<NearPassage[]> {
  const dim = checkDim(question.length);
  const sql = `WITH near AS MATERIALIZED (
       SELECT v.passage_id, v.embedding::vector(${dim}) <=> $3::vector(${dim}) AS distance
       FROM source_passage_vectors v
       WHERE v.dim = ${dim} AND v.model = $2 AND v.source_id = ANY($1::text[])
       ORDER BY v.embedding::vector(${dim}) <=> $3::vector(${dim})
       LIMIT $4
     )
     SELECT p.id, p.source_id, s.name AS source_name, p.page, p.heading, p.text, near.distance
     FROM near JOIN source_passages p ON p.id = near.passage_id JOIN sources s ON s.id = p.source_id
     WHERE p.user_id = $5
     ORDER BY near.distance, p.source_id, p.ord`;
  const params = [[...new Set(sourceIds)], model, literal(question), limit, userId];
  const rows = await db.transaction(async (tx) => {
    if (dim <= HNSW_MAX_DIMENSIONS) {
      await tx.query(`SET LOCAL hnsw.iterative_scan = relaxed_order`);
      await tx.query(`SET LOCAL hnsw.max_scan_tuples = ${HNSW_MAX_SCAN_TUPLES}`);
    }
    return tx.query<NearPassage & { distance: string | number }>(sql, params);
  });
  return rows.map((r) => ({ ...r, distance: Number(r.distance) }));
}
