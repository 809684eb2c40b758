// The Models dialog's actions on connections and models, one lifecycle of the Models chart, one request at a time:
// idle | pulling | cancelling | deletingModel | confirmingDelete → deletingConnection | deletingModel.
import { assertEvent, assign, raise } from 'xstate';
import { editableConnection, type PendingDelete } from '../model/modelsForm';
import { modelsSetup } from './models.setup';

export const modelsActionRegion = modelsSetup.createStateConfig({
  initial: 'idle',
  states: {
    idle: {
      on: {
        'models.pull': {
          guard: ({ event }) => event.model.trim() !== '',
          target: 'pulling',
          actions: assign({ actionError: null }),
        },
        'models.pull.cancel': { target: 'cancelling' },
        'models.model.delete': {
          target: 'confirmingDelete',
          actions: assign({
            pendingDelete: ({ event }) => ({
              what: 'model' as const,
              connectionId: event.connectionId,
              model: event.model,
            }),
          }),
        },
        'models.connection.delete': {
          guard: ({ context, event }) => editableConnection(context.connections, event.id) !== undefined,
          target: 'confirmingDelete',
          actions: assign({
            pendingDelete: ({ context, event }) => ({
              what: 'connection' as const,
              id: event.id,
              name: editableConnection(context.connections, event.id)!.name,
            }),
          }),
        },
      },
    },
    pulling: {
      tags: 'startingPull',
      invoke: {
        src: 'startPull',
        input: ({ event }) => {
          assertEvent(event, 'models.pull');
          return { connectionId: event.connectionId, model: event.model.trim() };
        },
        onDone: { target: 'idle', actions: { type: 'keepJob', params: ({ event }) => ({ job: event.output }) } },
        onError: {
          target: 'idle',
          actions: { type: 'setActionError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    cancelling: {
      invoke: {
        src: 'cancelPull',
        input: ({ event }) => {
          assertEvent(event, 'models.pull.cancel');
          return { jobId: event.jobId };
        },
        onDone: 'idle',
        onError: {
          target: 'idle',
          actions: { type: 'setActionError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    confirmingDelete: {
      tags: 'confirmingDelete',
      on: {
        'models.delete.cancel': { target: 'idle', actions: assign({ pendingDelete: null }) },
        'models.delete.confirm': [
          { guard: ({ context }) => context.pendingDelete?.what === 'connection', target: 'deletingConnection' },
          { target: 'deletingModel' },
        ],
      },
    },
    deletingConnection: {
      tags: 'deleting',
      invoke: {
        src: 'deleteConnection',
        input: ({ context }) => ({
          id: (context.pendingDelete as Extract<PendingDelete, { what: 'connection' }>).id,
        }),
        onDone: {
          target: 'idle',
          actions: [
            assign(({ context }) => ({
              pendingDelete: null,
              connections: context.connections.filter((c) => c.id !== (context.pendingDelete as { id?: string }).id),
            })),
            raise({ type: 'models.refresh' }),
          ],
        },
        onError: {
          target: 'idle',
          actions: [
            assign({ pendingDelete: null }),
            { type: 'setActionError', params: ({ event }) => ({ error: event.error }) },
          ],
        },
      },
    },
    deletingModel: {
      tags: 'deleting',
      invoke: {
        src: 'deleteModel',
        input: ({ context }) => {
          const { connectionId, model } = context.pendingDelete as Extract<PendingDelete, { what: 'model' }>;
          return { connectionId, model };
        },
        onDone: { target: 'idle', actions: [assign({ pendingDelete: null }), raise({ type: 'models.refresh' })] },
        onError: {
          target: 'idle',
          actions: [
            assign({ pendingDelete: null }),
            { type: 'setActionError', params: ({ event }) => ({ error: event.error }) },
          ],
        },
      },
    },
  },
});
