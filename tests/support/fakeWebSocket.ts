// A WebSocket stand-in the tests drive from the server's side: open, send frames, drop, close. Each test gets
// its own registry, so the sockets a machine opened (and reopened) can be found by path.
import type { WebSocketConstructor, WebSocketLike } from '../../src/services/socket';

export class FakeWebSocket implements WebSocketLike {
  readyState = 0;
  /** Frames the client sent, parsed. */
  sent: unknown[] = [];
  closedByClient: { code?: number; reason?: string } | null = null;
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onclose: ((ev: { code: number; reason: string; wasClean: boolean }) => void) | null = null;

  constructor(readonly url: string) {}

  get path() {
    return new URL(this.url).pathname;
  }
  get query() {
    return Object.fromEntries(new URL(this.url).searchParams);
  }

  send(data: string) {
    if (this.readyState !== 1) throw new Error('send on a socket that is not open');
    this.sent.push(JSON.parse(data));
  }
  close(code?: number, reason?: string) {
    this.closedByClient = { code, reason };
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.({ code: code ?? 1000, reason: reason ?? '', wasClean: true });
  }

  // The server's side.
  serverOpen() {
    this.readyState = 1;
    this.onopen?.({});
  }
  serverSend(data: unknown) {
    this.onmessage?.({ data: typeof data === 'string' ? data : JSON.stringify(data) });
  }
  serverError() {
    this.onerror?.({});
  }
  serverClose(code: number, reason = '') {
    this.readyState = 3;
    this.onclose?.({ code, reason, wasClean: code === 1000 });
  }
}

export function fakeSockets() {
  const instances: FakeWebSocket[] = [];
  const Ctor = class extends FakeWebSocket {
    constructor(url: string) {
      super(url);
      instances.push(this);
    }
  } as unknown as WebSocketConstructor;
  return {
    Ctor,
    instances,
    /** Every socket opened on `path`, oldest first. */
    on: (path: string) => instances.filter((s) => s.path === path),
    /** The newest socket on `path`. */
    last: (path: string) => {
      const list = instances.filter((s) => s.path === path);
      return list[list.length - 1];
    },
  };
}
