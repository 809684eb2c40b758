// The Share dialog of one discussion (History's viewer, a finished panel): read-only links to it.
//   hidden → shown: loading (GET /discussions/{id}/shares) → ready | failed (Retry loads again)
//   ready → creating (POST …/shares: the new link is shown, with its address, until the dialog closes)
//         → revoking (DELETE /shares/{id}) → copying (the address to the clipboard: 'Copied')
// A failed create, revoke or copy comes back to ready with its words; the list stays.
import { assertEvent, assign, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { ShareCreated, ShareRow } from '../schemas/rooms';
import { notProvided } from './kit/actorKit';
import { messageOf } from './kit/history';

export interface ShareDialogContext {
  discussionId: string;
  shares: ShareRow[];
  /** The link made in this showing of the dialog (its address is not listed again later). */
  created: ShareCreated | null;
  /** The link being revoked. */
  revokingId: string | null;
  copied: boolean;
  error: string | null;
}

export type ShareDialogEvent =
  | { type: 'share.show' }
  | { type: 'share.hide' }
  | { type: 'share.retry' }
  | { type: 'share.create' }
  | { type: 'share.revoke'; id: string }
  /** The whole address (origin and /s/{token}): the view knows the origin. */
  | { type: 'share.copy'; text: string }
  | { type: 'share.error.dismiss' };

export const shareDialogMachine = setup({
  types: {
    context: {} as ShareDialogContext,
    events: {} as ShareDialogEvent,
    input: {} as { discussionId: string },
    tags: {} as 'busy',
  },
  actors: {
    /** GET /discussions/{id}/shares. */
    listShares: fromPromiseNotProvided<ShareRow[], { discussionId: string }>('listShares'),
    /** POST /discussions/{id}/shares. */
    createShare: fromPromiseNotProvided<ShareCreated, { discussionId: string }>('createShare'),
    /** DELETE /shares/{id}. */
    revokeShare: fromPromiseNotProvided<void, { id: string }>('revokeShare'),
    /** Puts text on the clipboard. */
    copyText: fromPromiseNotProvided<void, { text: string }>('copyText'),
  },
  guards: {
    isListed: ({ context, event }) => {
      assertEvent(event, 'share.revoke');
      return context.shares.some((s) => s.id === event.id);
    },
  },
  actions: {
    setError: assign({ error: (_, params: { error: unknown }) => messageOf(params.error) }),
    forget: assign({ created: null, copied: false, error: null, revokingId: null }),
  },
}).createMachine({
  id: 'shareDialog',
  initial: 'hidden',
  context: ({ input }) => ({
    discussionId: input.discussionId,
    shares: [],
    created: null,
    revokingId: null,
    copied: false,
    error: null,
  }),
  states: {
    hidden: { on: { 'share.show': { target: 'shown', actions: 'forget' } } },
    shown: {
      initial: 'loading',
      on: {
        'share.hide': { target: 'hidden', actions: 'forget' },
        'share.error.dismiss': { actions: assign({ error: null }) },
      },
      states: {
        loading: {
          tags: 'busy',
          invoke: {
            src: 'listShares',
            input: ({ context }) => ({ discussionId: context.discussionId }),
            onDone: { target: 'ready', actions: assign({ shares: ({ event }) => event.output, error: null }) },
            onError: {
              target: 'failed',
              actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        failed: { on: { 'share.retry': { target: 'loading', actions: assign({ error: null }) } } },
        ready: {
          on: {
            'share.create': { target: 'creating', actions: assign({ error: null, copied: false }) },
            'share.revoke': {
              guard: 'isListed',
              target: 'revoking',
              actions: assign({ revokingId: ({ event }) => event.id, error: null }),
            },
            'share.copy': { target: 'copying', actions: assign({ error: null }) },
          },
        },
        creating: {
          tags: 'busy',
          invoke: {
            src: 'createShare',
            input: ({ context }) => ({ discussionId: context.discussionId }),
            onDone: {
              target: 'ready',
              actions: assign(({ context, event }) => ({
                created: event.output,
                shares: [
                  { id: event.output.id, created_at: new Date().toISOString(), expires_at: event.output.expires_at },
                  ...context.shares,
                ],
              })),
            },
            onError: {
              target: 'ready',
              actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        revoking: {
          tags: 'busy',
          invoke: {
            src: 'revokeShare',
            input: ({ context }) => ({ id: context.revokingId! }),
            onDone: {
              target: 'ready',
              actions: assign(({ context }) => ({
                shares: context.shares.filter((s) => s.id !== context.revokingId),
                created: context.created?.id === context.revokingId ? null : context.created,
                revokingId: null,
              })),
            },
            onError: {
              target: 'ready',
              actions: [
                { type: 'setError', params: ({ event }) => ({ error: event.error }) },
                assign({ revokingId: null }),
              ],
            },
          },
        },
        copying: {
          invoke: {
            src: 'copyText',
            input: ({ event }) => {
              assertEvent(event, 'share.copy');
              return { text: event.text };
            },
            onDone: { target: 'ready', actions: assign({ copied: true }) },
            onError: {
              target: 'ready',
              actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
  },
});

function fromPromiseNotProvided<O, I>(name: string) {
  return fromPromise<O, I>(notProvided('shareDialog', name));
}

export type ShareDialogActorRef = ActorRefFrom<typeof shareDialogMachine>;
export type ShareDialogSnapshot = SnapshotFrom<typeof shareDialogMachine>;
