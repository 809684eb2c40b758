// Deleting the connections the user removed on the canvas (part 1 §4): DELETE /connections/{id} for each.
// One actor per request, invoked by the workspace; it ends saying whether the server agreed.
import { assign, fromPromise, setup, type ActorRefFrom } from 'xstate';
import { notProvided } from '../model/actorKit';

export interface ConnectionDeleteInput {
  connectionIds: string[];
}

export type ConnectionDeleteOutput = { ok: true } | { ok: false; error: unknown };

export const connectionDeleteMachine = setup({
  types: {
    context: {} as { request: ConnectionDeleteInput; result: ConnectionDeleteOutput | null },
    input: {} as ConnectionDeleteInput,
    output: {} as ConnectionDeleteOutput,
  },
  actors: {
    deleteConnections: fromPromise<unknown, ConnectionDeleteInput>(notProvided('connectionDelete', 'deleteConnections')),
  },
}).createMachine({
  id: 'connectionDelete',
  context: ({ input }) => ({ request: input, result: null }),
  initial: 'deleting',
  states: {
    deleting: {
      invoke: {
        src: 'deleteConnections',
        input: ({ context }) => context.request,
        onDone: { target: 'done', actions: assign({ result: { ok: true as const } }) },
        onError: { target: 'done', actions: assign({ result: ({ event }) => ({ ok: false as const, error: event.error }) }) },
      },
    },
    done: { type: 'final' },
  },
  output: ({ context }) => context.result!,
});

export type ConnectionDeleteActorRef = ActorRefFrom<typeof connectionDeleteMachine>;
