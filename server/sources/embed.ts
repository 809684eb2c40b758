import { SERVER_CONNECTION_IDS, modelLabel, parseModelId } from '../../src/schemas/modelConnections';
import type { Source } from '../../src/schemas/sources';
import type { AppContext } from '../context';
import type { Db, Queryable } from '../db/db';
import { rowTarget, serverTargets, userFetch } from '../models/service';
import { modelConnectionStore } from '../models/store';
import { EmbedError, type EmbedEndpoint, embedTexts } from './embedClient';
import {
  embeddedSources,
  embeddingSetting,
  markSource,
  passagesToEmbed,
  storeVectors,
  unfinishedSources,
  vectorsAvailable,
} from './embedStore';

// Embedding a person's passages with the model they chose (docs/sources.md#searched-by-words-and-meaning): after a
// source is stored, its passages are embedded in batches, in the background, and the source says how it is
// searched ('words' until every passage has its vector, 'words_and_meaning' after). A failure leaves it searched
// by words, with the reason on the source. A turn's question is embedded once, within a short time cap; without a
// model, vectors or an answer in time, the turn is searched by words alone.

interface Job {
  userId: string;
  controller: AbortController;
  done: Promise<void>;
}

interface Log {
  warn(obj: object, msg: string): void;
}

interface Embedder {
  ctx: AppContext;
  log: Log;
  /** pgvector is installed (PGlite always; PostgreSQL where it is). */
  available: boolean;
  jobs: Map<string, Job>;
  closed: boolean;
}

// Keyed by the database, so the ingest step (which is handed only the database) reaches the embedder of its server.
const embedders = new WeakMap<Queryable, Embedder>();

const embedderOf = (db: Queryable) => {
  const e = embedders.get(db);
  return e && !e.closed ? e : undefined;
};

/** At start: whether vectors can be kept, and the embedding a restart cut short taken up again. */
export async function startEmbedder(ctx: AppContext, log: Log): Promise<void> {
  const available = await vectorsAvailable(ctx.db);
  const e: Embedder = { ctx, log, available, jobs: new Map(), closed: false };
  embedders.set(ctx.db, e);
  if (!available) return;
  for (const s of await unfinishedSources(ctx.db)) void queueSource(e, s.user_id, s.id);
}

/** At close: running embeddings stopped (their sources stay 'embedding' and are taken up at the next start). */
export async function stopEmbedder(ctx: AppContext): Promise<void> {
  const e = embedders.get(ctx.db);
  if (!e) return;
  e.closed = true;
  for (const job of e.jobs.values()) job.controller.abort();
  await Promise.all([...e.jobs.values()].map((j) => j.done));
}

export const vectorsHere = (db: Queryable) => embedderOf(db)?.available === true;

/** How a model is called for embedding: its connection (the person's own through the address rule). */
export async function embedEndpointOf(
  ctx: AppContext,
  userId: string,
  modelId: string,
): Promise<{ endpoint: EmbedEndpoint; model: string; label: string }> {
  const parsed = parseModelId(modelId);
  if (!parsed) throw new EmbedError('Choose a model of one of your connections to embed with');
  const server = serverTargets(ctx).find((t) => t.id === parsed.connectionId);
  const row = server ? null : await modelConnectionStore.find(ctx.db, userId, parsed.connectionId);
  const target = server ?? (row ? await rowTarget(ctx, row) : null);
  if (!target) throw new EmbedError(`The connection of "${parsed.model}" no longer exists; choose another model`);
  if (target.kind !== 'ollama' && target.kind !== 'openai')
    throw new EmbedError(`${target.name} does not embed text (only Ollama and OpenAI-compatible connections do)`);
  return {
    endpoint: {
      kind: target.kind,
      baseUrl: target.baseUrl,
      apiKey: target.apiKey ?? null,
      fetch: target.readOnly ? fetch : userFetch(ctx),
    },
    model: parsed.model,
    label: modelLabel(target.name, parsed.model),
  };
}

/** The server's own connections' ids, for telling them from the person's in the candidates' list. */
export const SERVER_IDS = new Set<string>(Object.values(SERVER_CONNECTION_IDS));

const passageText = (p: { heading: string | null; text: string }) => (p.heading ? `${p.heading}\n${p.text}` : p.text);

