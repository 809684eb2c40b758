// The one socket actor of the app. Every socket (live updates, both discussion panels, the debugger) is
// `fromSocket(serverSchema, clientSchema)`: it fetches a single-use ticket (POST /auth/socket-ticket) and opens
// `${wsBase}${path}?ticket=…`, so the session token never rides in a URL; it runs each message through
// parseFrame (the single parse path), and tells its parent typed events. Outgoing frames are checked against
// the client schema before they leave. The WebSocket constructor is injected so tests use a fake.
import { fromCallback } from 'xstate';
import type { z } from 'zod';
// Loaded after sign-in now, so it makes sure zod is set to compile nothing (the CSP forbids eval) before a frame is parsed.
import '../schemas/common';
import { knownTypes, parseFrame } from '../schemas/frames';
import { CLOSE_ABNORMAL, CLOSE_NORMAL, CLOSE_POLICY_VIOLATION } from '../schemas/constants';
import type { SocketCommand, SocketEvent, SocketInput } from '../model/socketEvents';
import { createFrameBatch, type DeferFlush } from './frameBatch';
export { nextTask } from './frameBatch';

type TypedUnion = Parameters<typeof knownTypes>[0];

/** The part of the browser WebSocket this actor uses. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onclose: ((ev: { code: number; reason: string; wasClean: boolean }) => void) | null;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

const CONNECTING = 0;
const OPEN = 1;

/** Where the app's sockets go and as whom: every socket of the app (panels, live updates, probes, dev tools) opens through it. */
export interface SocketTarget {
  /** 'ws://host:port' (no trailing slash); a function so it is read when each socket opens. */
  wsBase: string | (() => string);
  getToken: () => string | null;
  WebSocket?: WebSocketConstructor;
  /**
   * A fresh single-use ticket for the next socket (docs/protocol.md 'Opening a socket'), fetched before each
   * (re)connect; null when the server issues none (then `?token=` as the spec's clients do). Rejects with a
   * `status` of 401 when the session is over. Absent: every socket opens with `?token=`.
   */
  getTicket?: () => Promise<string | null>;
}

/** How a socket says who opens it: a ticket, the token itself, or nothing (a probe needs no one). */
export type SocketCredential = { ticket: string } | { token: string | null } | null;

export interface SocketDeps extends SocketTarget {
  /** Where unknown frame types are noted (console.debug by default). */
  debug?: (message: string) => void;
  /**
   * When a burst of frames is handed on (services/frameBatch.ts): the app passes `nextTask`, so the frames that
   * arrive together reach the parent as one `socket.frames`. Absent, each frame is its own `socket.frame` at once.
   */
  deferFrames?: DeferFlush;
}

/**
 * A new socket to `path` with `query`, at the origin read now; may throw. It says who opens it with the credential
 * given (by default the signed-in token, as the spec's clients do).
 */
export function openSocket(
  target: SocketTarget,
  path: string,
  query: Record<string, string> = {},
  credential?: SocketCredential,
): WebSocketLike {
  const Ctor = target.WebSocket ?? (globalThis.WebSocket as unknown as WebSocketConstructor);
  const base = typeof target.wsBase === 'function' ? target.wsBase() : target.wsBase;
  return new Ctor(socketUrl(base, path, credential === undefined ? { token: target.getToken() } : credential, query));
}

export function socketUrl(
  base: string,
  path: string,
  credential: SocketCredential,
  query: Record<string, string> = {},
) {
  const params = new URLSearchParams();
  if (credential && 'ticket' in credential) params.set('ticket', credential.ticket);
  else if (credential?.token) params.set('token', credential.token);
  for (const [k, v] of Object.entries(query)) params.set(k, v);
  const qs = params.toString();
  return `${base}${path}${qs ? `?${qs}` : ''}`;
}

