import { DISCUSSION_RESUME_GRACE_MS } from '../../src/schemas/constants';
import type { ChatRequest } from '../providers/types';
import type { EngineTiming } from './plan';

// The engine's per-server part of the AppContext (`ctx.engine`): its knobs, its instruments and the discussions it
// is running. Production uses the defaults; tests and the bench shorten the timers and attach an observer. The
// knobs of one discussion (time-outs, failures) are copied into its Plan when it starts.

export interface EngineTuning extends EngineTiming {
  /** How long a discussion whose socket dropped keeps running, waiting for a reconnect. */
  graceMs: number;
  /** How long a socket may stay open without sending its configuration. */
  configTimeoutMs: number;
  /** A streamed reply's deltas are coalesced to at most one frame per this many ms per message. */
  coalesceMs: number;
}

export const DEFAULT_TUNING: EngineTuning = {
  turnTimeoutMs: 120_000,
  ackTimeoutMs: 15_000,
  maxConsecutiveFailures: 3,
  graceMs: DISCUSSION_RESUME_GRACE_MS,
  configTimeoutMs: 30_000,
  coalesceMs: 50,
};

/** Test and bench instruments. Not used in production. */
export interface EngineObserver {
  /** A turn's message frame was handed to the socket `latencyMs` after its model call resolved. */
  onAnswerOnWire?(latencyMs: number): void;
  /** A delta was handed to the socket `latencyMs` after the first model token in it arrived; `first` for a message's first delta. */
  onDeltaOnWire?(latencyMs: number, first: boolean): void;
  /** A model call took `ms` (as the engine saw it: request to parsed answer). */
  onModelCall?(ms: number): void;
  /** A frame was sent (or buffered for a dropped socket); ephemeral frames (deltas) included. */
  onFrame?(sessionId: string, frame: { type: string }): void;
  /** Every model request the engine makes, before it is sent. */
  onChatRequest?(req: ChatRequest): void;
}

export interface EngineState {
  tuning: EngineTuning;
  observer: EngineObserver | null;
  /** Told each time a discussion's frames are stored (set by engine/cluster.ts, which tells the other processes). */
  announceFrames: ((discussionId: string, seq: number) => void) | null;
}

export const createEngineState = (tuning: Partial<EngineTuning> = {}): EngineState => ({
  tuning: { ...DEFAULT_TUNING, ...tuning },
  observer: null,
  announceFrames: null,
});
