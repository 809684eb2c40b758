// Derived data of the feed (docs/architecture.md#rules). Pure; each selector that builds a new value
// memoises it on the part of the feed it reads (a WeakMap keyed by that part), so the same input gives the same
// output object and `useSelector` with reference equality re-renders only when that part changed. A streamed
// delta changes the items but not the ids, so the list of ids stays the same array while one row updates.

import { selectPositionStory, type PositionStory } from './positionSelectors';
import type { Argument, DiscussionStatistics, Paper, ResearchResult } from '../schemas/discussion';
import type { ConsensusState, DelegationEntry, Feed, FeedItem, FeedItemKind, Participant, StageState } from './feed';
import type { OutcomeWords } from './outcomeWords';
import { selectTokenSpend, type TokenSpend } from './tokenSpend';
import { kvGet, kvKeys, kvValues, type KeyedVec } from './keyedVec';

function memo<K extends object, V>(fn: (k: K) => V): (k: K) => V {
  const cache = new WeakMap<K, V>();
  return (k) => {
    if (cache.has(k)) return cache.get(k)!;
    const v = fn(k);
    cache.set(k, v);
    return v;
  };
}

/** The Discussion list, in order (same array while the items are unchanged; frozen: do not mutate). */
export const selectMessages = (feed: Feed): FeedItem[] => kvValues(feed.items) as FeedItem[];
/** The ids of the Discussion list, in order (same array until an item is added; frozen). */
export const selectMessageIds = (feed: Feed): string[] => kvKeys(feed.items) as string[];
export const selectItem = (feed: Feed, id: string): FeedItem | undefined => kvGet(feed.items, id);

export const selectArguments = (feed: Feed): readonly Argument[] => kvValues(feed.arguments);
export const selectResearchResults = (feed: Feed): readonly ResearchResult[] => researchResultsOf(feed.research);
const researchResultsOf = memo((research: Feed['research']) => Object.freeze(kvValues(research).map((e) => e.result)));

export interface ArgumentNode {
  argument: Argument;
  children: ArgumentNode[];
}

/**
 * The arguments as a forest by parent_id, each level in arrival order. An argument whose parent has not arrived
 * (or is itself) sits at the root until it does; a parent cycle cannot hide arguments (each argument appears
 * exactly once: a cycle is broken at the argument that arrived first).
 */
export const selectArgumentTree = (feed: Feed): ArgumentNode[] => argumentTreeOf(feed.arguments);
const argumentTreeOf = memo((args: KeyedVec<Argument>): ArgumentNode[] => {
  const list = kvValues(args);
  const nodes = new Map<string, ArgumentNode>();
  for (const a of list) nodes.set(a.id, { argument: a, children: [] });
  const parentOf = (a: Argument) =>
    a.parent_id && a.parent_id !== a.id && nodes.has(a.parent_id) ? a.parent_id : null;
  // Break cycles: walk up from each argument; an argument whose ancestry returns to itself is made a root.
  const rootForced = new Set<string>();
  for (const a of list) {
    const seen = new Set<string>([a.id]);
    let p = parentOf(a);
    while (p !== null && !rootForced.has(p)) {
      if (seen.has(p)) {
        rootForced.add(p);
        break;
      }
      seen.add(p);
      p = parentOf(nodes.get(p)!.argument);
    }
  }
  const roots: ArgumentNode[] = [];
  for (const a of list) {
    const node = nodes.get(a.id)!;
    const p = rootForced.has(a.id) ? null : parentOf(a);
    if (p === null) roots.push(node);
    else nodes.get(p)!.children.push(node);
  }
  return roots;
});

export interface PaperWithSource extends Paper {
  /** Where the paper was found (the paper's own source, else its research result's). */
  source: string;
}

const normaliseTitle = (t: string) =>
  t
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Every paper of every research result, first occurrence kept, deduplicated by url, else (no url) by normalised title. */
export const selectPapers = (feed: Feed): PaperWithSource[] => papersOf(feed.research) as PaperWithSource[];
const papersOf = memo((research: Feed['research']) => dedupePapers(kvValues(research).map((e) => e.result)));

