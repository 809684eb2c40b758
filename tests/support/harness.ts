// Runs a machine the way the app does: as a child with its systemId, next to a real toasts actor, under a
// stand-in parent that records what the child tells it.
import {
  createActor,
  fromPromise,
  setup,
  spawnChild,
  type AnyActorLogic,
  type AnyActorRef,
  type AnyEventObject,
} from 'xstate';
import { toastsMachine, type ToastsActorRef } from '../../src/machines/toasts.machine';

export function underParent<T extends AnyActorRef = AnyActorRef>(
  logic: AnyActorLogic,
  systemId: string,
  input?: unknown,
) {
  const heard: AnyEventObject[] = [];
  const parent = setup({ actors: { child: logic, toasts: toastsMachine } }).createMachine({
    entry: [
      spawnChild('toasts', { id: 'toasts', systemId: 'toasts' }),
      spawnChild('child', {
        id: systemId,
        systemId,
        input: ({ self }) => ({ ...(input as object | undefined), parent: self }),
      }),
    ],
    on: { '*': { actions: ({ event }) => void heard.push(event) } },
  });
  // The parent stands in for the app: a chart that tells the app something (History's 'show this panel') tells it.
  const root = createActor(parent, { systemId: 'app' }).start();
  const child = root.system.get(systemId) as T;
  const toasts = root.system.get('toasts') as ToastsActorRef;
  return {
    root,
    child,
    heard,
    toastTexts: () => toasts.getSnapshot().context.toasts.map((t) => `${t.kind}: ${t.text}`),
    toasts,
  };
}

/** A promise the test settles by hand, and the fromPromise actor that hands it out. */
export function deferred<T, I = unknown>() {
  const calls: I[] = [];
  let settle: { resolve: (v: T) => void; reject: (e: unknown) => void } | null = null;
  const logic = fromPromise<T, I>(({ input }) => {
    calls.push(input);
    return new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
  });
  return {
    logic,
    calls,
    resolve: (v: T) => settle!.resolve(v),
    reject: (e: unknown) => settle!.reject(e),
  };
}

/** Lets promise callbacks (actor done events) run; works with real and fake timers alike. */
export async function flush() {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}
