// The sign-in / register form (docs/product.md#workspace-screens, #workspace-states 'Login form',
// #workspace-validation, #workspace-errors 'Sign-in'). Two regions run side by side:
//   form    — editing → submitting (buttons disabled) → succeeded (success message, then after 1 s the
//             accepted login goes to the session) or back to editing with the catalogue's error text
//   backend — the status badge, from /health, re-checked by the Test Backend button
import { assertEvent, assign, enqueueActions, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { LoginResponse, User } from '../schemas/auth';
import { LOGIN_SUCCESS_DELAY_MS } from '../schemas/constants';
import { AUTH_MESSAGES } from '../schemas/messages';
import type { Health } from '../schemas/system';
import {
  hasFieldErrors,
  loginFailureMessage,
  validateCredentials,
  type FieldErrors,
  type LoginMode,
} from '../model/loginFailures';
import { isPastExpiry, type TokenClaims } from '../model/tokenExpiry';
import { notProvided, type ParentInput } from './kit/actorKit';

export type { LoginMode } from '../model/loginFailures';

export interface SubmitInput {
  mode: LoginMode;
  email: string;
  password: string;
}

/** What the submit actor reports: the server's answer, the token's claims (null when it is not a JWT) and
 * the time it was received (machines do not read clocks). */
export interface SubmitResult {
  response: LoginResponse;
  claims: TokenClaims | null;
  now: number;
}

export interface AcceptedLogin {
  token: string;
  user: User;
  claims: TokenClaims;
}

/** What the form tells its parent (the session) once the success message has been shown. */
export type LoginAcceptedEvent = { type: 'session.authenticated' } & AcceptedLogin;

export type LoginField = 'email' | 'password';

export type LoginFormEvent =
  | { type: 'login.field'; field: LoginField; value: string }
  | { type: 'login.mode.toggle' }
  | { type: 'login.demoFill'; email: string; password: string }
  | { type: 'login.submit' }
  | { type: 'login.backend.check' };

export interface LoginFormContext extends ParentInput {
  email: string;
  password: string;
  mode: LoginMode;
  fieldErrors: FieldErrors;
  error: string | null;
  accepted: AcceptedLogin | null;
  backend: Health | null;
}

type SubmitDone = { output: SubmitResult };

export const loginFormMachine = setup({
  types: {
    context: {} as LoginFormContext,
    input: {} as ParentInput | undefined,
    events: {} as LoginFormEvent,
    tags: {} as 'busy',
    children: {} as { submitCredentials: 'submitCredentials'; checkBackend: 'checkBackend' },
  },
  actors: {
    submitCredentials: fromPromise<SubmitResult, SubmitInput>(notProvided('loginForm', 'submitCredentials')),
    checkBackend: fromPromise<Health>(notProvided('loginForm', 'checkBackend')),
  },
  guards: {
    isRegisterMode: ({ context }) => context.mode === 'register',
    hasInvalidFields: ({ context }) => hasFieldErrors(validateCredentials(context.email, context.password)),
    hasNoAccessToken: (_, { output }: SubmitDone) => !output.response.access_token,
    isTokenMalformed: (_, { output }: SubmitDone) => output.claims === null,
    isReceivedTokenExpired: (_, { output }: SubmitDone) =>
      output.claims !== null && isPastExpiry(output.claims, output.now),
  },
  actions: {
    setField: assign(({ context, event }) => {
      assertEvent(event, 'login.field');
      return { [event.field]: event.value, fieldErrors: { ...context.fieldErrors, [event.field]: undefined } };
    }),
    toggleMode: assign({
      mode: ({ context }) => (context.mode === 'signIn' ? 'register' : 'signIn'),
      fieldErrors: {},
      error: null,
    }),
    fillDemo: assign(({ event }) => {
      assertEvent(event, 'login.demoFill');
      return { email: event.email, password: event.password, fieldErrors: {}, error: null };
    }),
    showFieldErrors: assign({ fieldErrors: ({ context }) => validateCredentials(context.email, context.password) }),
    clearMessages: assign({ fieldErrors: {}, error: null }),
    showError: assign((_, params: { text: string }) => ({ error: params.text })),
    clearError: assign({ error: null }),
    acceptLogin: assign(({ context }, { output }: SubmitDone) => ({
      accepted: {
        token: output.response.access_token!,
        user: output.response.user ?? { email: context.email.trim() },
        claims: output.claims!,
      },
    })),
    handOver: enqueueActions(({ context, enqueue }) => {
      // Always the session in the app; a form running alone (tests, stories) simply keeps its state.
      if (context.parent && context.accepted)
        enqueue.sendTo(context.parent, {
          type: 'session.authenticated',
          ...context.accepted,
        } satisfies LoginAcceptedEvent);
    }),
    storeBackend: assign((_, params: { health: Health | null }) => ({ backend: params.health })),
  },
}).createMachine({
  id: 'loginForm',
  type: 'parallel',
  context: ({ input }) => ({
    email: '',
    password: '',
    mode: 'signIn',
    fieldErrors: {},
    error: null,
    accepted: null,
    backend: null,
    parent: input?.parent,
  }),
  states: {
    form: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            'login.field': { actions: 'setField' },
            'login.mode.toggle': { actions: 'toggleMode' },
            'login.demoFill': { guard: 'isRegisterMode', actions: 'fillDemo' },
            'login.submit': [
              { guard: 'hasInvalidFields', actions: ['showFieldErrors', 'clearError'] },
              { target: 'submitting', actions: 'clearMessages' },
            ],
          },
        },
        submitting: {
          tags: 'busy',
          invoke: {
            src: 'submitCredentials',
            id: 'submitCredentials',
            input: ({ context }) => ({ mode: context.mode, email: context.email.trim(), password: context.password }),
            onDone: [
              {
                guard: { type: 'hasNoAccessToken', params: ({ event }) => ({ output: event.output }) },
                target: 'editing',
                actions: { type: 'showError', params: { text: AUTH_MESSAGES.noAccessToken } },
              },
              {
                guard: { type: 'isTokenMalformed', params: ({ event }) => ({ output: event.output }) },
                target: 'editing',
                actions: { type: 'showError', params: { text: AUTH_MESSAGES.invalidTokenFormat } },
              },
              {
                guard: { type: 'isReceivedTokenExpired', params: ({ event }) => ({ output: event.output }) },
                target: 'editing',
                actions: { type: 'showError', params: { text: AUTH_MESSAGES.receivedExpiredToken } },
              },
              {
                target: 'succeeded',
                actions: { type: 'acceptLogin', params: ({ event }) => ({ output: event.output }) },
              },
            ],
            onError: {
              target: 'editing',
              actions: {
                type: 'showError',
                params: ({ context, event }) => ({ text: loginFailureMessage(event.error, context.mode) }),
              },
            },
          },
        },
        succeeded: {
          tags: 'busy',
          after: { [LOGIN_SUCCESS_DELAY_MS]: { actions: 'handOver' } },
        },
      },
    },
    backend: {
      initial: 'checking',
      states: {
        checking: {
          invoke: {
            src: 'checkBackend',
            id: 'checkBackend',
            onDone: {
              target: 'reachable',
              actions: { type: 'storeBackend', params: ({ event }) => ({ health: event.output }) },
            },
            onError: { target: 'unreachable', actions: { type: 'storeBackend', params: { health: null } } },
          },
        },
        reachable: { on: { 'login.backend.check': 'checking' } },
        unreachable: { on: { 'login.backend.check': 'checking' } },
      },
    },
  },
});

export type LoginFormActorRef = ActorRefFrom<typeof loginFormMachine>;
export type LoginFormSnapshot = SnapshotFrom<typeof loginFormMachine>;
