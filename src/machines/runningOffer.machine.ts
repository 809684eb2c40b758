// The offer of a discussion still running (History's child): at start (after sign-in or a reload) it asks whether
// one of the user's discussions still runs; if so the panel offers it at once ('A discussion is still running —
// Re-attach'), without opening History.
//   checking → offered → attaching (GET /discussion/{id}; the panel that ran it continues it) → none
//   | none (nothing runs, the check failed, Dismiss, or History re-attached it instead)
// A discussion that ended meanwhile is a notice (History keeps it); a failed load offers it again.
import { assign, enqueueActions, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { notProvided, notifyToasts } from './kit/actorKit';
import { isReattachable, messageOf, openedFrom, sendResume } from './kit/history';
import type { DiscussionSummary, StoredDiscussion } from '../schemas/history';
import { HISTORY_MESSAGES } from '../schemas/messages';

export type RunningOfferEvent =
  | { type: 'history.offer.accept' }
  | { type: 'history.offer.dismiss' }
  /** Re-attached from the History dialog instead. */
  | { type: 'history.offer.withdraw' };

interface RunningOfferContext {
  offer: DiscussionSummary | null;
}

export const runningOfferMachine = setup({
  types: {
    context: {} as RunningOfferContext,
    events: {} as RunningOfferEvent,
    tags: {} as 'offered' | 'attaching',
    children: {} as { runningFinder: 'findRunning'; offerLoader: 'loadDiscussion' },
  },
  actors: {
    /** The newest of the user's discussions still running, or null. */
    findRunning: fromPromise<DiscussionSummary | null>(notProvided('runningOffer', 'findRunning')),
    /** GET /discussion/{id}. */
    loadDiscussion: fromPromise<StoredDiscussion, { id: string }>(notProvided('runningOffer', 'loadDiscussion')),
  },
  actions: {
    reattach: enqueueActions(({ system, enqueue }, params: { stored: StoredDiscussion }) =>
      sendResume({ system, enqueue }, openedFrom(params.stored)),
    ),
    forget: assign({ offer: null }),
    notify: enqueueActions(notifyToasts),
  },
}).createMachine({
  id: 'runningOffer',
  context: { offer: null },
  initial: 'checking',
  states: {
    checking: {
      invoke: {
        src: 'findRunning',
        id: 'runningFinder',
        onDone: [
          {
            guard: ({ event }) => event.output !== null,
            target: 'offered',
            actions: assign({ offer: ({ event }) => event.output }),
          },
          { target: 'none' },
        ],
        // Nothing to offer is the quiet outcome: History still lists it.
        onError: 'none',
      },
    },
    offered: {
      tags: 'offered',
      on: {
        'history.offer.accept': 'attaching',
        'history.offer.dismiss': { target: 'none', actions: 'forget' },
        'history.offer.withdraw': { target: 'none', actions: 'forget' },
      },
    },
    attaching: {
      tags: ['offered', 'attaching'],
      invoke: {
        src: 'loadDiscussion',
        id: 'offerLoader',
        input: ({ context }) => ({ id: context.offer!.id }),
        onDone: [
          {
            guard: ({ event }) => isReattachable(openedFrom(event.output)),
            target: 'none',
            actions: [{ type: 'reattach', params: ({ event }) => ({ stored: event.output }) }, 'forget'],
          },
          // It ended meanwhile: nothing left to re-attach to.
          {
            target: 'none',
            actions: ['forget', { type: 'notify', params: { kind: 'info', text: HISTORY_MESSAGES.offerEnded } }],
          },
        ],
        onError: {
          target: 'offered',
          actions: {
            type: 'notify',
            params: ({ event }) => ({ kind: 'error', text: HISTORY_MESSAGES.offerFailed(messageOf(event.error)) }),
          },
        },
      },
    },
    none: {},
  },
});

export type RunningOfferActorRef = ActorRefFrom<typeof runningOfferMachine>;
export type RunningOfferSnapshot = SnapshotFrom<typeof runningOfferMachine>;
