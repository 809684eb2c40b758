// Every actor the app registers by systemId, with its type: a chart looks a neighbour up by id and gets a ref
// that only accepts that neighbour's events (a misspelt event or a wrong field is a type error, not a silent drop).
// The ids are the ones app.machine.ts, workspace.machine.ts and models.machine.ts give when they spawn or invoke.
import type { ActorRefFrom, ActorSystem } from 'xstate';
import type { appMachine } from '../machines/app.machine';
import type { audioQueueMachine } from '../machines/audioQueue.machine';
import type { builtinModelsMachine } from '../machines/builtinModels.machine';
import type { editorMachine } from '../machines/editor.machine';
import type { evaluationMachine } from '../machines/evaluation.machine';
import type { historyMachine } from '../machines/history.machine';
import type { hybridDiscussionMachine } from '../machines/hybridDiscussion.machine';
import type { liveUpdatesMachine } from '../machines/liveUpdates.machine';
import type { modelsMachine } from '../machines/models.machine';
import type { sessionMachine } from '../machines/session.machine';
import type { standardDiscussionMachine } from '../machines/standardDiscussion.machine';
import type { toastsMachine } from '../machines/toasts.machine';
import type { workspaceMachine } from '../machines/workspace.machine';

export type SystemActors = {
  app: ActorRefFrom<typeof appMachine>;
  session: ActorRefFrom<typeof sessionMachine>;
  toasts: ActorRefFrom<typeof toastsMachine>;
  workspace: ActorRefFrom<typeof workspaceMachine>;
  editor: ActorRefFrom<typeof editorMachine>;
  models: ActorRefFrom<typeof modelsMachine>;
  evaluation: ActorRefFrom<typeof evaluationMachine>;
  builtinModels: ActorRefFrom<typeof builtinModelsMachine>;
  liveUpdates: ActorRefFrom<typeof liveUpdatesMachine>;
  audioQueue: ActorRefFrom<typeof audioQueueMachine>;
  standardDiscussion: ActorRefFrom<typeof standardDiscussionMachine>;
  hybridDiscussion: ActorRefFrom<typeof hybridDiscussionMachine>;
  history: ActorRefFrom<typeof historyMachine>;
};

export type SystemId = keyof SystemActors;

/** The app's actor system, typed by its registry. */
export type AppSystem = ActorSystem<{ actors: SystemActors }>;

/** The actor registered as `id`; undefined when none runs (a chart tested on its own, or before sign-in). */
// biome-ignore lint/suspicious/noExplicitAny: a chart's own `system` is untyped (ActorSystem<any>)
export function systemActor<K extends SystemId>(system: ActorSystem<any>, id: K): SystemActors[K] | undefined {
  return system.get(id);
}
