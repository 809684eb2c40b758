// Past discussions: the History dialog both panels open. Parallel regions:
//   dialog   — hidden ⇄ shown (each panel's History button; showing it loads the list again)
//   list     — idle → loading → loaded | failed; refresh loads again (GET /discussion/history/page, newest first,
//              a page at a time); loaded → loadingMore → loaded appends the next page (the list's infinite scroll);
//              a filter by topic waits FILTER_DEBOUNCE_MS after the last keystroke (filtering), then loads again
//   deletion — idle → confirming (which one) → deleting (DELETE /discussion/{id}) → idle; a refusal (409 while it
//              runs) is shown, not thrown
//   viewer   — closed → opening (GET /discussion/{id}, replayed through the panels' parse path and feed model)
//              → open (read-only, with its own tabs, export and Share dialog children) | failed
// A running standard discussion can be re-attached: the standard panel gets `panel.resume` with the same
// session id (the server replays what was missed) and the dialog closes.
// The offer of a discussion still running at start is a child (runningOffer.machine.ts).
// Addresses: each view this chart moves to is reported to the navigation actor (the canvas when hidden, the list
// with its filters, an opened discussion; the replay, its child, reports its moments), and the navigation actor
// drives it back with `history.list` and `history.visit` (Back, Forward, an address at start).
import { assign, enqueueActions, raise, sendTo, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { selectCounts } from '../model/feedSelectors';
import { DISCUSSION_MESSAGES } from '../schemas/messages';
import { FILTER_DEBOUNCE_MS, openedFrom } from './kit/history';
import { historySetup } from './history.setup';

export { FILTER_DEBOUNCE_MS, HISTORY_TABS, isReattachable, openedFrom } from './kit/history';
export type { HistoryContext, HistoryEvent, HistoryPageRequest, HistoryTab, OpenedDiscussion } from './kit/history';

export const historyMachine = historySetup.createMachine({
  id: 'history',
  type: 'parallel',
  invoke: { src: 'offer', id: 'offer' },
  on: {
    'history.error.dismiss': { actions: assign({ deleteError: null }) },
    'history.offer.accept': { actions: 'forwardToOffer' },
    'history.offer.dismiss': { actions: 'forwardToOffer' },
    'history.list': {
      actions: ['setListFilters', raise({ type: 'history.close' }), raise({ type: 'history.show' })],
    },
  },
  context: {
    items: [],
    nextCursor: null,
    filter: '',
    formatFilter: '',
    listError: null,
    moreError: null,
    pendingDelete: null,
    deleteError: null,
    openingId: null,
    reattachOnOpen: false,
    opened: null,
    openError: null,
    openReplayAt: null,
  },
  states: {
    dialog: {
      initial: 'hidden',
      states: {
        hidden: { on: { 'history.show': { target: 'shown', actions: 'reportList' }, 'history.visit': 'shown' } },
        shown: { on: { 'history.hide': { target: 'hidden', actions: 'reportCanvas' } } },
      },
    },
    list: {
      initial: 'idle',
      on: {
        'history.show': '.loading',
        'history.refresh': '.loading',
        'history.filter': { target: '.filtering', actions: 'setFilter' },
        'history.format.filter': { target: '.loading', actions: ['setFormatFilter', 'reportList'] },
      },
      states: {
        // Opened by an address, History has its list behind the discussion (← All discussions).
        idle: { on: { 'history.visit': 'loading' } },
        filtering: {
          tags: 'listLoading',
          after: { [FILTER_DEBOUNCE_MS]: { target: 'loading', actions: 'reportList' } },
        },
        loading: {
          tags: 'listLoading',
          invoke: {
            src: 'loadHistory',
            id: 'listLoader',
            input: ({ context }) => ({ cursor: null, q: context.filter.trim(), format: context.formatFilter }),
            onDone: {
              target: 'loaded',
              actions: { type: 'setItems', params: ({ event }) => ({ page: event.output }) },
            },
            onError: {
              target: 'failed',
              actions: { type: 'setListError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        loaded: { on: { 'history.more': { guard: 'hasMore', target: 'loadingMore' } } },
        loadingMore: {
          tags: 'listLoadingMore',
          invoke: {
            src: 'loadHistory',
            id: 'listLoader',
            input: ({ context }) => ({
              cursor: context.nextCursor,
              q: context.filter.trim(),
              format: context.formatFilter,
            }),
            onDone: {
              target: 'loaded',
              actions: { type: 'appendItems', params: ({ event }) => ({ page: event.output }) },
            },
            onError: {
              target: 'loaded',
              actions: { type: 'setMoreError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        failed: {},
      },
    },
    deletion: {
      initial: 'idle',
      states: {
        idle: { on: { 'history.delete.request': { guard: 'isKnown', target: 'confirming', actions: 'askDelete' } } },
        confirming: {
          on: {
            'history.delete.confirm': 'deleting',
            'history.delete.cancel': { target: 'idle', actions: 'forgetDelete' },
            'history.hide': { target: 'idle', actions: 'forgetDelete' },
          },
        },
        deleting: {
          tags: 'deleting',
          invoke: {
            src: 'deleteDiscussion',
            id: 'deleter',
            input: ({ context }) => ({ id: context.pendingDelete!.id }),
            onDone: { target: 'idle', actions: 'removeDeleted' },
            onError: {
              target: 'idle',
              actions: { type: 'setDeleteError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
    viewer: {
      initial: 'closed',
      on: {
        'history.open': { guard: 'isKnown', target: '.opening', actions: 'setOpening' },
        'history.close': { target: '.closed', actions: ['clearOpened', 'reportList'] },
        'history.visit': [
          { guard: 'isOpenAlready', actions: 'moveReplay' },
          { target: '.opening', actions: 'setVisiting' },
        ],
        'history.hide': { target: '.closed', actions: 'clearOpened' },
      },
      states: {
        closed: {},
        opening: {
          tags: 'opening',
          invoke: {
            src: 'loadDiscussion',
            id: 'loader',
            input: ({ context }) => ({ id: context.openingId! }),
            onDone: [
              {
                guard: { type: 'isReattachRequested', params: ({ event }) => ({ stored: event.output }) },
                target: 'closed',
                actions: [
                  { type: 'reattach', params: ({ event }) => ({ opened: openedFrom(event.output) }) },
                  sendTo('offer', { type: 'history.offer.withdraw' }),
                  'clearOpened',
                  enqueueActions(({ enqueue }) => enqueue.raise({ type: 'history.hide' })),
                ],
              },
              // Not re-attachable after all (it ended meanwhile): shown read-only instead.
              {
                target: 'open',
                actions: [{ type: 'setOpened', params: ({ event }) => ({ stored: event.output }) }, 'reportOpened'],
              },
            ],
            onError: {
              target: 'failed',
              actions: [
                { type: 'setOpenError', params: ({ event }) => ({ error: event.error }) },
                // An id this user has no discussion for: when an address named it, the navigation actor says so.
                { type: 'reportMissing', params: ({ event }) => ({ error: event.error }) },
              ],
            },
          },
        },
        open: {
          invoke: [
            { src: 'tabs', id: 'tabs' },
            {
              src: 'replay',
              id: 'replay',
              input: ({ context }) => ({
                turns: Math.max(0, (context.opened?.moments.length ?? 1) - 1),
                turn: context.openReplayAt ?? 0,
                discussionId: context.opened?.summary.id ?? null,
                open: context.openReplayAt !== null,
              }),
            },
            { src: 'exportDiscussion', id: 'exporter', input: { failureText: DISCUSSION_MESSAGES.exportFailed } },
            { src: 'share', id: 'share', input: ({ context }) => ({ discussionId: context.opened?.summary.id ?? '' }) },
          ],
          on: {
            'history.tab.select': { actions: sendTo('tabs', ({ event }) => ({ type: 'tab.select', tab: event.tab })) },
            'history.export': {
              actions: sendTo('exporter', ({ context, event }) => ({
                type: 'export.start',
                request:
                  context.opened && selectCounts(context.opened.feed).messages > 0
                    ? {
                        format: event.format,
                        feed: context.opened.feed,
                        run: context.opened.run,
                        participants: context.opened.summary.participants,
                      }
                    : null,
              })),
            },
            'history.continue': {
              guard: 'isContinuable',
              target: 'closed',
              actions: [
                'continueFrom',
                'clearOpened',
                enqueueActions(({ enqueue }) => enqueue.raise({ type: 'history.hide' })),
              ],
            },
            'history.reattach': {
              guard: 'canReattach',
              target: 'closed',
              actions: [
                { type: 'reattach', params: ({ context }) => ({ opened: context.opened }) },
                sendTo('offer', { type: 'history.offer.withdraw' }),
                'clearOpened',
                enqueueActions(({ enqueue }) => enqueue.raise({ type: 'history.hide' })),
              ],
            },
          },
        },
        failed: {},
      },
    },
  },
});

export type HistoryActorRef = ActorRefFrom<typeof historyMachine>;
export type HistorySnapshot = SnapshotFrom<typeof historyMachine>;

declare module './kit/systemRegistry' {
  interface SystemActors {
    history: ActorRefFrom<typeof historyMachine>;
  }
}
