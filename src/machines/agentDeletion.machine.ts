// Deleting one agent from the canvas (part 1 §4 'Delete Agent'): count its reference audio, ask naming both,
// DELETE /agents/{id}. One actor per request, invoked by the workspace (as comlink spawns one machine per
// request); it ends with what happened, and the workspace applies that to what the canvas draws.
//   counting → confirming → deleting → deleted | failed; cancel while counting or confirming → cancelled
import { assign, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { notProvided } from '../model/actorKit';

export interface AgentDeletionInput {
  agentId: string;
  name: string;
}

export interface AgentDeletionContext extends AgentDeletionInput {
  /** The agent's audio files; null while counting, or when they could not be counted. */
  audioCount: number | null;
  outcome: 'deleted' | 'cancelled' | 'failed' | null;
  /** Why the delete failed (read by agentFailures.agentDeleteMessage). */
  error: unknown;
}

export type AgentDeletionEvent = { type: 'agent.delete.confirm' } | { type: 'agent.delete.cancel' };

/** What the workspace hears when the deletion is over. */
export type AgentDeletionOutput = Pick<AgentDeletionContext, 'agentId' | 'error'> & { outcome: 'deleted' | 'cancelled' | 'failed' };

export const agentDeletionMachine = setup({
  types: {
    context: {} as AgentDeletionContext,
    events: {} as AgentDeletionEvent,
    input: {} as AgentDeletionInput,
    output: {} as AgentDeletionOutput,
  },
  actors: {
    countAgentAudio: fromPromise<number, { agentId: string }>(notProvided('agentDeletion', 'countAgentAudio')),
    deleteAgent: fromPromise<unknown, { agentId: string }>(notProvided('agentDeletion', 'deleteAgent')),
  },
}).createMachine({
  id: 'agentDeletion',
  context: ({ input }) => ({ agentId: input.agentId, name: input.name, audioCount: null, outcome: null, error: null }),
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
        onError: { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    deleted: { type: 'final', entry: assign({ outcome: 'deleted' as const }) },
    cancelled: { type: 'final', entry: assign({ outcome: 'cancelled' as const }) },
    failed: { type: 'final', entry: assign({ outcome: 'failed' as const }) },
  },
  output: ({ context }) => ({ agentId: context.agentId, outcome: context.outcome!, error: context.error }),
});

export type AgentDeletionActorRef = ActorRefFrom<typeof agentDeletionMachine>;
export type AgentDeletionSnapshot = SnapshotFrom<typeof agentDeletionMachine>;
