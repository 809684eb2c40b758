// The canvas's 'Auto-connect' action (docs/product.md#workspace-states): POST /connections/auto-connect. One actor per
// request, invoked by the workspace; it puts how many connections were created (and has the workspace reload them), or
// why it failed, on the banner.
import { enqueueActions, fromPromise, setup, type ActorRefFrom, type EventObject } from 'xstate';
import { CANVAS_MESSAGES } from '../schemas/messages';
import { autoConnectMessage } from '../model/agentFailures';
import { notProvided, tellParent, type ParentInput } from './kit/actorKit';
import { bannerError, bannerSuccess } from '../model/bannerRequest';

export const autoConnectMachine = setup({
  types: {
    context: {} as ParentInput,
    input: {} as ParentInput | undefined,
  },
  actors: {
    postAutoConnect: fromPromise<{ connections_created: number }>(notProvided('autoConnect', 'postAutoConnect')),
  },
  actions: {
    tellParent: enqueueActions(({ context, enqueue }, params: EventObject) => tellParent(context, enqueue, params)),
  },
}).createMachine({
  id: 'autoConnect',
  context: ({ input }) => ({ parent: input?.parent }),
  initial: 'running',
  states: {
    running: {
      invoke: {
        src: 'postAutoConnect',
        onDone: {
          target: 'connected',
          actions: [
            {
              type: 'tellParent',
              params: ({ event }) => bannerSuccess(CANVAS_MESSAGES.autoConnected(event.output.connections_created)),
            },
            { type: 'tellParent', params: { type: 'connections.reload' } },
          ],
        },
        onError: {
          target: 'failed',
          actions: { type: 'tellParent', params: ({ event }) => bannerError(autoConnectMessage(event.error)) },
        },
      },
    },
    connected: { type: 'final' },
    failed: { type: 'final' },
  },
});

export type AutoConnectActorRef = ActorRefFrom<typeof autoConnectMachine>;