async function embedSource(e: Embedder, userId: string, sourceId: string, signal: AbortSignal): Promise<void> {
  const { db } = e.ctx;
  const cfg = e.ctx.config.sources;
  const setting = await embeddingSetting(db, userId);
  if (!setting) return markSource(db, sourceId, 'none', null);
  const deadline = Date.now() + cfg.embedSourceTimeoutMs;
  try {
    const { endpoint, model } = await embedEndpointOf(e.ctx, userId, setting.model);
    for (;;) {
      const batch = await passagesToEmbed(db, sourceId, setting.model, cfg.embedBatch);
      if (!batch.length) break;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new EmbedError(
          `Embedding took longer than ${Math.round(cfg.embedSourceTimeoutMs / 60_000)} min (SOURCE_EMBED_SOURCE_TIMEOUT_MS)`,
        );
      const vectors = await embedTexts(endpoint, model, batch.map(passageText), {
        timeoutMs: Math.min(cfg.embedTimeoutMs, left),
        maxBytes: cfg.embedMaxResponseBytes,
        signal,
      });
      if (vectors[0].length !== setting.dimensions)
        throw new EmbedError(
          `The model answered with ${vectors[0].length} numbers a vector, not the ${setting.dimensions} it gave when chosen`,
        );
      await storeVectors(
        db,
        sourceId,
        setting.model,
        batch.map((p, i) => ({ passageId: p.id, vector: vectors[i] })),
      );
    }
    await markSource(db, sourceId, 'ready', setting.model);
  } catch (err) {
    // Stopped by a close: left 'embedding', taken up at the next start. Stopped by a change of model: the change
    // has marked the source already.
    if (signal.aborted) return;
    const why = err instanceof EmbedError ? err.message : `Embedding failed (${(err as Error).message})`;
    e.log.warn({ sourceId, err: why }, 'a source could not be embedded; it is searched by words');
    await markSource(db, sourceId, 'failed', setting.model, why).catch(() => undefined);
  }
}

function queueSource(e: Embedder, userId: string, sourceId: string): Promise<void> {
  const running = e.jobs.get(sourceId);
  if (running) return running.done;
  const controller = new AbortController();
  const done = embedSource(e, userId, sourceId, controller.signal)
    .catch(() => undefined)
    .finally(() => {
      if (e.jobs.get(sourceId)?.controller === controller) e.jobs.delete(sourceId);
    });
  e.jobs.set(sourceId, { userId, controller, done });
  return done;
}

/**
 * After a source is stored (ingest.ts): its passages are embedded in the background when the person has chosen a
 * model and this database keeps vectors. Answers the source as it now stands ('embedding', or as it was).
 */
export async function embedAfterStore(db: Queryable, userId: string, source: Source): Promise<Source> {
  const e = embedderOf(db);
  if (!e?.available) return source;
  const setting = await embeddingSetting(db, userId);
  if (!setting) return source;
  await markSource(db, source.id, 'embedding', setting.model);
  void queueSource(e, userId, source.id);
  return { ...source, embedding: 'embedding', searched_by: 'words', embedding_note: null };
}

/** A change of the person's model: their running embeddings stop, then every source marked is embedded again. */
export async function stopUserJobs(db: Queryable, userId: string): Promise<void> {
  const e = embedderOf(db);
  if (!e) return;
  const mine = [...e.jobs.entries()].filter(([, j]) => j.userId === userId);
  for (const [, j] of mine) j.controller.abort();
  await Promise.all(mine.map(([, j]) => j.done));
}

export async function embedMarkedSources(db: Queryable, userId: string): Promise<void> {
  const e = embedderOf(db);
  if (!e?.available) return;
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM sources WHERE user_id = $1 AND embed_state = 'embedding' ORDER BY created_at`,
    [userId],
  );
  for (const r of rows) void queueSource(e, userId, r.id);
}

/** Waits for the person's running embeddings (tests, and a caller that must see the outcome). */
export async function embeddingsSettled(db: Queryable): Promise<void> {
  const e = embedderOf(db);
  while (e?.jobs.size) await Promise.all([...e.jobs.values()].map((j) => j.done));
}

export interface QuestionMeaning {
  db: Db;
  model: string;
  vector: number[];
  /** The sources searched by meaning: those embedded whole with the model. */
  sourceIds: string[];
}

/**
 * A turn's question embedded once with the person's model, when some of its sources are embedded with it; null
 * (words alone) otherwise, or when the model does not answer within SOURCE_EMBED_QUERY_TIMEOUT_MS.
 */
export async function questionMeaning(
  db: Queryable,
  userId: string,
  sourceIds: readonly string[],
  question: string,
): Promise<QuestionMeaning | null> {
  const e = embedderOf(db);
  if (!e?.available || !sourceIds.length || !question.trim()) return null;
  const setting = await embeddingSetting(db, userId);
  if (!setting) return null;
  const embedded = await embeddedSources(db, userId, sourceIds, setting.model);
  if (!embedded.length) return null;
  const cfg = e.ctx.config.sources;
  try {
    const { endpoint, model } = await embedEndpointOf(e.ctx, userId, setting.model);
    const [vector] = await embedTexts(endpoint, model, [question], {
      timeoutMs: cfg.embedQueryTimeoutMs,
      maxBytes: cfg.embedMaxResponseBytes,
    });
    if (vector.length !== setting.dimensions) return null;
    return { db: e.ctx.db, model: setting.model, vector, sourceIds: embedded };
  } catch (err) {
    e.log.warn({ err: (err as Error).message }, 'the question could not be embedded; searched by words');
    return null;
  }
}
