import type { FloorBy } from '../../../src/schemas/format';

// What a format remembers while it runs (part of the engine's context, so a stored snapshot resumes it): where its
// script is, the floor it has promised, what it waits for, and the council's answers and the debate's votes.

/** What a model is asked for: a turn, an anonymous ranking, a moderator's pick, a judge's vote. */
export type FormatTask = 'speak' | 'answer' | 'rank' | 'synthesis' | 'pick' | 'vote';
/** Tasks whose answer is a choice, not words for the feed: not streamed, not spoken, read by formats/answers.ts. */
export const QUIET_TASKS: ReadonlySet<FormatTask> = new Set(['rank', 'pick', 'vote']);

export interface Slot {
  agentId: string;
  task: FormatTask;
  /** A council stage or a debate phase. */
  stage: string | null;
  /** 'before' or 'after' for a judge's vote. */
  phase?: 'before' | 'after';
}

export interface PendingFloor {
  agentId: string;
  by: FloorBy;
  reason: string;
  /** A person's message the agent answers first. */
  message?: string;
}

export interface Ballot {
  voterId: string;
  order: string[];
  reasons: Record<string, string>;
}

export interface Vote {
  voterId: string;
  side: 'for' | 'against';
  confidence: number;
  phase: 'before' | 'after';
  reason: string;
}

export interface FormatState {
  /** The next slot of a council's or a debate's script. */
  step: number;
  /** Speaking turns so far (a moderated discussion ends at the plan's turn limit). */
  spoken: number;
  current: (Slot & { by: FloorBy; reason: string; message?: string; fromScript?: boolean }) | null;
  /** The current constrained answer was unreadable: asked once more with this, then the fallback. */
  repair: { bad: string; why: string } | null;
  pending: PendingFloor | null;
  /** Agent @mention hand-overs in a row. */
  handovers: number;
  waiting: 'floor' | 'judge' | 'answer' | null;
  ending: boolean;
  answers: Array<{ label: string; agentId: string; text: string }>;
  ballots: Ballot[];
  votes: Vote[];
  /** The last stage or phase announced with a format_stage frame. */
  announced: string | null;
  /** The council chair's answer: the discussion's summary. */
  summary: string | null;
  /** A council's first answers, asked for at once (lanes.ts); null otherwise. */
  lanes?: Lane[] | null;
}

export interface Lane {
  agentId: string;
  /** The turn number its message is written under (its id). */
  turn: number;
  state: 'waiting' | 'thinking' | 'done' | 'failed';
  draft: { id: string; text: string } | null;
}

export const initialFormatState = (): FormatState => ({
  step: 0,
  spoken: 0,
  current: null,
  repair: null,
  pending: null,
  handovers: 0,
  waiting: null,
  ending: false,
  answers: [],
  ballots: [],
  votes: [],
  announced: null,
  summary: null,
});

export const labelOf = (i: number) => (i < 26 ? String.fromCharCode(65 + i) : `A${i - 25}`);
