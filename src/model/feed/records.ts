import type { Consensus, ResearchResult } from '../../schemas/discussion';
import { kvAppend, kvGet, kvIndexOf, kvSetAt, vecFindLast, vecGet } from '../keyedVec';
import { SPEECH_KINDS, item, once, putItem, withRound } from './items';
import { deepEqual, frameKey } from './keys';
import { feedWith, type F, type Feed, type FeedItem } from './types';

// Research results, arguments and consensus: the rows that summarise what the discussion has found.

export function researchSummary(results: readonly ResearchResult[], query?: string): string {
  const n = results.reduce((a, r) => a + (r.results?.length ?? 0) + (r.articles?.length ?? 0), 0);
  const sources = [...new Set(results.map((r) => r.source))].join(', ');
  const q = query ?? results[0]?.query ?? results[0]?.topic;
  return `Research (${sources || 'none'}): ${n} paper${n === 1 ? '' : 's'}${q ? ` for "${q}"` : ''}`;
}

export const withResearchNotice = (feed: Feed, text: string): Feed =>
  feed.researchNotice === text ? feed : feedWith(feed, { researchNotice: text });

export function onResearch(feed: Feed, frame: F<'research_result'> | F<'research_results'>): Feed {
  if (frame.type === 'research_results' && frame.unavailable && frame.results.length === 0)
    return withResearchNotice(feed, frame.unavailable);
  const key = frameKey(frame);
  return once(feed, key, (f) => {
    const ts = frame.timestamp ?? null;
    const results = frame.type === 'research_result' ? [frame.result] : frame.results;
    let research = f.research;
    results.forEach((result, i) => {
      const k = results.length === 1 ? key : `${key}#${i}`;
      if (kvIndexOf(research, k) < 0) research = kvAppend(research, k, { key: k, result, timestamp: ts });
    });
    const content = researchSummary(results, frame.type === 'research_results' ? frame.query : undefined);
    return putItem(
      feedWith(f, { research }),
      item({ id: key, kind: 'research', agentId: null, agentName: null, content, timestamp: ts, source: frame }),
    );
  });
}

export function onArgument(feed: Feed, frame: F<'argument'>): Feed {
  const a = frame.argument;
  const pos = kvIndexOf(feed.arguments, a.id);
  let out = feed;
  if (pos < 0) out = feedWith(out, { arguments: kvAppend(out.arguments, a.id, a) });
  else if (!deepEqual(vecGet(out.arguments.values, pos), a))
    out = feedWith(out, { arguments: kvSetAt(out.arguments, pos, a) });
  out = putItem(
    out,
    item({
      id: a.id,
      kind: 'argument',
      agentId: a.agent_id,
      agentName: a.agent_name ?? null,
      content: a.content,
      timestamp: frame.timestamp ?? null,
      confidence: a.confidence,
      stage: a.stage,
      round: a.round,
      source: frame,
    }),
  );
  return withRound(out, a.round);
}

/** The newest turn whose text is exactly `text` (a consensus names a turn's words as its solution), or null. */
export function turnSaying(feed: Feed, text: string): FeedItem | null {
  const wanted = text.trim();
  if (wanted === '') return null;
  const says = (it: FeedItem) => SPEECH_KINDS.has(it.kind) && it.content.trim() === wanted;
  // Finished turns are indexed by their words (items.ts): a consensus frame asks this of the whole list, and a
  // scan per frame made a long run's consensus frames its slowest (npm run bench ingest).
  const id = kvGet(feed.turnByWords, wanted);
  if (id === undefined) return null;
  const indexed = kvGet(feed.items, id);
  if (indexed && says(indexed)) return indexed;
  // That turn was rewritten since: an older one may still say it.
  return vecFindLast(feed.items.values, says) ?? null;
}

/**
 * The consensus row in words. The server's solution and dissents are often a turn's own words ('Bo: …'); the row
 * then names that turn instead of repeating it, so each turn's text is read once (the full text stays in
 * `feed.consensus`, the Analytics tab and the export's `consensus`).
 */
export function consensusLine(feed: Feed, c: Consensus, reached: boolean): string {
  const echo = turnSaying(feed, c.solution);
  const head = echo
    ? `${reached ? 'Agreement on' : 'Closest to agreement:'} ${echo.agentName ?? 'an agent'}'s point`
    : c.solution;
  const dissent = c.dissenting_opinions.map((d) => {
    const m = /^([^:]{1,80}):\s*([\s\S]+)$/.exec(d);
    return m && turnSaying(feed, m[2]) ? `${m[1]} disagrees.` : `Dissent: ${d}`;
  });
  return [echo ? `${head}.` : head, ...dissent].join(' ');
}
