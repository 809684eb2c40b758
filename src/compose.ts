// The composition root's wiring, kept apart from main.tsx so it can be read (and exercised) without a DOM:
// the real services — HTTP, token storage, sockets, clock — provided to the pure machines.
import { fromPromise, type AnyActorRef } from 'xstate';
import { appMachine } from './machines/app.machine';
import { systemActor } from './machines/kit/systemRegistry';
import { loginFormMachine, type SubmitInput, type SubmitResult } from './machines/loginForm.machine';
import { sessionMachine, type RestoredSession } from './machines/session.machine';
import type { TokenClaims } from './model/tokenExpiry';
import { AUTH_MESSAGES } from './schemas/messages';
import { createApi } from './services/api';
import { fromTicker } from './services/clock';
import { createHttp } from './services/http';
import type { WebSocketConstructor } from './services/socket';
import { createTokenStorage, type TokenStorage } from './services/tokenStorage';
import type { AddressWindow } from './services/addressBar';

export interface AppDeps {
  /** Where the API lives ('' = same origin, through the proxy). */
  baseUrl?: string;
  /** 'ws://host:port' of the socket origin, read when each socket opens. */
  wsBase: () => string;
  fetch?: typeof fetch;
  WebSocket?: WebSocketConstructor;
  /** Hands an exported file to the user (a download by default). */
  saveFile?: (blob: Blob, fileName: string) => void;
  storage?: TokenStorage;
  now?: () => number;
  /** The window whose address follows the views (main.tsx: `window`); none writes no address. */
  address?: AddressWindow;
}

// The token's payload is checked with its zod schema, which (like every schema) loads lazily with jwt.ts, so the
// sign-in screen's JavaScript carries no zod; every caller below is already asynchronous.
const loadJwt = () => import('./services/jwt');
const claimsFrom = (
  decodeJwt: (token: string) => { sub: string; exp: number } | null,
  token: string | undefined,
): TokenClaims | null => {
  const payload = token ? decodeJwt(token) : null;
  return payload ? { sub: payload.sub, exp: payload.exp } : null;
};
const claimsOf = async (token: string | undefined) => claimsFrom((await loadJwt()).decodeJwt, token);

export function composeApp(deps: AppDeps) {
  const storage = deps.storage ?? createTokenStorage();
  const now = deps.now ?? (() => Date.now());
  // The root actor exists only after the logic is built; a 401 before that has nobody to tell.
  let root: AnyActorRef | null = null;

  const http = createHttp({
    baseUrl: deps.baseUrl ?? '',
    getToken: () => storage.readToken(),
    fetch: deps.fetch,
    onUnauthorized: () => {
      storage.clear();
      if (root) systemActor(root.system, 'session')?.send({ type: 'auth.expired' });
    },
  });
  const api = createApi(http);

  const restoreSession = fromPromise<RestoredSession | null>(async () => {
    const token = storage.readToken();
    if (!token) return null;
    const claims = await claimsOf(token);
    if (!claims) throw { reason: AUTH_MESSAGES.invalidTokenFormat };
    const user = await api.me();
    return { token, user, claims };
  });

  const submitCredentials = fromPromise<SubmitResult, SubmitInput>(async ({ input }) => {
    const response =
      input.mode === 'register'
        ? await api.register(input.email, input.password)
        : await api.login(input.email, input.password);
    return { response, claims: await claimsOf(response.access_token), now: now() };
  });

  const logic = appMachine.provide({
    actors: {
      session: sessionMachine.provide({
        actors: {
          restoreSession,
          sessionTicker: fromTicker('session.tick', now),
          loginForm: loginFormMachine.provide({
            actors: { submitCredentials, checkBackend: fromPromise(() => api.health()) },
          }),
        },
        actions: {
          persistLogin: (_, params) => storage.save(params.token, params.user),
          clearStoredLogin: () => storage.clear(),
        },
      }),
      // The workspace, the models, the evaluation, live updates, audio and the discussions: chunks of their own,
      // fetched once the user is signed in.
      loadLiveLogic: fromPromise(async () => {
        // The sockets (and their frame schemas), the token's claims and the stored user are only read from here on.
        const [
          { createWorkspaceLogic },
          { createLiveLogic },
          { createSocketFactory, nextTask },
          { decodeJwt },
          { readStoredUser },
          { socketTicketFetcher },
          { createModelsApi },
        ] = await Promise.all([
          import('./composeWorkspace'),
          import('./composeLive'),
          import('./services/socket'),
          loadJwt(),
          import('./services/storedUser'),
          import('./services/socketTicket'),
          import('./services/modelsApi'),
        ]);
        const live = createLiveLogic({
          http,
          api,
          // Each socket opens with a fresh ticket, never with the token in its URL.
          fromSocket: createSocketFactory({
            wsBase: deps.wsBase,
            getToken: () => storage.readToken(),
            getTicket: socketTicketFetcher(http),
            WebSocket: deps.WebSocket,
            // Frames that arrive together reach their panel as one event (services/frameBatch.ts).
            deferFrames: nextTask,
          }),
          probe: { wsBase: deps.wsBase, getToken: () => storage.readToken(), WebSocket: deps.WebSocket },
          fetch: deps.fetch,
          userId: () =>
            readStoredUser(storage)?.id ?? claimsFrom(decodeJwt, storage.readToken() ?? undefined)?.sub ?? null,
          saveFile: deps.saveFile,
          getToken: () => storage.readToken(),
          listConnections: createModelsApi(http).list,
          address: deps.address,
        });
        return { ...createWorkspaceLogic({ http, api, saveFile: deps.saveFile }), ...live };
      }),
      probeHealth: fromPromise(() => api.health()),
    },
  });

  return {
    logic,
    http,
    api,
    storage,
    /** Lets a 401 anywhere reach the session of this root actor. */
    bind(actor: AnyActorRef) {
      root = actor;
    },
  };
}
