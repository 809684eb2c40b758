import type { AppContext } from '../context';
import type { EngineObserver, EngineTuning } from './engineState';

// Reading and setting the engine's part of the AppContext (`ctx.engine`, engine/engineState.ts): its knobs and its
// instruments. Production uses the defaults; tests and the bench shorten the timers and attach an observer.

export {
  createEngineState,
  DEFAULT_TUNING,
  type EngineObserver,
  type EngineState,
  type EngineTuning,
} from './engineState';

export const tuningOf = (ctx: AppContext): EngineTuning => ctx.engine.tuning;
export const tuneEngine = (ctx: AppContext, t: Partial<EngineTuning>) =>
  void (ctx.engine.tuning = { ...ctx.engine.tuning, ...t });
export const observerOf = (ctx: AppContext): EngineObserver | undefined => ctx.engine.observer ?? undefined;
export const observeEngine = (ctx: AppContext, o: EngineObserver | null) => void (ctx.engine.observer = o);
