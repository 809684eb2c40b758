// Creating one connection from a drag between two nodes (part 1 §4): POST /connections/. One actor per
// request, invoked by the workspace; it ends with the new edge or the reason it failed.
import { assign, fromPromise, setup, type ActorRefFrom } from 'xstate';
import type { Edge } from '../schemas/connections';
import { notProvided } from '../model/actorKit';

export interface ConnectionCreateInput {
  from: string;
  to: string;
}

export type ConnectionCreateOutput = { ok: true; edge: Edge } | { ok: false; error: unknown };

export const connectionCreateMachine = setup({
  types: {
    context: {} as { request: ConnectionCreateInput; result: ConnectionCreateOutput | null },
    input: {} as ConnectionCreateInput,
    output: {} as ConnectionCreateOutput,
  },
  actors: {
    createConnection: fromPromise<Edge, ConnectionCreateInput>(notProvided('connectionCreate', 'createConnection')),
  },
}).createMachine({
  id: 'connectionCreate',
  context: ({ input }) => ({ request: input, result: null }),
  initial: 'creating',
  states: {
    creating: {
      invoke: {
        src: 'createConnection',
        input: ({ context }) => context.request,
        onDone: { target: 'done', actions: assign({ result: ({ event }) => ({ ok: true as const, edge: event.output }) }) },
        onError: { target: 'done', actions: assign({ result: ({ event }) => ({ ok: false as const, error: event.error }) }) },
      },
    },
    done: { type: 'final' },
  },
  output: ({ context }) => context.result!,
});

export type ConnectionCreateActorRef = ActorRefFrom<typeof connectionCreateMachine>;
