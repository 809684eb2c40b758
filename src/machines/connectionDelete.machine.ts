// Deleting the connections the user removed on the canvas (docs/product.md#workspace-states): DELETE /connections/{id}
// for each. One actor per request, invoked by the workspace (which drew them gone already); either way the workspace
// reloads its connections, so a refused delete puts the edges back, and says why on the banner.
import { enqueueActions, fromPromise, setup, type ActorRefFrom, type EventObject } from 'xstate';
import { connectionDeleteMessage } from '../model/agentFailures';
import { notProvided, tellParent, type ParentInput } from './kit/actorKit';
import { bannerError } from '../model/bannerRequest';

export interface ConnectionDeleteInput {
  connectionIds: string[];
}

export const connectionDeleteMachine = setup({
  types: {
    context: {} as ConnectionDeleteInput & ParentInput,
    input: {} as ConnectionDeleteInput & ParentInput,
  },
  actors: {
    deleteConnections: fromPromise<unknown, ConnectionDeleteInput>(
      notProvided('connectionDelete', 'deleteConnections'),
    ),
  },
  actions: {
    tellParent: enqueueActions(({ context, enqueue }, params: EventObject) => tellParent(context, enqueue, params)),
  },
}).createMachine({
  id: 'connectionDelete',
  context: ({ input }) => input,
  initial: 'deleting',
  states: {
    deleting: {
      invoke: {
        src: 'deleteConnections',
        input: ({ context }) => ({ connectionIds: context.connectionIds }),
        onDone: 'deleted',
        onError: {
          target: 'failed',
          actions: { type: 'tellParent', params: ({ event }) => bannerError(connectionDeleteMessage(event.error)) },
        },
      },
    },
    deleted: { type: 'final', entry: { type: 'tellParent', params: { type: 'connections.reload' } } },
    failed: { type: 'final', entry: { type: 'tellParent', params: { type: 'connections.reload' } } },
  },
});

export type ConnectionDeleteActorRef = ActorRefFrom<typeof connectionDeleteMachine>;
