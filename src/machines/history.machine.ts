// Past discussions: the History dialog both panels open. Parallel regions:
//   dialog   — hidden ⇄ shown (each panel's History button; showing it loads the list again)
//   list     — idle → loading → loaded | failed; refresh loads again (GET /discussion/history/page, newest first,
//              a page at a time); loaded → loadingMore → loaded appends the next page (the list's infinite scroll);
//              a filter by topic waits FILTER_DEBOUNCE_MS after the last keystroke (filtering), then loads again
//   deletion — idle → confirming (which one) → deleting (DELETE /discussion/{id}) → idle; a refusal (409 while it
//              runs) is shown, not thrown
//   viewer   — closed → opening (GET /discussion/{id}, replayed through the panels' parse path and feed model)
//              → open (read-only, with its own tabs and export children) | failed
// A running standard discussion can be re-attached: the standard panel gets `panel.resume` with the same
// session id (the server replays what was missed) and the dialog closes.
// The offer of a discussion still running at start is a child (runningOffer.machine.ts).
import {
  assertEvent,
  assign,
  enqueueActions,
  fromPromise,
  sendTo,
  setup,
  type ActorRefFrom,
  type SnapshotFrom,
} from 'xstate';
import { selectCounts } from '../model/feedSelectors';
import type { HistoryPage, StoredDiscussion } from '../schemas/history';
import { DISCUSSION_MESSAGES } from '../schemas/messages';
import { discussionExportMachine } from './discussionExport.machine';
import { discussionTabsMachine } from './discussionTabs.machine';
import { runningOfferMachine, type RunningOfferEvent } from './runningOffer.machine';
import { notProvided, notifyToasts } from './kit/actorKit';
import {
  FILTER_DEBOUNCE_MS,
  isReattachable,
  messageOf,
  openedFrom,
  sendContinue,
  sendResume,
  type HistoryContext,
  type HistoryEvent,
  type HistoryPageRequest,
  type OpenedDiscussion,
} from './kit/history';

export { FILTER_DEBOUNCE_MS, HISTORY_TABS, isReattachable, openedFrom } from './kit/history';
export type { HistoryContext, HistoryEvent, HistoryPageRequest, HistoryTab, OpenedDiscussion } from './kit/history';

