// Time for machines that may not read it themselves: a ticker that tells its parent the current time right
// away and then every `intervalMs`. The interval itself is chosen by the machine (its input).
import { fromCallback, type EventObject } from 'xstate';
import type { TickerInput } from '../model/actorKit';

export function fromTicker<T extends string>(type: T, now: () => number = () => Date.now()) {
  return fromCallback<EventObject, TickerInput>(({ sendBack, input }) => {
    const tick = () => sendBack({ type, now: now() });
    tick();
    const handle = setInterval(tick, input.intervalMs);
    return () => clearInterval(handle);
  });
}
