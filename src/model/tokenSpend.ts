import { estimateTokens, turnUsage, type TurnUsage } from '../schemas/usage';
import type { Feed, FeedItem } from './feed/types';
import { kvValues } from './keyedVec';

// What a discussion spent, read from its turns' `usage` (docs/protocol.md#costs): the header's total, Analytics'
// tokens per agent and per person. A person's messages carry no count: theirs are estimated from the text. The
// total is marked '≈' when any turn's count was an estimate.

export interface AgentSpend {
  agentId: string;
  name: string;
  tokens: number;
  estimated: boolean;
}
export interface PersonSpend {
  name: string;
  /** Always estimated from the text. */
  tokens: number;
}
export interface TokenSpend {
  /** Tokens the models' turns and summary spent. */
  total: number;
  estimated: boolean;
  perAgent: AgentSpend[];
  people: PersonSpend[];
}

const TURN_KINDS = new Set(['argument', 'hybrid', 'text', 'summary']);

/** A turn's count as its frame carried it; null for a frame without one (an older server, a person's message). */
export function usageOf(it: FeedItem): TurnUsage | null {
  const raw = (it.source as { usage?: unknown } | undefined)?.usage;
  if (raw === undefined) return null;
  const parsed = turnUsage.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

const cache = new WeakMap<Feed, TokenSpend>();

export function selectTokenSpend(feed: Feed): TokenSpend {
  const hit = cache.get(feed);
  if (hit) return hit;
  const names = new Map(feed.participants.map((p) => [p.id, p.name]));
  const agents = new Map<string, AgentSpend>();
  const people = new Map<string, PersonSpend>();
  let total = 0;
  let estimated = false;
  for (const it of kvValues(feed.items)) {
    if (it.kind === 'human') {
      const name = it.agentName ?? 'You';
      const p = people.get(name) ?? { name, tokens: 0 };
      people.set(name, { name, tokens: p.tokens + estimateTokens(it.content) });
      continue;
    }
    if (!TURN_KINDS.has(it.kind)) continue;
    const u = usageOf(it);
    if (!u) continue;
    const n = u.prompt_tokens + u.completion_tokens;
    const guess = u.source === 'estimate';
    total += n;
    estimated ||= guess;
    if (it.kind === 'summary' || !it.agentId) continue;
    const a = agents.get(it.agentId) ?? {
      agentId: it.agentId,
      name: names.get(it.agentId) ?? it.agentName ?? it.agentId,
      tokens: 0,
      estimated: false,
    };
    agents.set(it.agentId, { ...a, tokens: a.tokens + n, estimated: a.estimated || guess });
  }
  const out: TokenSpend = {
    total,
    estimated,
    perAgent: [...agents.values()].sort((a, b) => b.tokens - a.tokens),
    people: [...people.values()],
  };
  cache.set(feed, out);
  return out;
}

/** '12,400', '≈ 12,400' when any part is estimated (where the unit is said beside it: a chart, a tile). */
export const tokenCount = (tokens: number, estimated: boolean): string =>
  `${estimated ? '≈ ' : ''}${tokens.toLocaleString('en-US')}`;

/** '12,400 tokens', '≈ 12,400 tokens' when any part is estimated. */
export const tokensText = (tokens: number, estimated: boolean): string =>
  `${tokenCount(tokens, estimated)} token${tokens === 1 ? '' : 's'}`;

/** The header's total, or null before anything was counted. */
export const tokenTotalText = (s: Pick<TokenSpend, 'total' | 'estimated'>): string | null =>
  s.total > 0 ? tokensText(s.total, s.estimated) : null;
