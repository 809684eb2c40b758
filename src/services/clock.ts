// Time for machines that may not read it themselves: the wall clock a panel's provided `readClock` reads, and a
// ticker that tells its parent the current time right away and then every `intervalMs` (the interval itself is
// chosen by the machine, in its input).
import { fromCallback, type EventObject } from 'xstate';
import type { TickerInput } from '../machines/kit/actorKit';

/** The wall clock, for the panels' `readClock` (a test provides its own time instead). */
export const wallClock = () => Date.now();

export function fromTicker<T extends string>(type: T, now: () => number = () => Date.now()) {
  return fromCallback<EventObject, TickerInput>(({ sendBack, input }) => {
    const tick = () => sendBack({ type, now: now() });
    tick();
    const handle = setInterval(tick, input.intervalMs);
    return () => clearInterval(handle);
  });
}
