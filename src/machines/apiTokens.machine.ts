// The 'API tokens' dialog (docs/integrations.md#api-tokens): the tokens other clients send as
// `Authorization: Bearer agora_…`. Create one (a name, scopes read and/or run, an optional expiry day) and its secret
// is shown once, with Copy, until the dialog closes or the person says it is saved; the list shows each token's hint,
// scopes, dates and last use; Revoke is asked first and the token is gone from the list at once.
//   dialog — closed | open
//   data   — loading → idle | failed (Retry)
//   action — ready | creating | confirmingRevoke → revoking
//   copy   — idle | copying → copied | failed (the clipboard is a provided actor)
import { assign, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import {
  API_TOKEN_SCOPES,
  apiTokenCreate,
  type ApiToken,
  type ApiTokenCreate,
  type ApiTokenCreated,
  type ApiTokenScope,
} from '../schemas/apiTokens';
import { notProvided } from './kit/actorKit';

export interface ApiTokenForm {
  name: string;
  scopes: ApiTokenScope[];
  /** The last day it works, 'YYYY-MM-DD' as a date field gives it; '' for no expiry. */
  expires: string;
}

export const EMPTY_TOKEN_FORM: ApiTokenForm = { name: '', scopes: [...API_TOKEN_SCOPES], expires: '' };

export interface ApiTokensContext {
  tokens: ApiToken[];
  form: ApiTokenForm;
  formError: string | null;
  /** The token just created, with its secret: shown once, forgotten when the dialog closes. */
  created: ApiTokenCreated | null;
  loadError: string | null;
  actionError: string | null;
  pendingId: string | null;
}

export type ApiTokensEvent =
  | { type: 'apiTokens.open' }
  | { type: 'apiTokens.close' }
  | { type: 'apiTokens.retry' }
  | { type: 'apiTokens.form.change'; patch: Partial<ApiTokenForm> }
  | { type: 'apiTokens.create' }
  | { type: 'apiTokens.copy' }
  | { type: 'apiTokens.created.dismiss' }
  | { type: 'apiTokens.revoke.request'; id: string }
  | { type: 'apiTokens.revoke.confirm' }
  | { type: 'apiTokens.revoke.cancel' }
  | { type: 'apiTokens.error.dismiss' };

/** A token works through the whole chosen day (UTC), so 'expires on 1 May' still works on 1 May. */
export const expiryOf = (day: string): string | null => (day ? `${day}T23:59:59.000Z` : null);

/** The request the form makes, checked by the server's own schema; or the first problem in words. */
export function tokenRequest(form: ApiTokenForm): { request: ApiTokenCreate } | { problem: string } {
  const r = apiTokenCreate.safeParse({ name: form.name, scopes: form.scopes, expires_at: expiryOf(form.expires) });
  return r.success ? { request: r.data } : { problem: r.error.issues[0]?.message ?? 'Check the fields' };
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : typeof e === 'string' ? e : 'Something went wrong');
/** The secret stays only in `created`: the list holds what GET /api-tokens would say. */
const listed = ({ token: _secret, ...rest }: ApiTokenCreated): ApiToken => rest;

export const apiTokensMachine = setup({
  types: { context: {} as ApiTokensContext, events: {} as ApiTokensEvent },
  actors: {
    loadTokens: fromPromise<ApiToken[]>(notProvided('apiTokens', 'loadTokens')),
    createToken: fromPromise<ApiTokenCreated, ApiTokenCreate>(notProvided('apiTokens', 'createToken')),
    revokeToken: fromPromise<unknown, { id: string }>(notProvided('apiTokens', 'revokeToken')),
    copyText: fromPromise<void, { text: string }>(notProvided('apiTokens', 'copyText')),
  },
  guards: {
    isKnownToken: ({ context, event }) => 'id' in event && context.tokens.some((t) => t.id === event.id),
    isFormValid: ({ context }) => 'request' in tokenRequest(context.form),
    hasCreated: ({ context }) => context.created !== null,
  },
}).createMachine({
  id: 'apiTokens',
  context: {
    tokens: [],
    form: EMPTY_TOKEN_FORM,
    formError: null,
    created: null,
    loadError: null,
    actionError: null,
    pendingId: null,
  },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'apiTokens.open': {
          target: 'open',
          actions: assign({ form: EMPTY_TOKEN_FORM, formError: null, actionError: null, pendingId: null }),
        },
      },
    },
    open: {
      tags: 'dialogOpen',
      type: 'parallel',
      // Shown once: closing the dialog forgets the secret.
      exit: assign({ created: null }),
      on: {
        'apiTokens.close': 'closed',
        'apiTokens.error.dismiss': { actions: assign({ actionError: null }) },
        'apiTokens.form.change': {
          actions: assign({ form: ({ context, event }) => ({ ...context.form, ...event.patch }), formError: null }),
        },
        'apiTokens.created.dismiss': { actions: assign({ created: null }) },
      },
      states: {
        data: {
          initial: 'loading',
          states: {
            loading: {
              tags: 'loading',
              invoke: {
                src: 'loadTokens',
                onDone: { target: 'idle', actions: assign({ tokens: ({ event }) => event.output, loadError: null }) },
                onError: { target: 'failed', actions: assign({ loadError: ({ event }) => errorText(event.error) }) },
              },
            },
            idle: {},
            failed: { on: { 'apiTokens.retry': 'loading' } },
          },
        },
        action: {
          initial: 'ready',
          states: {
            ready: {
              on: {
                'apiTokens.create': [
                  { guard: 'isFormValid', target: 'creating', actions: assign({ formError: null, created: null }) },
                  {
                    actions: assign({
                      formError: ({ context }) => {
                        const r = tokenRequest(context.form);
                        return 'problem' in r ? r.problem : null;
                      },
                    }),
                  },
                ],
                'apiTokens.revoke.request': {
                  guard: 'isKnownToken',
                  target: 'confirmingRevoke',
                  actions: assign({ pendingId: ({ event }) => event.id, actionError: null }),
                },
              },
            },
            creating: {
              tags: 'busy',
              invoke: {
                src: 'createToken',
                input: ({ context }) => {
                  const r = tokenRequest(context.form);
                  return 'request' in r ? r.request : (undefined as never);
                },
                onDone: {
                  target: 'ready',
                  actions: assign({
                    created: ({ event }) => event.output,
                    tokens: ({ context, event }) => [listed(event.output), ...context.tokens],
                    form: EMPTY_TOKEN_FORM,
                  }),
                },
                // The server's words (a cap reached, a bad expiry) beside the form.
                onError: { target: 'ready', actions: assign({ formError: ({ event }) => errorText(event.error) }) },
              },
            },
            confirmingRevoke: {
              on: {
                'apiTokens.revoke.confirm': 'revoking',
                'apiTokens.revoke.cancel': { target: 'ready', actions: assign({ pendingId: null }) },
              },
            },
            revoking: {
              tags: 'busy',
              invoke: {
                src: 'revokeToken',
                input: ({ context }) => ({ id: context.pendingId! }),
                onDone: {
                  target: 'ready',
                  actions: assign({
                    tokens: ({ context }) => context.tokens.filter((t) => t.id !== context.pendingId),
                    // The secret of a token just revoked is no use to anyone: it goes too.
                    created: ({ context }) => (context.created?.id === context.pendingId ? null : context.created),
                    pendingId: null,
                  }),
                },
                onError: {
                  target: 'ready',
                  actions: assign({ actionError: ({ event }) => errorText(event.error), pendingId: null }),
                },
              },
            },
          },
        },
        copy: {
          initial: 'idle',
          // A new token, or the old one put away: nothing is copied yet.
          on: { 'apiTokens.created.dismiss': '.idle', 'apiTokens.create': '.idle' },
          states: {
            idle: { on: { 'apiTokens.copy': { guard: 'hasCreated', target: 'copying' } } },
            copying: {
              invoke: {
                src: 'copyText',
                input: ({ context }) => ({ text: context.created?.token ?? '' }),
                onDone: 'copied',
                onError: 'failed',
              },
            },
            copied: { on: { 'apiTokens.copy': { guard: 'hasCreated', target: 'copying' } } },
            failed: { on: { 'apiTokens.copy': { guard: 'hasCreated', target: 'copying' } } },
          },
        },
      },
    },
  },
});

export type ApiTokensActorRef = ActorRefFrom<typeof apiTokensMachine>;
export type ApiTokensSnapshot = SnapshotFrom<typeof apiTokensMachine>;

declare module './kit/systemRegistry' {
  interface SystemActors {
    apiTokens: ActorRefFrom<typeof apiTokensMachine>;
  }
}
