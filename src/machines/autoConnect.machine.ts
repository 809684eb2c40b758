// The canvas's 'Auto-connect' action (part 1 §4): POST /connections/auto-connect. One actor per request,
// invoked by the workspace; it ends with how many connections were created or the reason it failed.
import { assign, fromPromise, setup, type ActorRefFrom } from 'xstate';
import { notProvided } from '../model/actorKit';

export type AutoConnectOutput = { ok: true; created: number } | { ok: false; error: unknown };

export const autoConnectMachine = setup({
  types: {
    context: {} as { result: AutoConnectOutput | null },
    output: {} as AutoConnectOutput,
  },
  actors: {
    postAutoConnect: fromPromise<{ connections_created: number }>(notProvided('autoConnect', 'postAutoConnect')),
  },
}).createMachine({
  id: 'autoConnect',
  context: { result: null },
  initial: 'running',
  states: {
    running: {
      invoke: {
        src: 'postAutoConnect',
        onDone: { target: 'done', actions: assign({ result: ({ event }) => ({ ok: true as const, created: event.output.connections_created }) }) },
        onError: { target: 'done', actions: assign({ result: ({ event }) => ({ ok: false as const, error: event.error }) }) },
      },
    },
    done: { type: 'final' },
  },
  output: ({ context }) => context.result!,
});

export type AutoConnectActorRef = ActorRefFrom<typeof autoConnectMachine>;
