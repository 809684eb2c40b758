import { DISCUSSION_RESUME_GRACE_MS } from '../../src/schemas/constants';
import type { AppContext } from '../context';
import type { EngineTiming } from './plan';

// Per-server knobs and instruments of the engine, kept beside (not inside) the AppContext so the engine needs
// no change to the shared context type. Production uses the defaults; tests and the bench shorten the timers
// and attach an observer.

export interface EngineTuning extends EngineTiming {
  /** How long a discussion whose socket dropped keeps running, waiting for a reconnect. */
  graceMs: number;
  /** How long a socket may stay open without sending its configuration. */
  configTimeoutMs: number;
}

export const DEFAULT_TUNING: EngineTuning = {
  turnTimeoutMs: 120_000,
  ackTimeoutMs: 15_000,
  maxConsecutiveFailures: 3,
  graceMs: DISCUSSION_RESUME_GRACE_MS,
  configTimeoutMs: 30_000,
};

/** Test and bench instruments. Not used in production. */
export interface EngineObserver {
  /** A turn's message frame was handed to the socket `latencyMs` after its model call resolved. */
  onAnswerOnWire?(latencyMs: number): void;
  /** A model call took `ms` (as the engine saw it: request to parsed answer). */
  onModelCall?(ms: number): void;
  /** A frame was sent (or buffered for a dropped socket). */
  onFrame?(sessionId: string, frame: { type: string }): void;
  /** Every model request the engine makes, before it is sent. */
  onChatRequest?(req: import('../providers/types').ChatRequest): void;
}

const tunings = new WeakMap<AppContext, EngineTuning>();
const observers = new WeakMap<AppContext, EngineObserver>();

export const tuningOf = (ctx: AppContext): EngineTuning => tunings.get(ctx) ?? DEFAULT_TUNING;
export const tuneEngine = (ctx: AppContext, t: Partial<EngineTuning>) => tunings.set(ctx, { ...tuningOf(ctx), ...t });
export const observerOf = (ctx: AppContext): EngineObserver | undefined => observers.get(ctx);
export const observeEngine = (ctx: AppContext, o: EngineObserver | null) => (o ? observers.set(ctx, o) : observers.delete(ctx));
