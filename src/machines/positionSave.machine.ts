// Saving where one agent was dropped (docs/product.md#workspace-states 'Node position'): PUT /agents/{id}/position. A
// position off the
// 0..2000 board is first replaced by a random one between 100 and 500 (the injected random source), and the
// parent hears it at once ('position.placed') so the node is drawn there while it is saved. One actor per move,
// invoked by the workspace, which keeps the queue of moves and saves them one at a time. A refused save puts
// why on the banner; a move with no fallback place is simply dropped.
import { assign, enqueueActions, fromPromise, setup, type ActorRefFrom, type EventObject } from 'xstate';
import { isPositionInBounds } from '../shared/canvasPlacement';
import type { PendingMove } from '../model/workspaceReducers';
import { positionSaveMessage } from '../model/agentFailures';
import { notProvided, tellParent, type ParentInput } from './kit/actorKit';
import { bannerError } from '../model/bannerRequest';
import type { PositionPlacedEvent } from '../model/workspaceTypes';

export const positionSaveMachine = setup({
  types: {
    context: {} as { move: PendingMove } & ParentInput,
    input: {} as PendingMove & ParentInput,
  },
  actors: {
    pickFallbackPosition: fromPromise<{ x: number; y: number }>(notProvided('positionSave', 'pickFallbackPosition')),
    savePosition: fromPromise<unknown, PendingMove>(notProvided('positionSave', 'savePosition')),
  },
  guards: {
    isOutOfBounds: ({ context }) => !isPositionInBounds(context.move),
  },
  actions: {
    tellParent: enqueueActions(({ context, enqueue }, params: EventObject) => tellParent(context, enqueue, params)),
  },
}).createMachine({
  id: 'positionSave',
  context: ({ input: { parent, ...move } }) => ({ move, parent }),
  initial: 'checking',
  states: {
    checking: {
      always: [{ guard: 'isOutOfBounds', target: 'placing' }, { target: 'saving' }],
    },
    placing: {
      invoke: {
        src: 'pickFallbackPosition',
        onDone: {
          target: 'saving',
          actions: [
            assign({
              move: ({ context, event }) => ({ agentId: context.move.agentId, x: event.output.x, y: event.output.y }),
            }),
            {
              type: 'tellParent',
              params: ({ context }) => ({ type: 'position.placed', ...context.move }) satisfies PositionPlacedEvent,
            },
          ],
        },
        onError: 'dropped',
      },
    },
    saving: {
      invoke: {
        src: 'savePosition',
        input: ({ context }) => context.move,
        onDone: 'saved',
        onError: {
          target: 'failed',
          actions: { type: 'tellParent', params: ({ event }) => bannerError(positionSaveMessage(event.error)) },
        },
      },
    },
    saved: { type: 'final' },
    failed: { type: 'final' },
    dropped: { type: 'final' },
  },
});

export type PositionSaveActorRef = ActorRefFrom<typeof positionSaveMachine>;
