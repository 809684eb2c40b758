// Deleting one agent (docs/product.md#workspace-states 'Delete Agent', #workspace-screens the editor's delete button):
// count its reference audio, ask naming both, DELETE /agents/{id}. One actor per request (as comlink spawns one machine
// per request), invoked by the workspace for the canvas's context menu and by the editor for its drawer's button; it
// tells its parent the agent is gone ('agent.deleted'), or why not ('banner.show', which the editor shows in its form
// instead).
//   (counting, unless the caller knows the count) → confirming → deleting → deleted | failed;
//   cancel while counting or confirming → cancelled
import {
  assign,
  enqueueActions,
  fromPromise,
  setup,
  type ActorRefFrom,
  type SnapshotFrom,
  type EventObject,
} from 'xstate';
import { agentDeleteMessage } from '../model/agentFailures';
import { notProvided, tellParent, type ParentInput } from './kit/actorKit';
import { bannerError } from '../model/bannerRequest';
import type { AgentDeletedEvent } from '../model/workspaceTypes';

export interface AgentDeletionInput extends ParentInput {
  agentId: string;
  name: string;
  /** Known already (the editor lists the agent's audio): no need to count again. */
  audioCount?: number;
}

export interface AgentDeletionContext extends Omit<AgentDeletionInput, 'audioCount'>, ParentInput {
  /** The agent's audio files; null while counting, or when they could not be counted. */
  audioCount: number | null;
}

export type AgentDeletionEvent = { type: 'agent.delete.confirm' } | { type: 'agent.delete.cancel' };

export const agentDeletionMachine = setup({
  types: {
    context: {} as AgentDeletionContext,
    events: {} as AgentDeletionEvent,
    input: {} as AgentDeletionInput,
  },
  actors: {
    countAgentAudio: fromPromise<number, { agentId: string }>(notProvided('agentDeletion', 'countAgentAudio')),
    deleteAgent: fromPromise<unknown, { agentId: string }>(notProvided('agentDeletion', 'deleteAgent')),
  },
  actions: {
    tellParent: enqueueActions(({ context, enqueue }, params: EventObject) => tellParent(context, enqueue, params)),
  },
  guards: {
    countKnown: ({ context }) => context.audioCount !== null,
  },
}).createMachine({
  id: 'agentDeletion',
  context: ({ input }) => ({
    agentId: input.agentId,
    name: input.name,
    audioCount: input.audioCount ?? null,
    parent: input.parent,
  }),
  initial: 'starting',
  states: {
    starting: { always: [{ guard: 'countKnown', target: 'confirming' }, { target: 'counting' }] },
    // The confirmation names the number of audio files that go with the agent, so count them first.
    counting: {
      invoke: {
        src: 'countAgentAudio',
        input: ({ context }) => ({ agentId: context.agentId }),
        onDone: { target: 'confirming', actions: assign({ audioCount: ({ event }) => event.output }) },
        onError: 'confirming',
      },
      on: { 'agent.delete.cancel': 'cancelled' },
    },
    confirming: {
      on: {
        'agent.delete.confirm': 'deleting',
        'agent.delete.cancel': 'cancelled',
      },
    },
    deleting: {
      invoke: {
        src: 'deleteAgent',
        input: ({ context }) => ({ agentId: context.agentId }),
        onDone: 'deleted',
        onError: {
          target: 'failed',
          actions: { type: 'tellParent', params: ({ event }) => bannerError(agentDeleteMessage(event.error)) },
        },
      },
    },
    deleted: {
      type: 'final',
      entry: {
        type: 'tellParent',
        params: ({ context }) => ({ type: 'agent.deleted', agentId: context.agentId }) satisfies AgentDeletedEvent,
      },
    },
    cancelled: { type: 'final' },
    failed: { type: 'final' },
  },
});

export type AgentDeletionActorRef = ActorRefFrom<typeof agentDeletionMachine>;
export type AgentDeletionSnapshot = SnapshotFrom<typeof agentDeletionMachine>;
