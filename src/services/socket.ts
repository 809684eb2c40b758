// The one socket actor of the app. Every socket (live updates, both discussion panels, the debugger) is
// `fromSocket(serverSchema, clientSchema)`: it opens `${wsBase}${path}?token=…`, runs each message through
// parseFrame (the single parse path), and tells its parent typed events. Outgoing frames are checked against
// the client schema before they leave. The WebSocket constructor is injected so tests use a fake.
import { fromCallback } from 'xstate';
import type { z } from 'zod';
// Loaded after sign-in now, so it makes sure zod is set to compile nothing (the CSP forbids eval) before a frame is parsed.
import '../schemas/common';
import { knownTypes, parseFrame } from '../schemas/frames';
import { CLOSE_ABNORMAL, CLOSE_NORMAL } from '../schemas/constants';
import type { SocketCommand, SocketEvent, SocketInput } from '../model/socketEvents';

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
}

export interface SocketDeps extends SocketTarget {
  /** Where unknown frame types are noted (console.debug by default). */
  debug?: (message: string) => void;
}

/** A new socket to `path` (with the signed-in token and `query`), at the origin and token read now; may throw. */
export function openSocket(target: SocketTarget, path: string, query: Record<string, string> = {}): WebSocketLike {
  const Ctor = target.WebSocket ?? (globalThis.WebSocket as unknown as WebSocketConstructor);
  const base = typeof target.wsBase === 'function' ? target.wsBase() : target.wsBase;
  return new Ctor(socketUrl(base, path, target.getToken(), query));
}

export function socketUrl(base: string, path: string, token: string | null, query: Record<string, string> = {}) {
  const params = new URLSearchParams();
  if (token) params.set('token', token);
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

      let ws: WebSocketLike;
      try {
        ws = openSocket(deps, input.path, input.query);
      } catch (error) {
        tell({ type: 'socket.error', message: error instanceof Error ? error.message : String(error) });
        tell({ type: 'socket.closed', code: CLOSE_ABNORMAL, reason: 'could not open socket', wasClean: false });
        return () => {
          stopped = true;
        };
      }

      ws.onopen = () => {
        for (const data of pending.splice(0)) ws.send(data);
        tell({ type: 'socket.open' });
      };
      ws.onmessage = (ev) => {
        const result = parseFrame(serverSchema, ev.data, known);
        if (result.kind === 'frame') tell({ type: 'socket.frame', frame: result.frame });
        else if (result.kind === 'unknown') {
          debug(`[socket ${input.path}] ignored unknown frame type "${result.type}"`);
          tell({ type: 'socket.unknown', frameType: result.type });
        } else tell({ type: 'socket.protocolError', frameType: result.type, error: result.error, direction: 'incoming' });
      };
      ws.onerror = () => tell({ type: 'socket.error', message: `Socket error on ${input.path}` });
      ws.onclose = (ev) => tell({ type: 'socket.closed', code: ev.code, reason: ev.reason ?? '', wasClean: ev.wasClean });

      receive((command) => {
        if (command.type === 'socket.close') {
          ws.close(command.code ?? CLOSE_NORMAL, command.reason);
          return;
        }
        const checked = clientSchema.safeParse(command.frame);
        if (!checked.success) {
          const frameType = String((command.frame as { type?: unknown } | null)?.type ?? '(untyped)');
          tell({ type: 'socket.protocolError', frameType, error: checked.error.message, direction: 'outgoing' });
          return;
        }
        const data = JSON.stringify(checked.data);
        if (ws.readyState === OPEN) ws.send(data);
        else if (ws.readyState === CONNECTING) pending.push(data);
      });

      return () => {
        stopped = true;
        ws.onopen = ws.onmessage = ws.onerror = null;
        ws.onclose = null;
        if (ws.readyState === CONNECTING || ws.readyState === OPEN) ws.close(CLOSE_NORMAL, 'closed by client');
      };
    });
  };
}

export type FromSocket = ReturnType<typeof createSocketFactory>;
