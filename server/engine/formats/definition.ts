import type { DiscussionFormat, FloorBy } from '../../../src/schemas/format';
import type { EngineContext, Step } from '../context';
import type { EngineFrame } from '../frames';
import type { AgentRef, Plan } from '../plan';
import type { TurnRequest } from '../prompt';
import type { SpeakerReason } from '../speakers';
import type { FormatState, Slot } from './state';

// What one format is, written once in its own file (roundTable.ts, moderated.ts, council.ts, debate.ts) and
// registered by kind (index.ts): the engine's chart and the shared steps ask the definition, never the kind.

// The floor policy of every format: who speaks (or is asked for a choice) next and why, or that the format waits for
// the person, or that it is over (floor.ts applies what every format shares, then asks the definition's order).
export type Floor =
  | {
      kind: 'turn';
      slot: Slot;
      by: FloorBy;
      reason: string;
      message?: string;
      fromScript: boolean;
      speakerReason?: SpeakerReason;
    }
  | { kind: 'wait'; waiting: 'floor' | 'judge' | 'answer' }
  | { kind: 'end' };

export type Current = NonNullable<FormatState['current']>;

export interface StageTitle {
  title: string;
  description: string;
}

/** What reading a constrained answer needs from the shared step (steps.ts): the raw reply and how to finish. */
export interface ChoiceKit {
  raw: string;
  agent: AgentRef;
  /** The answer is used: the script moves on, with this change to the format's state and these rows. */
  done: (patch: Partial<FormatState>, ...frames: EngineFrame[]) => Step;
  /** Asks once more with the reason; null when it was asked again already. */
  retry: (why: string) => Step | null;
  /** The row that says an answer could not be used, even when asked again, and what happens instead. */
  problem: (why: string, then: string) => EngineFrame;
}

/** The person's vote as a judge. */
export interface PersonVote {
  side: 'for' | 'against';
  confidence: number;
  reason?: string;
  /** Who holds the judge's seat when it is not the owner (rooms/). */
  voterName?: string;
}

export interface FormatDefinition<P extends { kind: string } = { kind: string }> {
  kind: P['kind'];
  /** The plan from the first frame's `format`, every default decided once. */
  plan(format: DiscussionFormat, agentIds: readonly string[]): P;
  /** What zod cannot see and the shared check does not (roles that do not fit together); null when it runs. */
  problem(format: DiscussionFormat, agentIds: readonly string[]): string | null;
  /**
   * It decides itself when it is over (its script is done, the moderator closes, the person ends it): it runs one
   * round of one stage holding the plan's whole turn budget, and always concludes. Otherwise rounds and stages run.
   */
  endsItself: boolean;
  /** The agents who speak in turn. */
  speakers(plan: P, agents: readonly AgentRef[]): AgentRef[];
  /** Its script, in order; empty where the floor is chosen as it goes. */
  script(plan: P, engine: Plan): Slot[];
  /** The floor by its own order, once nothing is promised: a turn, a wait for the person, or the end. */
  order(c: EngineContext, plan: P, script: Slot[], step: number): Floor;
  /** A floor given out of order (an @mention, the person) speaks in the script's current stage. */
  givenFloorKeepsStage: boolean;
  /** An agent @mentioned in a turn is handed the floor. */
  mentionsHandOver: boolean;
  /** The rows that open its stages. */
  stages: Readonly<Record<string, StageTitle>>;
  /** The rows sent before a stage opens (a council's ranking before the chair writes). */
  beforeStage?(c: EngineContext, stage: string): EngineFrame[];
  /** The stage it opens while it waits for the person (a human judge's vote), if any. */
  waitStage?(s: FormatState): string | null;
  /** A speaking turn hears the canvas's connections ('canvas', the plan's hearing) or the whole discussion. */
  hearing: 'canvas' | 'everyone';
  /** Its first stage's answers are asked for at once (lanes.ts). */
  answersAtOnce: boolean;
  /** The side an agent argues, where the format has sides. */
  sideOf?(plan: P, agentId: string): 'for' | 'against' | null;
  /** Words added to a speaking turn's instructions (a debater's side and phase). */
  speakNote?(plan: P, agentId: string, stage: string | null): string;
  /** What a speaking turn it scripted adds to its state (a council's answers, the chair's summary). */
  afterTurn?(s: FormatState, cur: Current, agent: AgentRef, content: string): Partial<FormatState>;
  /** The request for one of its own tasks (everything but 'speak'). */
  prompt?(c: EngineContext, s: FormatState, cur: Current, agent: AgentRef): TurnRequest;
  /** Reads one of its constrained answers (a pick, a ranking, a vote). */
  recordChoice?(c: EngineContext, cur: Current, kit: ChoiceKit): Step;
  /** The person votes as its judge. */
  personJudges(plan: P): boolean;
  /** The person gives the floor (a moderator that is the person): nobody speaks until they choose. */
  personGivesFloor(plan: P): boolean;
  /** The person's vote, where `personJudges`. */
  personVote?(c: EngineContext, vote: PersonVote): Step;
}
