import type { Argument } from '../schemas/discussion';
import type { Feed, FeedItem } from './feed';
import { selectArgumentTree, type ArgumentNode } from './feedSelectors';
import { kvGet, kvValues } from './keyedVec';

// The Reasoning Tree of any run (issue 47). Multi-round reasoning sends arguments with parents: those are the tree.
// Every other run still has arguments, as data the server sent with each turn: the options the agents took
// (positions) and each turn's claim. Then each option is a proposal, first put by the agent that first took it;
// the later turns that held it hang beneath it as support, and a turn that held no option stands on its own. The
// tree is empty only when no agent has spoken.

/** A claim is the turn's first sentence, bounded: the full text is in the Discussion tab. */
export const CLAIM_MAX_CHARS = 240;

const TURN_KINDS: ReadonlySet<FeedItem['kind']> = new Set(['hybrid', 'text', 'argument']);

export function claimOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const first = /^(.+?[.!?])(\s|$)/.exec(flat)?.[1] ?? flat;
  return first.length > CLAIM_MAX_CHARS ? `${first.slice(0, CLAIM_MAX_CHARS - 1).trimEnd()}…` : first;
}

interface DerivedArgument {
  id: string;
  agent_id: string;
  agent_name?: string;
  type: Argument['type'];
  content: string;
  confidence: number;
  parent_id: string | null;
  votes?: Argument['votes'];
}

const argumentOf = (a: DerivedArgument): Argument => ({
  ...a,
  supporting_evidence: [],
  votes: a.votes ?? { support: 0, oppose: 0 },
});

function treeFromTurns(feed: Feed): ArgumentNode[] {
  const p = feed.positions;
  const turns = kvValues(feed.items).filter((it) => TURN_KINDS.has(it.kind) && it.agentId && !it.streaming);
  const holders = Object.values(p.byAgent);
  const roots: ArgumentNode[] = [];
  const byOption = new Map<string, ArgumentNode>();
  for (const it of turns) {
    const step = kvGet(p.steps, it.id);
    const claim = claimOf(it.content);
    if (!claim) continue;
    const confidence = step?.confidence ?? it.confidence ?? 0;
    const option = step ? p.options.find((o) => o.id === step.optionId) : undefined;
    const root = step ? byOption.get(step.optionId) : undefined;
    if (step && !root) {
      const held = holders.filter((h) => h.optionId === step.optionId).length;
      const node: ArgumentNode = {
        argument: argumentOf({
          id: `option:${step.optionId}`,
          agent_id: it.agentId!,
          agent_name: it.agentName ?? undefined,
          type: 'proposal',
          content: option ? `${option.label} — ${claim}` : claim,
          confidence,
          parent_id: null,
          votes: { support: held, oppose: holders.length - held },
        }),
        children: [],
      };
      byOption.set(step.optionId, node);
      roots.push(node);
      continue;
    }
    const node: ArgumentNode = {
      argument: argumentOf({
        id: it.id,
        agent_id: it.agentId!,
        agent_name: it.agentName ?? undefined,
        type: root ? 'support' : 'proposal',
        content: claim,
        confidence,
        parent_id: root ? root.argument.id : null,
      }),
      children: [],
    };
    if (root) root.children.push(node);
    else roots.push(node);
  }
  return roots;
}

const cache = new WeakMap<Feed['items'], { positions: Feed['positions']; roots: ArgumentNode[] }>();

/** The Reasoning Tree's roots: the run's own arguments when it sent them, else its options and turns' claims. */
export function selectReasoningTree(feed: Feed): ArgumentNode[] {
  const own = selectArgumentTree(feed);
  if (own.length > 0) return own;
  const hit = cache.get(feed.items);
  if (hit && hit.positions === feed.positions) return hit.roots;
  const roots = treeFromTurns(feed);
  cache.set(feed.items, { positions: feed.positions, roots });
  return roots;
}
