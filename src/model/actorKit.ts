// The small pieces every chart shares, written once:
//   notProvided  — the placeholder body of an actor or action the composition root provides; it throws with the
//                  chart's and the actor's name (a chart run without it fails loudly, never silently does nothing)
//   notifyToasts — ask the actor registered as 'toasts' for a toast (nothing happens when there is none)
//   tellParent   — send an event to the parent actor, when there is one (a chart run on its own has none)
//   TickerInput  — what a chart tells the ticker it invokes to learn the time (services/clock.ts provides it)
// The two actions are written as the body of an `enqueueActions`, so each chart wraps them in its own `setup`
// (`notify: enqueueActions(notifyToasts)`) and keeps its own context and event types.
import type { ActorSystem, AnyActorRef, EventObject } from 'xstate';
import type { ToastRequest } from './toastRequest';

/** The input of a ticker actor (services/clock.ts): how often it tells its parent the time. */
export interface TickerInput {
  intervalMs: number;
}

/** A placeholder actor or action body: `fromPromise(notProvided('workspace', 'loadAgents'))`, `persist: notProvided(…)`. */
export const notProvided = (machine: string, actor: string) => (): never => {
  throw new Error(`${machine}: ${actor} is not provided (the composition root provides it)`);
};

/** The part of `enqueueActions`' argument these actions use. */
interface Enqueue {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any chart's system: the toasts actor is looked up by id
  system: ActorSystem<any>;
  self: AnyActorRef;
  enqueue: { sendTo: (to: AnyActorRef, event: EventObject) => void; sendParent: (event: EventObject) => void };
}

export function notifyToasts({ system, enqueue }: Enqueue, params: ToastRequest): void {
  const toasts = system.get('toasts') as AnyActorRef | undefined;
  if (toasts) enqueue.sendTo(toasts, { type: 'toast.show', ...params });
}

export function tellParent({ self, enqueue }: Enqueue, params: EventObject): void {
  if (self._parent) enqueue.sendParent(params);
}
