// Which of the person's sources a discussion's turns cited, and by whom: the Research tab's 'Sources cited' list
// and the PDF's bibliography read the same summary. Only verified citations count (an invented label names no
// source). Pure; memoised on the feed's items so a re-render with the same items gets the same array.
import type { Citation } from '../schemas/sources';
import type { Feed } from './feed';
import { kvValues } from './keyedVec';
import { citationsOfItem } from './sourcesList';

/** A turn as this summary reads it: who spoke and what it cited (a feed item's or an exported message's). */
export interface CitingTurn {
  agent: string | null;
  citations: readonly Citation[];
}

export interface CitedPassage {
  passageId: string;
  page: number | null;
  /** The sentence the first citation of it quoted (the dialog highlights it). */
  quote: string;
}

export interface CitedSource {
  sourceId: string;
  name: string;
  /** Verified citations of it, over every turn. */
  count: number;
  /** Who cited it and how many times, most first (ties in the order they first cited it). */
  by: { agent: string; count: number }[];
  /** Each passage of it cited, in the order first cited. */
  passages: CitedPassage[];
  /** The pages cited, ascending (documents without pages: none). */
  pages: number[];
}

/** The sources the turns cite, most cited first (ties: first cited first). */
export function citedSources(turns: readonly CitingTurn[]): CitedSource[] {
  const bySource = new Map<string, CitedSource & { agents: Map<string, number> }>();
  for (const turn of turns) {
    for (const c of turn.citations) {
      if (!c.verified || !c.source_id) continue;
      let s = bySource.get(c.source_id);
      if (!s) {
        s = {
          sourceId: c.source_id,
          name: c.source_name ?? 'Source',
          count: 0,
          by: [],
          passages: [],
          pages: [],
          agents: new Map(),
        };
        bySource.set(c.source_id, s);
      }
      s.count++;
      const agent = turn.agent ?? 'An agent';
      s.agents.set(agent, (s.agents.get(agent) ?? 0) + 1);
      if (c.passage_id && !s.passages.some((p) => p.passageId === c.passage_id))
        s.passages.push({ passageId: c.passage_id, page: c.page, quote: c.quote });
      if (c.page && !s.pages.includes(c.page)) s.pages.push(c.page);
    }
  }
  return [...bySource.values()]
    .map(({ agents, ...s }) => ({
      ...s,
      by: [...agents].map(([agent, count]) => ({ agent, count })).sort((a, b) => b.count - a.count),
      pages: [...s.pages].sort((a, b) => a - b),
    }))
    .sort((a, b) => b.count - a.count);
}

const cache = new WeakMap<Feed['items'], CitedSource[]>();
/** citedSources of a feed, the same array while its items are unchanged. */
export function selectCitedSources(feed: Feed): CitedSource[] {
  const hit = cache.get(feed.items);
  if (hit) return hit;
  const out = citedSources(kvValues(feed.items).map((i) => ({ agent: i.agentName, citations: citationsOfItem(i) })));
  cache.set(feed.items, out);
  return out;
}
