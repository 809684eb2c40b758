import type { Queryable } from '../db/db';

// Retrieval for a turn: PostgreSQL's own full-text search over the passages of the sources an agent may read
// (websearch_to_tsquery for the question, ts_rank_cd for the order, the GIN index on tsv), the same SQL on PGlite
// and PostgreSQL.

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
const MAX_TERMS = 48;

/**
 * A websearch query that matches a passage holding any of the text's content words (more of them rank higher):
 * the topic and the last turns are many words, and a passage rarely holds all of them.
 */
export function queryOf(texts: readonly string[]): string {
  const seen = new Set<string>();
  for (const t of texts)
    for (const w of t.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []) {
      const word = w.replace(/['’-]+$/, '');
      if (word.length < 3 && !/\d/.test(word)) continue;
      if (STOP.has(word) || word === 'or') continue;
      seen.add(word);
      if (seen.size >= MAX_TERMS) break;
    }
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
    `SELECT p.id, p.source_id, s.name AS source_name, p.page, p.heading, p.text, ts_rank_cd(p.tsv, q) AS rank
     FROM source_passages p JOIN sources s ON s.id = p.source_id, websearch_to_tsquery('english', $3) q
     WHERE p.user_id = $1 AND p.source_id = ANY($2::text[]) AND p.tsv @@ q
     ORDER BY rank DESC, p.source_id, p.ord
     LIMIT $4`,
    [userId, [...new Set(sourceIds)], query, limit],
  );
  return rows.map((r) => ({ ...r, rank: Number(r.rank) }));
}
