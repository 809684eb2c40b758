import type { Queryable } from '../db/db';
import type { QuestionMeaning } from './embed';
import { nearestPassages } from './embedStore';

// Retrieval for a turn: PostgreSQL's own full-text search over the passages of the sources an agent may read
// (websearch_to_tsquery for the question, the GIN index on tsv, ts_rank for the order — cover density, ts_rank_cd,
// cost several times more per match: docs/performance.md#sources), the same SQL on PGlite and PostgreSQL. Where the
// question has been embedded (embed.ts), the passages nearest it by meaning (pgvector) are ranked too and the two
// rankings merged by reciprocal rank fusion (docs/sources.md#searched-by-words-and-meaning).

export interface FoundPassage {
  id: string;
  source_id: string;
  source_name: string;
  page: number | null;
  heading: string | null;
  text: string;
  rank: number;
}

const STOP = new Set(
  'a an and are as at be but by can could do does for from had has have how i if in into is it its itself may might more most must no not of on or our should so than that the their them then there these they this those to too very was we were what when where which who whom why will with would you your about after again all also any because been before being both each few further here just many much only other over own same some such through under until up while'.split(
    ' ',
  ),
);
const MAX_TERMS = 24;
const TERMS_PER_TURN = 4;
/**
 * Ranking reads every matching passage's vector: the matches ranked are the first this many the GIN index finds,
 * so a word found in most of a large library costs a bounded time (docs/sources.md#passages-and-search).
 */
export const MAX_RANKED_MATCHES = 500;

/**
 * A websearch query that matches a passage holding any of the text's content words (more of them rank higher):
 * the topic and the last turns are many words, and a passage rarely holds all of them.
 */
export function queryOf(texts: readonly string[]): string {
  const seen = new Set<string>();
  // Every word of the first texts (the topic, the role); of the later ones (the turns) a few each, so a long turn's
  // common words do not crowd the question out.
  texts.forEach((t, i) => {
    let taken = 0;
    for (const w of t.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []) {
      const word = w.replace(/['’-]+$/, '');
      if (word.length < 3 && !/\d/.test(word)) continue;
      if (STOP.has(word) || word === 'or' || seen.has(word)) continue;
      if (seen.size >= MAX_TERMS || (i >= 2 && taken >= TERMS_PER_TURN)) break;
      seen.add(word);
      taken++;
    }
  });
  return [...seen].join(' or ');
}

export async function searchPassages(
  db: Queryable,
  userId: string,
  sourceIds: readonly string[],
  query: string,
  limit: number,
): Promise<FoundPassage[]> {
  if (!sourceIds.length || !query.trim()) return [];
  const rows = await db.query<FoundPassage & { rank: string | number }>(
    `WITH q AS (SELECT websearch_to_tsquery('english', $3) AS q),
     matched AS (
       SELECT p.id, p.source_id, p.ord, p.page, p.heading, p.text, p.tsv FROM source_passages p, q
       WHERE p.user_id = $1 AND p.source_id = ANY($2::text[]) AND p.tsv @@ q.q
       LIMIT $5
     )
     SELECT m.id, m.source_id, s.name AS source_name, m.page, m.heading, m.text, ts_rank(m.tsv, q.q) AS rank
     FROM matched m JOIN sources s ON s.id = m.source_id, q
     ORDER BY rank DESC, m.source_id, m.ord
     LIMIT $4`,
    [userId, [...new Set(sourceIds)], query, limit, MAX_RANKED_MATCHES],
  );
  return rows.map((r) => ({ ...r, rank: Number(r.rank) }));
}

/** Reciprocal rank fusion's constant (Cormack, Clarke and Büttcher, 2009): a passage scores Σ 1/(RRF_K + rank). */
export const RRF_K = 60;
/** Each ranking's top this many (at least the number asked for) go into the fusion. */
export const FUSION_DEPTH = 20;

/**
 * Merges rankings (each best first) by reciprocal rank fusion: a passage ranked in both rises above one ranked in
 * one; `rank` becomes its fused score. Ties keep the better single rank, then the first ranking's order.
 */
export function fuseRankings(
  rankings: ReadonlyArray<readonly Omit<FoundPassage, 'rank'>[]>,
  limit: number,
): FoundPassage[] {
  const scored = new Map<string, { p: Omit<FoundPassage, 'rank'>; score: number; best: number; order: number }>();
  let order = 0;
  for (const ranking of rankings)
    ranking.forEach((p, i) => {
      const was = scored.get(p.id);
      const add = 1 / (RRF_K + i + 1);
      if (was) {
        was.score += add;
        was.best = Math.min(was.best, i);
      } else scored.set(p.id, { p, score: add, best: i, order: order++ });
    });
  return [...scored.values()]
    .sort((a, b) => b.score - a.score || a.best - b.best || a.order - b.order)
    .slice(0, limit)
    .map(({ p, score }) => ({ ...p, rank: score }));
}

/**
 * The passages for a question: by words alone, or — given the question's meaning — the top FUSION_DEPTH by
 * ts_rank and the top FUSION_DEPTH by cosine distance merged by reciprocal rank fusion. Same shape either way.
 */
export async function searchFused(
  db: Queryable,
  userId: string,
  sourceIds: readonly string[],
  query: string,
  meaning: QuestionMeaning | null,
  limit: number,
): Promise<FoundPassage[]> {
  if (!meaning) return searchPassages(db, userId, sourceIds, query, limit);
  const depth = Math.max(limit, FUSION_DEPTH);
  const [words, near] = await Promise.all([
    searchPassages(db, userId, sourceIds, query, depth),
    nearestPassages(meaning.db, userId, meaning.sourceIds, meaning.model, meaning.vector, depth),
  ]);
  return fuseRankings([words, near.map(({ distance: _d, ...p }) => p)], limit);
}
