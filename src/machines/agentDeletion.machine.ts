// Deleting one agent from the canvas (part 1 §4 'Delete Agent'): count its reference audio, ask naming both,
// DELETE /agents/{id}. One actor per request, invoked by the workspace (as comlink spawns one machine per
// request); it tells the workspace the agent is gone ('agent.deleted'), or puts why not on the banner.
//   counting → confirming → deleting → deleted | failed; cancel while counting or confirming → cancelled
import { assign, enqueueActions, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { agentDeleteMessage } from '../model/agentFailures';
import { notProvided, tellParent } from '../model/actorKit';
import { bannerError } from '../model/bannerRequest';
import type { AgentDeletedEvent } from '../model/workspaceTypes';

export interface AgentDeletionInput {
  agentId: string;
  name: string;
}

export interface AgentDeletionContext extends AgentDeletionInput {
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
    tellParent: enqueueActions(tellParent),
  },
}).createMachine({
  id: 'agentDeletion',
  context: ({ input }) => ({ agentId: input.agentId, name: input.name, audioCount: null }),
  initial: 'counting',
  states: {
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
        onError: { target: 'failed', actions: { type: 'tellParent', params: ({ event }) => bannerError(agentDeleteMessage(event.error)) } },
      },
    },
    deleted: {
      type: 'final',
      entry: { type: 'tellParent', params: ({ context }) => ({ type: 'agent.deleted', agentId: context.agentId }) satisfies AgentDeletedEvent },
    },
    cancelled: { type: 'final' },
    failed: { type: 'final' },
  },
});

export type AgentDeletionActorRef = ActorRefFrom<typeof agentDeletionMachine>;
export type AgentDeletionSnapshot = SnapshotFrom<typeof agentDeletionMachine>;
