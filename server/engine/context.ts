import type { ResearchResult } from '../../src/schemas/discussion';
import type { EngineFrame } from './frames';
import type { AgentRef, HybridMode, Plan } from './plan';
import type { TurnRequest } from './prompt';
import { emptyRecord, type DiscussionRecord } from './record';
import { initialFormatState, type FormatState } from './formats/state';
import type { SpeakerReason } from './speakers';
import type { TurnAnswer } from './turnAnswer';
import type { GivenPassage } from '../sources/citations';
import type { CallUsage } from './usage';

// What the discussion machine remembers (its context and the value it starts from), what its invoked actors
// take and give back, and the shape of a step. The steps themselves are in turnFrames.ts (one agent's turn: what
// each panel is sent for it) and roundSteps.ts (opening, rounds, stages, the end); discussion.machine.ts decides
// when each runs.

// ── The invoked actors' contracts (runtime.ts provides the real ones) ──

/** The tools of the turn's agent (docs/tools.md): the runtime offers them to its model in the call loop. */
export interface TurnTools {
  agentId: string;
  agentName: string;
  messageId: string;
  ids: string[];
  askFirst: boolean;
  /** The sources its `search_sources` searches: the discussion's and its own. */
  sourceIds: string[];
}

export interface ThinkInput {
  request: TurnRequest;
  stage: string | null;
  /** Present when the agent has tools and the turn is its own (not a format's choice, not the summary). */
  tools?: TurnTools;
  /** One of several calls made at once (a council's first answers): its events carry it back. */
  lane?: number;
}
export interface ThinkOutput {
  answer: TurnAnswer;
  /** How long the model took. */
  modelMs: number;
  /** The model's reply as written (a format's constrained answers are read from it). */
  raw?: string;
  /** performance.now() when the model call resolved (for the answer-to-wire latency figure). */
  answeredAt: number;
  /** The passages of the person's sources the turn was given (its citations are read against them). */
  passages?: GivenPassage[];
  /** The tokens the turn's model calls spent (engine/usage.ts). */
  usage?: CallUsage;
}
/** What the think actor sends back while and after the model writes (see thinking.ts). */
export type ThinkEvent =
  /** A piece of the reply's human-readable text (coalesced); `tokenAt` is when its first model token arrived. */
  | { type: 'think.delta'; text: string; tokenAt: number; lane?: number }
  | { type: 'think.done'; output: ThinkOutput; lane?: number }
  | { type: 'think.failed'; error: string; lane?: number }
  /** A frame of the turn's tool calls (tool_call, tool_result) or a note about them, sent as it happens. */
  | { type: 'think.frame'; frame: EngineFrame; lane?: number };

export interface SpeakInput {
  text: string;
  agentId: string;
  agentName: string;
  audioId: string;
  speed: number;
  format: string;
}
export interface SpeakOutput {
  audioUrl: string;
  ttsMs: number;
  /** The agent's own voice failed and espeak-ng spoke instead: why (said once per agent). */
  voiceError?: string;
}
export interface ResearchInput {
  topic: string;
  sources: string[];
  maxResults: number;
  domain: string;
}
export interface ResearchOutput {
  query: string;
  results: ResearchResult[];
  /** Set when no research service could be reached. */
  unavailable?: string;
}

// ── The machine's context ──

export interface EngineInput {
  plan: Plan;
  /** Whether a speech engine exists; speech asked for without one is announced once and switched off. */
  speechAvailable: boolean;
  /** Whether a research provider exists. */
  researchAvailable: boolean;
}

/** The message a model is writing right now: its id and the text sent as deltas so far. */
export interface Draft {
  id: string;
  text: string;
}

export interface EngineContext {
  plan: Plan;
  speechOn: boolean;
  speechMissing: boolean;
  researchAvailable: boolean;
  /** 1-based once the first round starts. */
  round: number;
  stageIndex: number;
  turnInStage: number;
  /** Agent turns begun so far; the current turn's number. */
  turn: number;
  speakerId: string | null;
  lastSpeakerId: string | null;
  prevSpeakerId: string | null;
  delegation: { toId: string; from: string; task: string } | null;
  /** The delegation the current speaker is answering. */
  answering: { from: string; task: string } | null;
  /** Why the current speaker has the floor (sent as `turn_reason` on its message). */
  speakerReason: SpeakerReason;
  lastAddressedTo: string | null;
  lastPicked: string | null;
  record: DiscussionRecord;
  failures: number;
  /** Why the current turn failed (a model error or a time-out), until failTurn reports it. */
  failure: string | null;
  audioSeq: number;
  pendingAudioId: string | null;
  lastMessageId: string | null;
  /** The streamed message in progress (agent_message_start sent, final frame not yet). */
  draft: Draft | null;
  /** The hybrid mode in force (adaptive moves between natural and structured). */
  mode: HybridMode | null;
  converged: boolean;
  /** Agents whose failing voice was already reported: a voice that keeps failing is said once, not every turn. */
  voiceFailuresSaid?: string[];
  /** The format's own state; null when the discussion has no format (formats/state.ts). */
  format: FormatState | null;
  /** Tokens the discussion's model calls spent so far; the budgets are read against it (absent in older snapshots). */
  spent?: CallUsage | null;
  /** Tokens of calls no frame carries yet (a moderator's pick, a vote): the next turn's frame carries them. */
  unbilled?: CallUsage | null;
}

export function initialContext(input: EngineInput): EngineContext {
  const { plan } = input;
  return {
    plan,
    speechOn: plan.speech.enabled && input.speechAvailable,
    speechMissing: plan.speech.enabled && !input.speechAvailable,
    researchAvailable: input.researchAvailable,
    round: 0,
    stageIndex: 0,
    turnInStage: 0,
    turn: 0,
    speakerId: null,
    lastSpeakerId: null,
    prevSpeakerId: null,
    delegation: null,
    answering: null,
    speakerReason: 'turn',
    lastAddressedTo: null,
    lastPicked: null,
    record: emptyRecord(),
    failures: 0,
    failure: null,
    audioSeq: 0,
    pendingAudioId: null,
    lastMessageId: null,
    draft: null,
    mode: plan.hybridMode === 'adaptive' ? 'natural' : plan.hybridMode,
    converged: false,
    format: plan.format ? initialFormatState() : null,
    spent: null,
    unbilled: null,
  };
}

// ── Steps ──

/** One step of the machine: its context patch and the frames to send, in order. */
export type Step = {
  patch: Partial<EngineContext>;
  frames: Array<{ frame: EngineFrame; answeredAt?: number; tokenAt?: number }>;
};
export const say = (...frames: EngineFrame[]) => frames.map((frame) => ({ frame }));
export const only = (...frames: EngineFrame[]): Step => ({ patch: {}, frames: say(...frames) });

export const speakerOf = (c: EngineContext): AgentRef =>
  c.plan.agents.find((a) => a.id === c.speakerId) ?? c.plan.agents[0];
export const stageOf = (c: EngineContext) => c.plan.stages[c.stageIndex] ?? null;
/** What every frame id of a discussion starts with: its session_id and its own uuid (unique per discussion). */
export const frameIdBase = (plan: Plan) =>
  plan.discussionId ? `${plan.sessionId}-${plan.discussionId}` : plan.sessionId;
/** The id of the current turn's message (its stream and its final frame share it). */
export const messageIdOf = (c: EngineContext) => `${frameIdBase(c.plan)}-msg-${c.turn}`;