/** The papers of these research results, first occurrence kept, deduplicated by url, else by normalised title. */
export function dedupePapers(results: readonly ResearchResult[]): readonly PaperWithSource[] {
  const seen = new Set<string>();
  const out: PaperWithSource[] = [];
  for (const result of results) {
    for (const p of [...(result.results ?? []), ...(result.articles ?? [])]) {
      const url = p.url?.trim();
      const key = url ? `url:${url}` : `title:${normaliseTitle(p.title)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ ...p, source: p.source ?? result.source });
    }
  }
  return Object.freeze(out);
}

export const selectConsensus = (feed: Feed) => feed.consensus;
export const selectCurrentStage = (feed: Feed): StageState | null => feed.stage;
export const selectRound = (feed: Feed) => feed.round;
export const selectDelegations = (feed: Feed): DelegationEntry[] => kvValues(feed.delegations) as DelegationEntry[];
export const selectParticipants = (feed: Feed): readonly Participant[] => feed.participants;
export const selectSession = (feed: Feed) => feed.session;
export const selectStatistics = (feed: Feed): DiscussionStatistics | null => feed.statistics;

export interface FeedCounts {
  messages: number;
  arguments: number;
  papers: number;
}
/** The one message count (messageCount.ts): agent turns and human messages. Panel, History, PDF and JSON read this. */
export const countMessages = (feed: Feed): number => feed.messageCount;

const problemsCache = new WeakMap<object, number>();
/** The feed's problem rows (a turn that failed, an error the server sent): the status bar counts them as errors. */
export function countProblems(feed: Feed): number {
  // A problem is a new row: the count changes only when the row keys do (streaming rewrites rows in place).
  const cached = problemsCache.get(feed.items.keys);
  if (cached !== undefined) return cached;
  const n = kvValues(feed.items).filter((i) => i.kind === 'error').length;
  problemsCache.set(feed.items.keys, n);
  return n;
}

const countsCache = new WeakMap<object, FeedCounts>();
/** The footer counter; `messages` is countMessages. Same object while the counts hold. */
export function selectCounts(feed: Feed): FeedCounts {
  const args = feed.arguments.keys.length;
  const papers = selectPapers(feed).length;
  const messages = countMessages(feed);
  const prev = countsCache.get(feed.items.keys);
  if (prev && prev.arguments === args && prev.papers === papers && prev.messages === messages) return prev;
  const out = { messages, arguments: args, papers };
  countsCache.set(feed.items.keys, out);
  return out;
}

export interface AgentContribution {
  agentId: string;
  name: string;
  count: number;
}
export interface ConsensusSummary {
  solution: string;
  confidence: number;
  supportLevel: number;
  score: number;
  /** Holders of the leading option whose confidence counted half (no evidence where it was required). */
  halved: number;
  reached: boolean;
  dissentingOpinions: string[];
  /** The outcome in words, the same the closing row says (outcomeWords.ts). */
  words: OutcomeWords;
}
export interface Analytics {
  /** countMessages: agent turns and human messages. */
  totalMessages: number;
  /** Cards by kind (every kind present, zero when absent). */
  countsByKind: Record<FeedItemKind, number>;
  /** Cards by message type: an agent message's own message_type (natural, structured, hybrid, enhanced…), else its kind. */
  countsByMessageType: Record<string, number>;
  /** Agent turns (argument, hybrid, text cards) per agent, most first, then by first appearance. */
  agentContributions: AgentContribution[];
  /** Mean confidence of the arguments; null when there are none. */
  averageArgumentConfidence: number | null;
  totalArguments: number;
  totalResearchResults: number;
  totalPapers: number;
  consensus: ConsensusSummary | null;
  /** Mean confidence of the confident cards (arguments, agent messages) per round, ascending. */
  confidenceByRound: { round: number; avgConfidence: number }[];
  delegations: number;
  humanMessages: number;
  /** The server's own statistics, when it sent them. */
  statistics: DiscussionStatistics | null;
  /** performance_metric frames, per metric. */
  metrics: { metric: string; count: number; average: number; last: number }[];
  /** Each agent's position over time, the first and final vote (positionSelectors.ts); null without positions. */
  positions: PositionStory | null;
  /** Tokens per agent, per person and in all (tokenSpend.ts). */
  tokens: TokenSpend;
}

const KINDS: readonly FeedItemKind[] = [
  'stage',
  'argument',
  'acl',
  'research',
  'consensus',
  'human',
  'hybrid',
  'summary',
  'text',
  'delegation',
  'system',
  'error',
  'round',
];
const TURN_KINDS: ReadonlySet<FeedItemKind> = new Set(['argument', 'hybrid', 'text']);

function consensusSummary(c: ConsensusState | null): ConsensusSummary | null {
  if (!c) return null;
  return {
    solution: c.consensus.solution,
    confidence: c.consensus.confidence,
    supportLevel: c.consensus.support_level,
    score: c.score,
    halved: c.halved ?? 0,
    reached: c.reached,
    dissentingOpinions: [...c.consensus.dissenting_opinions],
    words: c.words,
  };
}

const analyticsCache = new WeakMap<Feed, Analytics>();
export function selectAnalytics(feed: Feed): Analytics {
  const hit = analyticsCache.get(feed);
  if (hit) return hit;
  const items = kvValues(feed.items);
  const countsByKind = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<FeedItemKind, number>;
  const contributions = new Map<string, AgentContribution>();
  const names = new Map(feed.participants.map((p) => [p.id, p.name]));
  const perRound = new Map<number, { sum: number; n: number }>();
  const countsByMessageType = Object.create(null) as Record<string, number>; // keys come from the wire
  for (const it of items) {
    countsByKind[it.kind]++;
    const mt = it.kind === 'hybrid' ? (it.source as { message_type?: unknown } | undefined)?.message_type : undefined;
    const type = typeof mt === 'string' && mt !== '' ? mt : it.kind;
    countsByMessageType[type] = (countsByMessageType[type] ?? 0) + 1;
    if (TURN_KINDS.has(it.kind) && it.agentId) {
      const c = contributions.get(it.agentId);
      if (c) c.count++;
      else
        contributions.set(it.agentId, {
          agentId: it.agentId,
          name: names.get(it.agentId) ?? it.agentName ?? it.agentId,
          count: 1,
        });
    }
    if ((it.kind === 'argument' || it.kind === 'hybrid') && it.round !== undefined && it.confidence !== undefined) {
      const r = perRound.get(it.round) ?? { sum: 0, n: 0 };
      perRound.set(it.round, { sum: r.sum + it.confidence, n: r.n + 1 });
    }
  }
  const args = kvValues(feed.arguments);
  const metrics = new Map<string, { metric: string; count: number; sum: number; last: number }>();
  for (const m of kvValues(feed.metrics)) {
    const e = metrics.get(m.metric) ?? { metric: m.metric, count: 0, sum: 0, last: 0 };
    metrics.set(m.metric, { metric: m.metric, count: e.count + 1, sum: e.sum + m.value, last: m.value });
  }
  const out: Analytics = {
    totalMessages: countMessages(feed),
    countsByKind,
    countsByMessageType,
    agentContributions: [...contributions.values()].sort((a, b) => b.count - a.count),
    averageArgumentConfidence: args.length ? args.reduce((s, a) => s + a.confidence, 0) / args.length : null,
    totalArguments: args.length,
    totalResearchResults: feed.research.keys.length,
    totalPapers: selectPapers(feed).length,
    consensus: consensusSummary(feed.consensus),
    confidenceByRound: [...perRound.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([round, { sum, n }]) => ({ round, avgConfidence: sum / n })),
    delegations: feed.delegations.keys.length,
    humanMessages: countsByKind.human,
    statistics: feed.statistics,
    metrics: [...metrics.values()].map(({ metric, count, sum, last }) => ({
      metric,
      count,
      average: sum / count,
      last,
    })),
    positions: selectPositionStory(feed),
    tokens: selectTokenSpend(feed),
  };
  analyticsCache.set(feed, out);
  return out;
}
