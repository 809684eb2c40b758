import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { buildServer, type BuiltServer } from '../../server/app';
import type { ServerConfig } from '../../server/config';
import type { Providers } from '../../server/providers/providers';

export interface TestServer {
  url: string;
  wsUrl: string;
  server: BuiltServer;
  /** Registers a fresh user and returns its token and id. */
  register(email?: string, password?: string): Promise<{ token: string; userId: string; email: string }>;
  /** fetch against the server with an optional bearer token; JSON bodies are encoded. */
  api(
    method: string,
    p: string,
    opts?: { token?: string; body?: unknown },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  /** Opens a socket and resolves once it is open (or rejects on error). */
  socket(p: string, token?: string): Promise<WebSocket>;
  close(): Promise<void>;
}

let counter = 0;

/** The real server on a free loopback port with an in-memory PGlite and a throwaway media directory. */
export async function startTestServer(
  overrides: Partial<ServerConfig> = {},
  opts: { providers?: Providers } = {},
): Promise<TestServer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'agora-test-'));
  const server = await buildServer(
    {
      port: 0,
      host: '127.0.0.1',
      databaseUrl: 'memory://',
      dataDir: dir,
      mediaDir: path.join(dir, 'media'),
      jwtSecret: 'test-secret-0123456789abcdef',
      logLevel: 'silent',
      staticDir: undefined,
      loginRateLimit: 1000,
      ollamaHost: undefined,
      offlineTokensPerSecond: 0,
      ...overrides,
    },
    opts,
  );
  const url = (await server.listen()).replace('0.0.0.0', '127.0.0.1').replace('localhost', '127.0.0.1');
  const wsUrl = url.replace(/^http/, 'ws');

  const api: TestServer['api'] = async (method, p, o = {}) => {
    const headers: Record<string, string> = {};
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    let body: BodyInit | undefined;
    if (o.body instanceof FormData) body = o.body;
    else if (o.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(o.body);
    }
    const res = await fetch(url + p, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };

  return {
    url,
    wsUrl,
    server,
    api,
    async register(email = `user${++counter}-${Date.now()}@example.com`, password = 'secret-pass') {
      const r = await api('POST', '/auth/register', { body: { email, password } });
      if (r.status !== 200) throw new Error(`register failed: ${r.status} ${JSON.stringify(r.body)}`);
      return { token: r.body.access_token as string, userId: r.body.user.id as string, email };
    },
    socket(p, token) {
      const sep = p.includes('?') ? '&' : '?';
      const ws = new WebSocket(`${wsUrl}${p}${token ? `${sep}token=${encodeURIComponent(token)}` : ''}`);
      keepEarlyFrames(ws);
      return new Promise((resolve, reject) => {
        ws.once('open', () => resolve(ws));
        ws.once('error', reject);
      });
    },
    async close() {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A server may send its first frame right behind the handshake, in the same read: `ws` then emits 'open' and that
 * 'message' in one go, before whoever awaited the open can listen. Frames are kept from the start, for collect().
 */
const earlyFrames = new WeakMap<WebSocket, { frames: unknown[]; keep: (d: unknown) => void }>();
function keepEarlyFrames(ws: WebSocket) {
  const frames: unknown[] = [];
  const keep = (d: unknown) => void frames.push(d);
  ws.on('message', keep);
  earlyFrames.set(ws, { frames, keep });
}

/** Collects a socket's frames (parsed JSON), those that came before it was called too, and its close, for assertions. */
export function collect(ws: WebSocket) {
  const frames: any[] = [];
  const early = earlyFrames.get(ws);
  if (early) {
    ws.off('message', early.keep);
    earlyFrames.delete(ws);
    for (const d of early.frames) frames.push(JSON.parse(String(d)));
  }
  let closed: { code: number; reason: string } | null = null;
  const waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  ws.on('message', (d) => {
    frames.push(JSON.parse(String(d)));
    wake();
  });
  ws.on('close', (code, reason) => {
    closed = { code, reason: String(reason) };
    wake();
  });
  const until = async (pred: () => boolean, ms = 10_000) => {
    const end = Date.now() + ms;
    while (!pred()) {
      if (Date.now() > end)
        throw new Error(
          `timed out; frames so far: ${JSON.stringify(frames.map((f) => f.type))}, closed: ${JSON.stringify(closed)}`,
        );
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 50);
      });
    }
  };
  return {
    frames,
    get closed() {
      return closed;
    },
    next: (type: string, ms?: number) =>
      until(() => frames.some((f) => f.type === type), ms).then(() => frames.find((f) => f.type === type)),
    closedWith: (ms?: number) => until(() => closed !== null, ms).then(() => closed!),
    until,
  };
}