export function createSocketFactory(deps: SocketDeps) {
  const debug = deps.debug ?? ((m: string) => console.debug(m));

  return function fromSocket<S extends TypedUnion, C extends z.ZodType>(serverSchema: S, clientSchema: C) {
    const known = knownTypes(serverSchema);
    type Out = SocketEvent<z.infer<S>>;

    return fromCallback<SocketCommand<z.input<C>>, SocketInput, Out>(({ input, sendBack, receive }) => {
      let stopped = false;
      const tell = (event: Out) => {
        if (!stopped) sendBack(event);
      };
      const pending: string[] = [];
      // Frames wait for the end of their burst; any other notice flushes them first, so the order holds.
      const frames = createFrameBatch<z.infer<S>>(
        (batch) =>
          tell(
            batch.length === 1 ? { type: 'socket.frame', frame: batch[0]! } : { type: 'socket.frames', frames: batch },
          ),
        deps.deferFrames,
      );
      const tellAfterFrames = (event: Out) => {
        frames.flush();
        tell(event);
      };

      let ws: WebSocketLike | null = null;
      // A close asked for before the socket exists (the ticket is on its way) is carried out when it does.
      let closeWanted: { code?: number; reason?: string } | null = null;

      const open = (credential: SocketCredential | undefined) => {
        if (stopped) return;
        let socket: WebSocketLike;
        try {
          socket = openSocket(deps, input.path, input.query, credential);
        } catch (error) {
          tell({ type: 'socket.error', message: error instanceof Error ? error.message : String(error) });
          tell({ type: 'socket.closed', code: CLOSE_ABNORMAL, reason: 'could not open socket', wasClean: false });
          return;
        }
        ws = socket;
        socket.onopen = () => {
          for (const data of pending.splice(0)) socket.send(data);
          tell({ type: 'socket.open' });
        };
        socket.onmessage = (ev) => {
          const result = parseFrame(serverSchema, ev.data, known);
          if (result.kind === 'frame') frames.push(result.frame);
          else if (result.kind === 'unknown') {
            debug(`[socket ${input.path}] ignored unknown frame type "${result.type}"`);
            tellAfterFrames({ type: 'socket.unknown', frameType: result.type });
          } else
            tellAfterFrames({
              type: 'socket.protocolError',
              frameType: result.type,
              error: result.error,
              direction: 'incoming',
            });
        };
        socket.onerror = () => tellAfterFrames({ type: 'socket.error', message: `Socket error on ${input.path}` });
        socket.onclose = (ev) =>
          tellAfterFrames({ type: 'socket.closed', code: ev.code, reason: ev.reason ?? '', wasClean: ev.wasClean });
        if (closeWanted) socket.close(closeWanted.code ?? CLOSE_NORMAL, closeWanted.reason);
      };

      if (!deps.getTicket) open(undefined);
      else {
        deps.getTicket().then(
          (ticket) => open(ticket === null ? undefined : { ticket }),
          (error: { status?: number; message?: string }) => {
            if (stopped) return;
            // A refused ticket is a session that is over, as a socket refused for its token would say; anything
            // else (no answer) is a failed connect, which the socket's policy may retry.
            if (error?.status === 401)
              return tell({
                type: 'socket.closed',
                code: CLOSE_POLICY_VIOLATION,
                reason: 'Authentication failed',
                wasClean: true,
              });
            tell({ type: 'socket.error', message: error?.message ?? `Could not open ${input.path}` });
            tell({
              type: 'socket.closed',
              code: CLOSE_ABNORMAL,
              reason: 'could not get a socket ticket',
              wasClean: false,
            });
          },
        );
      }

      receive((command) => {
        if (command.type === 'socket.close') {
          if (ws) ws.close(command.code ?? CLOSE_NORMAL, command.reason);
          else if (!closeWanted) {
            closeWanted = { code: command.code, reason: command.reason };
            // Nothing is open yet: the close is over at once, as far as the parent is concerned.
            tell({
              type: 'socket.closed',
              code: command.code ?? CLOSE_NORMAL,
              reason: command.reason ?? '',
              wasClean: true,
            });
            stopped = true;
          }
          return;
        }
        const checked = clientSchema.safeParse(command.frame);
        if (!checked.success) {
          const frameType = String((command.frame as { type?: unknown } | null)?.type ?? '(untyped)');
          tell({ type: 'socket.protocolError', frameType, error: checked.error.message, direction: 'outgoing' });
          return;
        }
        const data = JSON.stringify(checked.data);
        if (!ws || ws.readyState === CONNECTING) pending.push(data);
        else if (ws.readyState === OPEN) ws.send(data);
      });

      return () => {
        stopped = true;
        frames.cancel();
        if (!ws) return;
        ws.onopen = ws.onmessage = ws.onerror = null;
        ws.onclose = null;
        if (ws.readyState === CONNECTING || ws.readyState === OPEN) ws.close(CLOSE_NORMAL, 'closed by client');
      };
    });
  };
}

export type FromSocket = ReturnType<typeof createSocketFactory>;
