import type { PositionChange, PositionOption, Vote } from '../../schemas/positions';
import { emptyKeyedVec, type KeyedVec } from '../keyedVec';

// What the feed keeps of positions (the records the server sent), apart from how frames fold into it
// (positions.ts), so the feed's own type can hold it without importing the folding code.

export interface PositionStep {
  /** The turn's message id. */
  id: string;
  agentId: string;
  agentName: string;
  optionId: string;
  confidence: number;
  changed: PositionChange | null;
  /** The discussion's consensus figure right after this turn. */
  score: number | null;
  leaderId: string | null;
  /** How many of the leading option's holders counted at half confidence then (no evidence where required). */
  halved: number;
}

export interface PositionsState {
  readonly options: readonly PositionOption[];
  readonly firstVote: Vote | null;
  /** Every turn that held an option, in order (keyed by message id: a replayed frame is not counted twice). */
  readonly steps: KeyedVec<PositionStep>;
  /** agent id → its latest step. */
  readonly byAgent: Readonly<Record<string, PositionStep>>;
  /** The consensus figure and leader after the latest turn. */
  readonly score: number | null;
  readonly leaderId: string | null;
  /** The latest turn's `halved`: holders of the leading option whose confidence counted half. */
  readonly halved: number;
  readonly changes: { argument: number; majority: number };
  /** From consensus_reached / discussion_summary: the final vote and what the discussion did to the first. */
  readonly finalVote: Vote | null;
  readonly outcome: string | null;
}

export const emptyPositions: PositionsState = Object.freeze({
  options: Object.freeze([]) as readonly PositionOption[],
  firstVote: null,
  steps: emptyKeyedVec<PositionStep>(),
  byAgent: Object.freeze({}),
  score: null,
  leaderId: null,
  halved: 0,
  changes: Object.freeze({ argument: 0, majority: 0 }),
  finalVote: null,
  outcome: null,
});
