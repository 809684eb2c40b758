import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import WebSocket from 'ws';
import { collect } from './harness';

// Why this file: the cluster tests need real, separate server processes (their own memory, their own sockets,
// their own death by SIGKILL), started the way `npm run server` starts one, on one PostgreSQL.

export interface ServerProcess {
  url: string;
  wsUrl: string;
  proc: ChildProcess;
  /** What the process wrote to stderr and stdout (for a failing test's message). */
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Starts `tsx server/main.ts` (or the node arguments given: the built bundle) with the environment given (plus test
 * defaults) and waits for /health.
 */
export async function startServerProcess(
  env: Record<string, string>,
  timeoutMs = 60_000,
  args = ['--import', 'tsx', 'server/main.ts'],
): Promise<ServerProcess> {
  const port = await freePort();
  let out = '';
  // `node --import tsx`, not the tsx CLI: the CLI runs the server in a child process, which a SIGKILL to the CLI
  // would leave running.
  const proc = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      STATIC_DIR: '',
      OLLAMA_HOST: '',
      RESEARCH_ENABLED: 'false',
      OFFLINE_MODEL_TOKENS_PER_SECOND: '0',
      LOG_LEVEL: 'warn',
      LOGIN_RATE_LIMIT: '1000',
      JWT_SECRET: 'cluster-test-secret-0123456789abcdef',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d) => (out += String(d)));
  proc.stderr!.on('data', (d) => (out += String(d)));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    if (gone) throw new Error(`server process exited before it answered /health:\n${out}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.status < 500) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`server process did not answer /health within ${timeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    url,
    wsUrl: url.replace(/^http/, 'ws'),
    proc,
    output: () => out,
    async kill(signal: NodeJS.Signals = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
}

/** A JSON request to a server process. */
export async function call(base: string, method: string, p: string, token?: string, body?: unknown) {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Opens a socket and collects its frames. */
export function openSocket(wsUrl: string, p: string, token: string) {
  const ws = new WebSocket(`${wsUrl}${p}?token=${encodeURIComponent(token)}`);
  const c = collect(ws);
  return new Promise<{ ws: WebSocket; c: ReturnType<typeof collect> }>((resolve, reject) => {
    ws.once('open', () => resolve({ ws, c }));
    ws.once('error', reject);
  });
}
