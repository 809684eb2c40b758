// The History chart's vocabulary (the chart itself: history.machine.ts): the loads and the delete it invokes, its
// children (the running-discussion offer, the opened discussion's tabs and exporter), the guards it asks and the
// actions that change the list, the pending delete and the opened discussion. Reading a stored discussion, and
// re-attaching or continuing it, are the pure kit/history.ts; when each runs is the chart's business.
import { assertEvent, assign, enqueueActions, fromPromise, sendTo, setup } from 'xstate';
import { CANVAS } from '../model/address';
import type { HistoryPage, StoredDiscussion } from '../schemas/history';
import { discussionExportMachine } from './discussionExport.machine';
import { discussionTabsMachine } from './discussionTabs.machine';
import { replayMachine } from './replay.machine';
import { runningOfferMachine, type RunningOfferEvent } from './runningOffer.machine';
import { shareDialogMachine } from './shareDialog.machine';
import { notProvided, notifyToasts } from './kit/actorKit';
import { isMissing, reportMissing, reportRoute } from './kit/navigation';
import {
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

export const historySetup = setup({
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
      share: 'share';
      replay: 'replay';
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
    /** The opened discussion's Share dialog, provided with its REST calls. */
    share: shareDialogMachine,
    /** The opened discussion's timeline (History → Replay). */
    replay: replayMachine,
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
    /** An address names the discussion already open: only its replay moves. */
    isOpenAlready: ({ context, event }) => {
      assertEvent(event, 'history.visit');
      return context.opened?.summary.id === event.id;
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
      return {
        openingId: event.id,
        reattachOnOpen: event.reattach === true,
        opened: null,
        openError: null,
        openReplayAt: null,
      };
    }),
    setVisiting: assign(({ event }) => {
      assertEvent(event, 'history.visit');
      return {
        openingId: event.id.slice(0, 200),
        reattachOnOpen: false,
        opened: null,
        openError: null,
        openReplayAt: event.replay ? Math.max(0, event.turn ?? 0) : null,
      };
    }),
    setListFilters: assign(({ event }) => {
      assertEvent(event, 'history.list');
      return { filter: event.q.slice(0, 200), formatFilter: event.format };
    }),
    /** Moves the open discussion's replay to the moment an address names, or closes it. */
    moveReplay: sendTo('replay', ({ event }) => {
      assertEvent(event, 'history.visit');
      return event.replay ? { type: 'replay.open' as const, turn: event.turn ?? 0 } : { type: 'replay.close' as const };
    }),
    // What the navigation actor is told (navigation.machine.ts): the view this chart now shows.
    reportCanvas: enqueueActions(({ system }) => reportRoute(system, CANVAS)),
    reportList: enqueueActions(({ context, system }) =>
      reportRoute(system, { kind: 'history', format: context.formatFilter, q: context.filter.trim() }),
    ),
    /** A discussion opened (not at a moment of its replay: the replay reports that itself). */
    reportOpened: enqueueActions(({ context, system }) => {
      if (context.opened && context.openReplayAt === null)
        reportRoute(system, { kind: 'discussion', id: context.opened.summary.id });
    }),
    reportMissing: enqueueActions(({ system }, params: { error: unknown }) => {
      if (isMissing(params.error)) reportMissing(system);
    }),
    setOpened: assign({
      opened: (_, params: { stored: StoredDiscussion }) => openedFrom(params.stored),
      openingId: null,
    }),
    setOpenError: assign({ openError: (_, params: { error: unknown }) => messageOf(params.error), openingId: null }),
    clearOpened: assign({ opened: null, openingId: null, openError: null, reattachOnOpen: false, openReplayAt: null }),
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
});
