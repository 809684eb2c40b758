import type { ResearchResult } from '../../schemas/discussion';
import { outcomeFactsOf, outcomeWords, type OutcomeWords } from '../outcomeWords';
import { kvAppend, kvIndexOf, kvSetAt, vecGet } from '../keyedVec';
import { item, once, putItem, withRound } from './items';
import { deepEqual, frameKey } from './keys';
import { feedWith, type F, type Feed } from './types';

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

/** A closing frame's outcome in words (src/model/outcomeWords.ts), against the options the feed knows. */
export const consensusWords = (feed: Feed, frame: F<'consensus_reached'>): OutcomeWords =>
  outcomeWords(
    outcomeFactsOf(
      frame,
      feed.positions.options.map((o) => o.label),
    ),
  );

/** The closing row's text: the outcome's words, then the first-vote sentence. */
export const consensusRowText = (w: OutcomeWords): string => [w.body, w.firstVote].filter(Boolean).join(' ');