export const historyMachine = setup({
  types: {
    context: {} as HistoryContext,
    events: {} as HistoryEvent,
    tags: {} as 'listLoading' | 'listLoadingMore' | 'opening' | 'deleting',
    children: {} as {
      listLoader: 'loadHistory';
      deleter: 'deleteDiscussion';
      loader: 'loadDiscussion';
      tabs: 'tabs';
      exporter: 'exportDiscussion';
      offer: 'offer';
    },
  },
  actors: {
    /** GET /discussion/history/page. */
    loadHistory: fromPromise<HistoryPage, HistoryPageRequest>(notProvided('history', 'loadHistory')),
    /** DELETE /discussion/{id}. */
    deleteDiscussion: fromPromise<void, { id: string }>(notProvided('history', 'deleteDiscussion')),
    /** GET /discussion/{id}. */
    loadDiscussion: fromPromise<StoredDiscussion, { id: string }>(notProvided('history', 'loadDiscussion')),
    /** Provided with its own findRunning and loadDiscussion. */
    offer: runningOfferMachine,
    tabs: discussionTabsMachine,
    /** The standard panel's exporter (JSON or PDF), provided with its writer (`withExporter`). */
    exportDiscussion: discussionExportMachine,
  },
  guards: {
    isKnown: ({ context, event }) => {
      assertEvent(event, ['history.delete.request', 'history.open']);
      // A continuation link may name a discussion not (yet) on a loaded page.
      const linked = (d: HistoryContext['items'][number] | undefined) =>
        d?.continued_from?.discussion_id === event.id ||
        (d?.continued_in ?? []).some((c) => c.discussion_id === event.id);
      if (context.items.some((d) => d.id === event.id)) return true;
      return event.type === 'history.open' && [...context.items, context.opened?.summary].some(linked);
    },
    hasMore: ({ context }) => context.nextCursor !== null,
    canReattach: ({ context }) => context.opened !== null && isReattachable(context.opened),
    /** A turn the opened discussion has (its replay's moments 1 … turns). */
    isContinuable: ({ context, event }) => {
      assertEvent(event, 'history.continue');
      const turns = (context.opened?.moments.length ?? 0) - 1;
      return Number.isInteger(event.turn) && event.turn >= 1 && event.turn <= turns;
    },
    isReattachRequested: ({ context }, params: { stored: StoredDiscussion }) =>
      context.reattachOnOpen && isReattachable(openedFrom(params.stored)),
  },
  actions: {
    setItems: assign((_, params: { page: HistoryPage }) => ({
      items: params.page.items,
      nextCursor: params.page.next_cursor,
      listError: null,
      moreError: null,
    })),
    appendItems: assign(({ context }, params: { page: HistoryPage }) => {
      // A row deleted and re-listed between two pages would show twice: keep the first.
      const known = new Set(context.items.map((d) => d.id));
      return {
        items: [...context.items, ...params.page.items.filter((d) => !known.has(d.id))],
        nextCursor: params.page.next_cursor,
        moreError: null,
      };
    }),
    setListError: assign({ listError: (_, params: { error: unknown }) => messageOf(params.error) }),
    setMoreError: assign({ moreError: (_, params: { error: unknown }) => messageOf(params.error) }),
    setFilter: assign({
      filter: ({ event }) => {
        assertEvent(event, 'history.filter');
        return event.text.slice(0, 200);
      },
    }),
    setFormatFilter: assign({
      formatFilter: ({ event }) => {
        assertEvent(event, 'history.format.filter');
        return event.kind;
      },
    }),
    askDelete: assign(({ context, event }) => {
      assertEvent(event, 'history.delete.request');
      return { pendingDelete: context.items.find((d) => d.id === event.id) ?? null, deleteError: null };
    }),
    forgetDelete: assign({ pendingDelete: null }),
    removeDeleted: assign(({ context }) => {
      const gone = context.pendingDelete?.id;
      return { items: context.items.filter((d) => d.id !== gone), pendingDelete: null, deleteError: null };
    }),
    setDeleteError: assign({
      deleteError: (_, params: { error: unknown }) => messageOf(params.error),
      pendingDelete: null,
    }),
    setOpening: assign(({ event }) => {
      assertEvent(event, 'history.open');
      return { openingId: event.id, reattachOnOpen: event.reattach === true, opened: null, openError: null };
    }),
    setOpened: assign({
      opened: (_, params: { stored: StoredDiscussion }) => openedFrom(params.stored),
      openingId: null,
    }),
    setOpenError: assign({ openError: (_, params: { error: unknown }) => messageOf(params.error), openingId: null }),
    clearOpened: assign({ opened: null, openingId: null, openError: null, reattachOnOpen: false }),
    reattach: enqueueActions(({ system, enqueue }, params: { opened: OpenedDiscussion | null }) => {
      if (params.opened) sendResume({ system, enqueue }, params.opened);
    }),
    continueFrom: enqueueActions(({ context, event, system, enqueue }) => {
      assertEvent(event, 'history.continue');
      if (context.opened) sendContinue({ system, enqueue }, context.opened, event.turn);
    }),
    forwardToOffer: sendTo('offer', ({ event }): RunningOfferEvent => {
      assertEvent(event, ['history.offer.accept', 'history.offer.dismiss']);
      return event;
    }),
    notify: enqueueActions(notifyToasts),
  },
}).createMachine({
  id: 'history',
  type: 'parallel',
  invoke: { src: 'offer', id: 'offer' },
  on: {
    'history.error.dismiss': { actions: assign({ deleteError: null }) },
    'history.offer.accept': { actions: 'forwardToOffer' },
    'history.offer.dismiss': { actions: 'forwardToOffer' },
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
  },
  states: {
    dialog: {
      initial: 'hidden',
      states: {
        hidden: { on: { 'history.show': 'shown' } },
        shown: { on: { 'history.hide': 'hidden' } },
      },
    },
    list: {
      initial: 'idle',
      on: {
        'history.show': '.loading',
        'history.refresh': '.loading',
        'history.filter': { target: '.filtering', actions: 'setFilter' },
        'history.format.filter': { target: '.loading', actions: 'setFormatFilter' },
      },
      states: {
        idle: {},
        filtering: {
          tags: 'listLoading',
          after: { [FILTER_DEBOUNCE_MS]: 'loading' },
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
        'history.close': { target: '.closed', actions: 'clearOpened' },
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
              { target: 'open', actions: { type: 'setOpened', params: ({ event }) => ({ stored: event.output }) } },
            ],
            onError: {
              target: 'failed',
              actions: { type: 'setOpenError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        open: {
          invoke: [
            { src: 'tabs', id: 'tabs' },
            { src: 'exportDiscussion', id: 'exporter', input: { failureText: DISCUSSION_MESSAGES.exportFailed } },
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
