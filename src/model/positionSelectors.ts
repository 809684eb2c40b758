import type { PositionOption, Vote } from '../schemas/positions';
import type { Feed } from './feed';
import type { PositionStep } from './feed/positions';
import { kvValues } from './keyedVec';

// The position story as the views show it: per agent its steps (option and confidence per turn), the options with
// their colour slot, the first and final vote, the outcome sentence and the change counts. Only regrouping of
// what the server sent; nothing is scored here.

export interface AgentTimeline {
  agentId: string;
  name: string;
  /** `index`: the step's place among all turns that held an option (the chart's x). */
  steps: Array<PositionStep & { index: number }>;
}

export interface PositionStory {
  options: ReadonlyArray<PositionOption & { slot: number }>;
  agents: AgentTimeline[];
  turns: number;
  firstVote: Vote | null;
  /** The final vote once the discussion concluded; until then null. */
  finalVote: Vote | null;
  outcome: string | null;
  changes: { argument: number; majority: number };
  /** The consensus figure and leading option after the latest turn. */
  score: number | null;
  leaderId: string | null;
}

/** How many option colours the views cycle through (CSS `--option-0` … `--option-7`). */
export const OPTION_SLOTS = 8;

const cache = new WeakMap<Feed['positions'], PositionStory | null>();

export function selectPositionStory(feed: Feed): PositionStory | null {
  const p = feed.positions;
  if (cache.has(p)) return cache.get(p)!;
  const steps = kvValues(p.steps);
  let out: PositionStory | null = null;
  if (steps.length || p.options.length) {
    const names = new Map(feed.participants.map((x) => [x.id, x.name]));
    const byAgent = new Map<string, AgentTimeline>();
    for (const x of feed.participants) byAgent.set(x.id, { agentId: x.id, name: x.name, steps: [] });
    steps.forEach((s, index) => {
      const a = byAgent.get(s.agentId) ?? { agentId: s.agentId, name: names.get(s.agentId) ?? s.agentName, steps: [] };
      a.steps.push({ ...s, index });
      byAgent.set(s.agentId, a);
    });
    out = {
      options: p.options.map((o, i) => ({ ...o, slot: i % OPTION_SLOTS })),
      agents: [...byAgent.values()].filter((a) => a.steps.length > 0),
      turns: steps.length,
      firstVote: p.firstVote,
      finalVote: p.finalVote,
      outcome: p.outcome,
      changes: p.changes,
      score: p.score,
      leaderId: p.leaderId,
    };
  }
  cache.set(p, out);
  return out;
}

/** An option's words, or its id when the list has not arrived. */
export const optionLabelOf = (story: PositionStory, id: string | null | undefined) =>
  (id && story.options.find((o) => o.id === id)?.label) || id || '';
export const optionSlotOf = (story: PositionStory, id: string | null | undefined) =>
  story.options.find((o) => o.id === id)?.slot ?? 0;

/** What a replay's header shows at a moment: the consensus figure and each agent's current option, cheaply. */
export function selectPositionNow(feed: Feed): {
  score: number | null;
  halved: number;
  holders: Array<{ name: string; label: string }>;
} {
  const p = feed.positions;
  const label = (id: string) => p.options.find((o) => o.id === id)?.label ?? id;
  const names = new Map(feed.participants.map((x) => [x.id, x.name]));
  return {
    score: p.score,
    halved: p.halved,
    holders: Object.values(p.byAgent).map((s) => ({
      name: names.get(s.agentId) ?? s.agentName,
      label: label(s.optionId),
    })),
  };
}

/**
 * The colour slot of an option from its id alone (the server numbers options o1, o2, … in order of proposal), for
 * the canvas, which sees turn frames but not the list. The same slot the list gives, for the first OPTION_SLOTS.
 */
export const optionSlotFromId = (id: string) => {
  const n = Number(/^o(\d+)$/.exec(id)?.[1]);
  return Number.isFinite(n) && n > 0 ? (n - 1) % OPTION_SLOTS : 0;
};

/** Each agent's current option at a moment as the canvas marks it (its words and colour slot), keyed by agent id. */
export function canvasPositionsOf(p: Feed['positions']): Record<string, { label: string; slot: number }> {
  const out: Record<string, { label: string; slot: number }> = {};
  for (const s of Object.values(p.byAgent))
    out[s.agentId] = {
      label: p.options.find((o) => o.id === s.optionId)?.label ?? s.optionId,
      slot: optionSlotFromId(s.optionId),
    };
  return out;
}
