// Creating one connection from a drag between two nodes (docs/product.md#workspace-states): POST /connections/. One
// actor per request, invoked by the workspace; it tells the workspace the new edge, or puts why it failed on the
// banner.
import { enqueueActions, fromPromise, setup, type ActorRefFrom, type EventObject } from 'xstate';
import type { Edge } from '../schemas/connections';
import { connectionCreateMessage } from '../model/agentFailures';
import { notProvided, tellParent, type ParentInput } from './kit/actorKit';
import { bannerError } from '../model/bannerRequest';
import type { ConnectionCreatedEvent } from '../model/workspaceTypes';

export interface ConnectionCreateInput {
  from: string;
  to: string;
}

export const connectionCreateMachine = setup({
  types: {
    context: {} as ConnectionCreateInput & ParentInput,
    input: {} as ConnectionCreateInput & ParentInput,
  },
  actors: {
    createConnection: fromPromise<Edge, ConnectionCreateInput>(notProvided('connectionCreate', 'createConnection')),
  },
  actions: {
    tellParent: enqueueActions(({ context, enqueue }, params: EventObject) => tellParent(context, enqueue, params)),
  },
}).createMachine({
  id: 'connectionCreate',
  context: ({ input }) => ({ from: input.from, to: input.to, parent: input.parent }),
  initial: 'creating',
  states: {
    creating: {
      invoke: {
        src: 'createConnection',
        input: ({ context }) => ({ from: context.from, to: context.to }),
        onDone: {
          target: 'created',
          actions: {
            type: 'tellParent',
            params: ({ event }) =>
              ({ type: 'connection.created', edge: event.output }) satisfies ConnectionCreatedEvent,
          },
        },
        onError: {
          target: 'failed',
          actions: { type: 'tellParent', params: ({ event }) => bannerError(connectionCreateMessage(event.error)) },
        },
      },
    },
    created: { type: 'final' },
    failed: { type: 'final' },
  },
});

export type ConnectionCreateActorRef = ActorRefFrom<typeof connectionCreateMachine>;
