// Every actor the app registers by systemId, with its type: a chart looks a neighbour up by id and gets a ref
// that only accepts that neighbour's events (a misspelt event or a wrong field is a type error, not a silent drop).
// The ids are the ones app.machine.ts, workspace.machine.ts and models.machine.ts give when they spawn or invoke.
// Each chart adds its own entry to SystemActors (a module augmentation at the end of its file), so this file
// imports no chart and the charts' types form no circle through it.
import type { ActorSystem } from 'xstate';

// biome-ignore lint/suspicious/noEmptyInterface: filled by each chart's module augmentation
export interface SystemActors {}

export type SystemId = keyof SystemActors;

/** The app's actor system, typed by its registry. */
export type AppSystem = ActorSystem<{ actors: { [K in SystemId]: SystemActors[K] } }>;

/** The actor registered as `id`; undefined when none runs (a chart tested on its own, or before sign-in). */
// biome-ignore lint/suspicious/noExplicitAny: a chart's own `system` is untyped (ActorSystem<any>)
export function systemActor<K extends SystemId>(system: ActorSystem<any>, id: K): SystemActors[K] | undefined {
  return system.get(id);
}
