// The public page of a share link (/s/{token}), shown without an account:
//   loading (GET /shares/{token}/discussion) → open: the stored discussion read-only, with the same tabs and export
//   children as History's viewer | invalid: an unknown, revoked or expired link (a 404) | failed: anything else
//   (Retry loads again).
// The discussion is replayed through the panels' parse path and feed model exactly as History opens one
// (kit/history.ts openedFrom), from the public shape (model/sharedDiscussion.ts).
import { assertEvent, assign, fromPromise, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { selectCounts } from '../model/feedSelectors';
import { storedFromShared } from '../model/sharedDiscussion';
import type { ExportFormat } from '../model/standardVariant';
import type { SharedDiscussion } from '../schemas/shares';
import { DISCUSSION_MESSAGES } from '../schemas/messages';
import { discussionExportMachine } from './discussionExport.machine';
import { discussionTabsMachine } from './discussionTabs.machine';
import { replayMachine } from './replay.machine';
import { notProvided } from './kit/actorKit';
import { messageOf, openedFrom, type HistoryTab, type OpenedDiscussion } from './kit/history';

export interface SharedPageContext {
  token: string;
  /** The moment the link's #t= named: the replay opens there. */
  turn: number | null;
  opened: OpenedDiscussion | null;
  expiresAt: string | null;
  error: string | null;
}

export type SharedPageEvent =
  | { type: 'shared.retry' }
  | { type: 'shared.tab.select'; tab: HistoryTab }
  | { type: 'shared.export'; format: ExportFormat };

/** An answer's HTTP status, when the error carries one (services/http.ts HttpError). */
const statusOf = (error: unknown) =>
  typeof error === 'object' && error !== null && 'status' in error ? (error as { status: unknown }).status : null;

export const sharedPageMachine = setup({
  types: {
    context: {} as SharedPageContext,
    events: {} as SharedPageEvent,
    input: {} as { token: string; turn?: number | null },
    children: {} as { loader: 'loadShared'; tabs: 'tabs'; exporter: 'exportDiscussion'; replay: 'replay' },
  },
  actors: {
    /** GET /shares/{token}/discussion (no account). */
    loadShared: fromPromise<SharedDiscussion, { token: string }>(notProvided('sharedPage', 'loadShared')),
    tabs: discussionTabsMachine,
    /** The timeline (it names no discussion of the reader's, so it reports nothing to an address bar). */
    replay: replayMachine,
    /** The standard panel's exporter (JSON or PDF), provided with its writer (`withExporter`). */
    exportDiscussion: discussionExportMachine,
  },
  guards: {
    isInvalidLink: (_, params: { error: unknown }) => statusOf(params.error) === 404,
  },
}).createMachine({
  id: 'sharedPage',
  initial: 'loading',
  context: ({ input }) => ({
    token: input.token,
    turn: input.turn ?? null,
    opened: null,
    expiresAt: null,
    error: null,
  }),
  states: {
    loading: {
      invoke: {
        src: 'loadShared',
        id: 'loader',
        input: ({ context }) => ({ token: context.token }),
        onDone: {
          target: 'open',
          actions: assign(({ event }) => ({
            opened: openedFrom(storedFromShared(event.output)),
            expiresAt: event.output.expires_at,
            error: null,
          })),
        },
        onError: [
          { guard: { type: 'isInvalidLink', params: ({ event }) => ({ error: event.error }) }, target: 'invalid' },
          { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        ],
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
            turn: context.turn ?? 0,
            open: context.turn !== null,
          }),
        },
        { src: 'exportDiscussion', id: 'exporter', input: { failureText: DISCUSSION_MESSAGES.exportFailed } },
      ],
      on: {
        'shared.tab.select': { actions: sendTo('tabs', ({ event }) => ({ type: 'tab.select', tab: event.tab })) },
        'shared.export': {
          actions: sendTo('exporter', ({ context, event }) => {
            assertEvent(event, 'shared.export');
            const o = context.opened;
            return {
              type: 'export.start',
              request:
                o && selectCounts(o.feed).messages > 0
                  ? { format: event.format, feed: o.feed, run: o.run, participants: o.summary.participants }
                  : null,
            };
          }),
        },
      },
    },
    invalid: {},
    failed: { on: { 'shared.retry': 'loading' } },
  },
});

export type SharedPageActorRef = ActorRefFrom<typeof sharedPageMachine>;
export type SharedPageSnapshot = SnapshotFrom<typeof sharedPageMachine>;

export const selectSharedState = (s: SharedPageSnapshot) =>
  s.matches('open') ? 'open' : s.matches('invalid') ? 'invalid' : s.matches('failed') ? 'failed' : 'loading';
