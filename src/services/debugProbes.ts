// The developer tools' side effects (development only; loaded with their views): the connection debugger's socket
// and HTTP probes, the manual tester's raw-text socket, and the clipboard.
import { fromCallback, fromPromise } from 'xstate';
import { CLOSE_ABNORMAL, CLOSE_NORMAL } from '../schemas/constants';
import type { HttpProbeResult, SocketProbeResult } from '../model/connectionDebugger';
import type { TesterSocketCommand, TesterSocketEvent } from '../machines/wsTester.machine';
import { openSocket, type SocketTarget, type WebSocketLike } from './socket';

export interface DebugProbeDeps extends SocketTarget {
  /** '' = the page's origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
  now?: () => number;
  writeClipboard?: (text: string) => Promise<void>;
}

const clock = (d: DebugProbeDeps) => d.now ?? (() => performance.now());

/**
 * Opens the socket, waits for its first frame, then closes it 1000 (if the server has not) and resolves with how
 * it went when the close comes. The machine's own time-out stops it (and closes the socket) if nothing comes.
 */
export function createSocketProbe(d: DebugProbeDeps) {
  return fromPromise<SocketProbeResult, { path: string; query: Record<string, string> }>(({ input, signal }) => {
    const now = clock(d);
    const started = now();
    return new Promise((resolve) => {
      let opened = false;
      let firstFrame: string | null = null;
      let ws: WebSocketLike | null = null;
      try {
        ws = openSocket(d, input.path, input.query);
      } catch (e) {
        resolve({
          opened: false,
          firstFrame: null,
          code: CLOSE_ABNORMAL,
          reason: e instanceof Error ? e.message : String(e),
          ms: now() - started,
        });
        return;
      }
      const socket = ws;
      signal.addEventListener('abort', () => {
        socket.onopen = socket.onmessage = socket.onerror = socket.onclose = null;
        if (socket.readyState <= 1) socket.close(CLOSE_NORMAL, 'debugger time-out');
      });
      socket.onopen = () => {
        opened = true;
      };
      socket.onmessage = (ev) => {
        if (firstFrame !== null) return;
        firstFrame = typeof ev.data === 'string' ? ev.data : String(ev.data);
        if (socket.readyState === 1) socket.close(CLOSE_NORMAL, 'debugger done');
      };
      socket.onerror = () => {};
      socket.onclose = (ev) =>
        resolve({ opened, firstFrame, code: ev.code, reason: ev.reason ?? '', ms: now() - started });
    });
  });
}

/** One HTTP request with the bearer token; no answer at all is status 0 with the reason. */
export function createHttpProbe(d: DebugProbeDeps) {
  return fromPromise<HttpProbeResult, { method: string; path: string }>(async ({ input, signal }) => {
    const now = clock(d);
    const started = now();
    const doFetch = d.fetch ?? ((i: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(i, init));
    const token = d.getToken();
    try {
      const res = await doFetch(`${d.baseUrl ?? ''}${input.path}`, {
        method: input.method,
        headers: token ? { Authorization: `Bearer ${token}` } : {},
        signal,
      });
      const body = input.method === 'HEAD' ? '' : await res.text().catch(() => '');
      const allow = res.headers.get('allow');
      return {
        status: res.status,
        body: allow && !body ? `Allow: ${allow}` : body.replace(/\s+/g, ' ').trim(),
        ms: now() - started,
      };
    } catch (e) {
      return { status: 0, body: '', ms: now() - started, error: e instanceof Error ? e.message : String(e) };
    }
  });
}

/** The tester's socket: sends exactly the text it is given and reports every frame's text as it comes. */
export function createTesterSocket(d: DebugProbeDeps) {
  return fromCallback<TesterSocketCommand, { path: string }, TesterSocketEvent>(({ input, sendBack, receive }) => {
    let stopped = false;
    const tell = (e: TesterSocketEvent) => {
      if (!stopped) sendBack(e);
    };
    let ws: WebSocketLike;
    try {
      ws = openSocket(d, input.path);
    } catch (e) {
      tell({ type: 'tester.socket.closed', code: CLOSE_ABNORMAL, reason: e instanceof Error ? e.message : String(e) });
      return () => {
        stopped = true;
      };
    }
    ws.onopen = () => tell({ type: 'tester.socket.open' });
    ws.onmessage = (ev) =>
      tell({ type: 'tester.socket.message', data: typeof ev.data === 'string' ? ev.data : String(ev.data) });
    ws.onerror = () => tell({ type: 'tester.socket.error' });
    ws.onclose = (ev) => tell({ type: 'tester.socket.closed', code: ev.code, reason: ev.reason ?? '' });
    receive((cmd) => {
      if (cmd.type === 'tester.socket.close') ws.close(CLOSE_NORMAL, 'tester disconnect');
      else if (ws.readyState === 1) ws.send(cmd.data);
    });
    return () => {
      stopped = true;
      ws.onopen = ws.onmessage = ws.onerror = ws.onclose = null;
      if (ws.readyState <= 1) ws.close(CLOSE_NORMAL, 'tester closed');
    };
  });
}

export const copyToClipboard = (d: DebugProbeDeps) =>
  fromPromise<void, { text: string }>(async ({ input }) => {
    const write = d.writeClipboard ?? ((t: string) => navigator.clipboard.writeText(t));
    await write(input.text);
  });
