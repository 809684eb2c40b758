// The signed-in session (docs/product.md#workspace-states 'Authentication'):
//   loading        — a stored token is verified with /auth/me (the loading screen)
//   loggedOut      — the sign-in form runs; a failed restore cleared the token and said why in a toast
//   authenticated  — a ticker reports the time every 30 s; a token within 5 minutes of its expiry counts as
//                    expired (logout + warning); between 5 and 10 minutes the user is warned once
//                    ('expiringSoon' also drives the Session Expiring Soon badge)
// A 401 from any call arrives as 'auth.expired'. The parent (app) hears 'session.signedIn' / 'session.signedOut'.
import {
  assertEvent,
  assign,
  enqueueActions,
  fromCallback,
  fromPromise,
  setup,
  type ActorRefFrom,
  type EventObject,
  type SnapshotFrom,
} from 'xstate';
import type { User } from '../schemas/auth';
import { SESSION_CHECK_INTERVAL_MS } from '../schemas/constants';
import { AUTH_MESSAGES } from '../schemas/messages';
import { sessionFailureReason } from '../model/loginFailures';
import { loginFormMachine, type LoginAcceptedEvent } from './loginForm.machine';
import { countsAsExpired, isInWarningWindow, minutesLeft, type TokenClaims } from '../model/tokenExpiry';
import { notProvided, notifyToasts, tellParent, type ParentInput, type TickerInput } from './kit/actorKit';

export interface RestoredSession {
  token: string;
  user: User;
  claims: TokenClaims;
}

export type SessionEvent =
  | LoginAcceptedEvent
  | { type: 'session.tick'; now: number }
  | { type: 'session.logout' }
  /** The profile dialog saved a display name (PATCH /auth/me answered it). */
  | { type: 'session.profile.saved'; displayName: string }
  | { type: 'auth.expired' };

/** What the session tells its parent. */
export type SessionNotice = { type: 'session.signedIn'; user: User } | { type: 'session.signedOut' };

export interface SessionContext extends ParentInput {
  token: string | null;
  user: User | null;
  claims: TokenClaims | null;
}

const signedOut: SessionContext = { token: null, user: null, claims: null };

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    input: {} as ParentInput | undefined,
    events: {} as SessionEvent,
    tags: {} as 'loading' | 'expiringSoon',
    children: {} as { restoreSession: 'restoreSession'; loginForm: 'loginForm'; ticker: 'sessionTicker' },
  },
  actors: {
    /** Reads the stored token and verifies it (/auth/me). Resolves null when nothing is stored. */
    restoreSession: fromPromise<RestoredSession | null>(notProvided('session', 'restoreSession')),
    /** Sends { type: 'session.tick', now } at once and then every `intervalMs`. */
    sessionTicker: fromCallback<EventObject, TickerInput>(notProvided('session', 'sessionTicker')),
    loginForm: loginFormMachine,
  },
  guards: {
    hasRestoredSession: (_, params: { session: RestoredSession | null }) => params.session !== null,
    isTokenExpired: ({ context, event }) => {
      assertEvent(event, 'session.tick');
      return context.claims !== null && countsAsExpired(context.claims, event.now);
    },
    isExpiringSoon: ({ context, event }) => {
      assertEvent(event, 'session.tick');
      return context.claims !== null && isInWarningWindow(context.claims, event.now);
    },
  },
  actions: {
    // I/O: placeholders; the composition root provides the real storage writes.
    persistLogin: (_, _params: { token: string; user: User }) => void notProvided('session', 'persistLogin')(),
    clearStoredLogin: enqueueActions(() => void notProvided('session', 'clearStoredLogin')()),

    useSession: assign((_, params: RestoredSession) => ({
      token: params.token,
      user: params.user,
      claims: params.claims,
    })),
    forgetSession: assign({ token: null, user: null, claims: null }),
    notify: enqueueActions(notifyToasts),
    tellParent: enqueueActions(({ context, enqueue }, params: EventObject) => tellParent(context, enqueue, params)),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({ ...signedOut, parent: input?.parent }),
  initial: 'loading',
  states: {
    loading: {
      tags: 'loading',
      invoke: {
        src: 'restoreSession',
        id: 'restoreSession',
        onDone: [
          {
            guard: { type: 'hasRestoredSession', params: ({ event }) => ({ session: event.output }) },
            target: 'authenticated',
            actions: { type: 'useSession', params: ({ event }) => event.output! },
          },
          { target: 'loggedOut' },
        ],
        onError: {
          target: 'loggedOut',
          actions: [
            'clearStoredLogin',
            {
              type: 'notify',
              params: ({ event }) => ({
                kind: 'error',
                text: AUTH_MESSAGES.authFailed(sessionFailureReason(event.error)),
              }),
            },
          ],
        },
      },
    },

    loggedOut: {
      entry: ['forgetSession', { type: 'tellParent', params: { type: 'session.signedOut' } satisfies SessionNotice }],
      invoke: { src: 'loginForm', id: 'loginForm', input: ({ self }) => ({ parent: self }) },
      on: {
        'session.authenticated': {
          target: 'authenticated',
          actions: [
            { type: 'useSession', params: ({ event }) => event },
            { type: 'persistLogin', params: ({ event }) => ({ token: event.token, user: event.user }) },
          ],
        },
      },
    },

    authenticated: {
      entry: {
        type: 'tellParent',
        params: ({ context }) => ({ type: 'session.signedIn', user: context.user! }) satisfies SessionNotice,
      },
      invoke: { src: 'sessionTicker', id: 'ticker', input: { intervalMs: SESSION_CHECK_INTERVAL_MS } },
      initial: 'valid',
      on: {
        'session.tick': {
          guard: 'isTokenExpired',
          target: 'loggedOut',
          actions: [
            'clearStoredLogin',
            { type: 'notify', params: { kind: 'warning', text: AUTH_MESSAGES.sessionExpired } },
          ],
        },
        'session.logout': { target: 'loggedOut', actions: 'clearStoredLogin' },
        'session.profile.saved': {
          actions: assign(({ context, event }) => ({
            user: context.user ? { ...context.user, display_name: event.displayName } : null,
          })),
        },
        'auth.expired': {
          target: 'loggedOut',
          actions: [
            'clearStoredLogin',
            { type: 'notify', params: { kind: 'error', text: AUTH_MESSAGES.authenticationExpired } },
          ],
        },
      },
      states: {
        valid: {
          on: {
            'session.tick': {
              guard: 'isExpiringSoon',
              target: 'expiringSoon',
              actions: {
                type: 'notify',
                params: ({ context, event }) => ({
                  kind: 'warning',
                  text: AUTH_MESSAGES.sessionExpiringSoon(minutesLeft(context.claims!, event.now)),
                }),
              },
            },
          },
        },
        // The warning has been given; later ticks in the window say nothing more.
        expiringSoon: { tags: 'expiringSoon' },
      },
    },
  },
});

export type SessionActorRef = ActorRefFrom<typeof sessionMachine>;
export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

declare module './kit/systemRegistry' {
  interface SystemActors {
    session: ActorRefFrom<typeof sessionMachine>;
  }
}
