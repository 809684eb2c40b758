// One export at a time, for a discussion panel or the History viewer: idle → exporting (the provided exporter writes
// the JSON or PDF) → idle. The owner sends the request it built from its feed, or null when there are no messages;
// nothing to export and a failed export are toasts. The owner says which words a failure gets (the hybrid panel's
// spec text differs from the standard one's).
import { assign, enqueueActions, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { notProvided, notifyToasts } from './kit/actorKit';
import { messageOf } from './kit/history';
import type { HybridExportRequest } from '../model/hybridVariant';
import type { StandardExportRequest } from '../model/standardVariant';
import { DISCUSSION_MESSAGES } from '../schemas/messages';

export type DiscussionExportRequest = StandardExportRequest | HybridExportRequest;
export type DiscussionExportEvent = { type: 'export.start'; request: DiscussionExportRequest | null };
export interface DiscussionExportInput {
  /** The toast for a failed export, from the exporter's error message. */
  failureText: (why: string) => string;
}

export const discussionExportMachine = setup({
  types: {
    context: {} as DiscussionExportInput & { request: DiscussionExportRequest | null },
    events: {} as DiscussionExportEvent,
    input: {} as DiscussionExportInput,
    tags: {} as 'exporting',
    children: {} as { file: 'exportFile' },
  },
  actors: {
    exportFile: fromPromise<void, DiscussionExportRequest>(notProvided('discussionExport', 'exportFile')),
  },
  actions: {
    notify: enqueueActions(notifyToasts),
  },
}).createMachine({
  id: 'discussionExport',
  context: ({ input }) => ({ ...input, request: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'export.start': [
          {
            guard: ({ event }) => event.request !== null,
            target: 'exporting',
            actions: assign({ request: ({ event }) => event.request }),
          },
          { actions: { type: 'notify', params: { kind: 'error', text: DISCUSSION_MESSAGES.nothingToExport } } },
        ],
      },
    },
    exporting: {
      tags: 'exporting',
      invoke: {
        src: 'exportFile',
        id: 'file',
        input: ({ context }) => context.request!,
        onDone: 'idle',
        onError: {
          target: 'idle',
          actions: {
            type: 'notify',
            params: ({ context, event }) => ({ kind: 'error', text: context.failureText(messageOf(event.error)) }),
          },
        },
      },
      exit: assign({ request: null }),
    },
  },
});

/** The export child with its exporter: the owner's `.provide` gives each panel the writer of its own format. */
export const withExporter = <R extends DiscussionExportRequest>(write: (request: R) => Promise<void>) =>
  discussionExportMachine.provide({ actors: { exportFile: fromPromise(({ input }) => write(input as R)) } });

export type DiscussionExportSnapshot = SnapshotFrom<typeof discussionExportMachine>;
export type DiscussionExportActorRef = ActorRefFrom<typeof discussionExportMachine>;
