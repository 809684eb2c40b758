import type { ARGUMENT_TYPES } from '../../src/schemas/constants';
import { measureConsensus, type ConsensusMeasure, type Position, type Stance } from './consensus';
import type { Vote } from '../../src/schemas/positions';
import type { Plan } from './plan';
import type { ChangeCounts } from './positions/changes';
import type { OptionList } from './positions/options';

// What a discussion has said so far, as plain data the machine keeps in its context: the turns (human ones
// included), each agent's latest position, the argument tree and the running figures. Only pure helpers here.

export type ArgumentType = (typeof ARGUMENT_TYPES)[number];

export interface SpokenTurn {
  speakerId: string | null;
  speaker: string;
  content: string;
  stance?: Stance;
  confidence?: number;
  human?: boolean;
  reasoning?: string[];
  addressedTo?: string | null;
  /** The option this turn held. */
  optionId?: string | null;
}

export interface ArgumentNode {
  id: string;
  agentId: string;
  agentName: string;
  type: ArgumentType;
  content: string;
  confidence: number;
  evidence: string[];
  parentId: string | null;
  stage: string | null;
  round: number;
}

export interface Figures {
  responseMs: number;
  responses: number;
  ttsMs: number;
  audio: number;
  delegations: number;
  messages: number;
}

export interface DiscussionRecord {
  /** The most recent turns (TURN_WINDOW at most): what a prompt quotes. */
  turns: SpokenTurn[];
  /** Older turns, as short gists (EARLIER_LIMIT at most): the summary of what came before the window. */
  earlier?: string[];
  /** How many turns left the window. */
  olderTurns?: number;
  positions: Record<string, Position>;
  arguments: ArgumentNode[];
  /** The proposal the table is currently weighing (the latest proposal or synthesis argument). */
  proposalId: string | null;
  evidence: string[];
  figures: Figures;
  /** The options the agents hold or held (positions/options.ts); absent until the first position. */
  options?: OptionList;
  /** The leading option once every agent had answered once. */
  firstVote?: Vote | null;
  /** How many changes of option came after an argument, and how many followed the majority. */
  changes?: ChangeCounts;
}

export const emptyRecord = (): DiscussionRecord => ({
  turns: [],
  positions: {},
  arguments: [],
  proposalId: null,
  evidence: [],
  figures: { responseMs: 0, responses: 0, ttsMs: 0, audio: 0, delegations: 0, messages: 0 },
});

/**
 * The record keeps a bounded window of turns, so a long discussion (or a flood of human messages) neither grows the
 * machine's memory nor the snapshot stored with every batch of frames (durable mode) without bound; turns that leave
 * the window are kept as short gists, which is all a prompt needs of them.
 */
export const TURN_WINDOW = 60;
export const EARLIER_LIMIT = 40;
const GIST_CHARS = 280;

/** The record's turn fields after `turn` is said. */
export function withTurn(
  record: DiscussionRecord,
  turn: SpokenTurn,
): Pick<DiscussionRecord, 'turns' | 'earlier' | 'olderTurns'> {
  const turns = [...record.turns, turn];
  if (turns.length <= TURN_WINDOW) return { turns, earlier: record.earlier, olderTurns: record.olderTurns };
  const left = turns.splice(0, turns.length - TURN_WINDOW);
  const earlier = [...(record.earlier ?? []), ...left.map((t) => t.content.slice(0, GIST_CHARS))].slice(-EARLIER_LIMIT);
  return { turns, earlier, olderTurns: (record.olderTurns ?? 0) + left.length };
}

/** Turns said so far, including those that left the window. */
export const turnsSaid = (record: DiscussionRecord) => (record.olderTurns ?? 0) + record.turns.length;

/** What `agentId` has heard, oldest first: everyone (or its canvas neighbours), itself, and every human message. */
export function heardBy(plan: Plan, record: DiscussionRecord, agentId: string, limit = 12): SpokenTurn[] {
  const hears = plan.hearing?.[agentId];
  const heard = record.turns.filter(
    (t) => t.human || !hears || t.speakerId === agentId || (t.speakerId !== null && hears.includes(t.speakerId)),
  );
  return heard.slice(-limit);
}

export const consensusOf = (plan: Plan, record: DiscussionRecord): ConsensusMeasure =>
  measureConsensus(
    Object.values(record.positions),
    plan.agents.length,
    (id) => record.options?.options.find((o) => o.id === id)?.label,
  );

/**
 * The proposal's text, else the latest words of the leading option's most confident holder (`leader`), else the
 * most confident supporter's, else the last thing said. A holder of another option is never the solution's voice:
 * the outcome row would name them both as agreement and as dissent.
 */
export function solutionOf(record: DiscussionRecord, leader: string | null = null): string {
  const synth = [...record.arguments].reverse().find((a) => a.type === 'synthesis');
  if (synth) return synth.content;
  const proposal = record.arguments.find((a) => a.id === record.proposalId);
  if (proposal) return proposal.content;
  const supporters = Object.values(record.positions)
    .filter((p) => (leader ? p.optionId === leader : p.stance === 'support'))
    .sort((a, b) => b.confidence - a.confidence);
  if (supporters.length) return supporters[0].content;
  return [...record.turns].reverse().find((t) => !t.human)?.content ?? '';
}

/** Support and oppose among the agents' latest stances: the votes shown on an argument of the current thread. */
export function votesOf(record: DiscussionRecord) {
  const ps = Object.values(record.positions);
  return {
    support: ps.filter((p) => p.stance === 'support').length,
    oppose: ps.filter((p) => p.stance === 'oppose').length,
  };
}

export const averageResponseMs = (f: Figures) => (f.responses ? Math.round(f.responseMs / f.responses) : 0);
export const averageTtsMs = (f: Figures) => (f.audio ? Math.round(f.ttsMs / f.audio) : 0);
