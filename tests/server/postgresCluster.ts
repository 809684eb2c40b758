import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, chmodSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

// A throwaway PostgreSQL cluster for tests: TEST_DATABASE_URL when given, else initdb + postgres from
// Debian's packages on a free loopback port, run as the `postgres` user when we are root.

export interface PgCluster {
  url: string;
  stop(): Promise<void>;
}

function findBin(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(':'))
    if (existsSync(path.join(dir, name))) return path.join(dir, name);
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    for (const v of readdirSync(base).sort().reverse()) {
      const p = path.join(base, v, 'bin', name);
      if (existsSync(p)) return p;
    }
  }
  return null;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

/**
 * Why a cluster cannot be had here, or null when it can. With REQUIRE_POSTGRES=1 (CI sets it) a missing PostgreSQL
 * is an error, so the suite fails instead of skipping the tests that need one.
 */
export function postgresUnavailableReason(): string | null {
  return required(whyNoPostgres(), 'REQUIRE_POSTGRES');
}

/** `reason` unless `envVar` is 1, which makes a missing tool an error instead of a reason to skip. */
export function required(reason: string | null, envVar: string): string | null {
  if (reason !== null && process.env[envVar] === '1') throw new Error(`${envVar}=1, but ${reason}`);
  return reason;
}

function whyNoPostgres(): string | null {
  if (process.env.TEST_DATABASE_URL) return null;
  if (!findBin('initdb') || !findBin('postgres'))
    return 'PostgreSQL server binaries (initdb, postgres) are not installed';
  if (process.getuid?.() === 0) {
    try {
      execFileSync('id', ['postgres'], { stdio: 'ignore' });
    } catch {
      return 'running as root and there is no `postgres` user to run the server as';
    }
  }
  return null;
}

export async function startPostgres(): Promise<PgCluster> {
  if (process.env.TEST_DATABASE_URL) return { url: process.env.TEST_DATABASE_URL, stop: async () => {} };
  const initdb = findBin('initdb')!;
  const postgres = findBin('postgres')!;
  const dir = mkdtempSync(path.join(tmpdir(), 'agora-pg-'));
  chmodSync(dir, 0o777);
  const asRoot = process.getuid?.() === 0;
  const run = (bin: string, args: string[]) =>
    (asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args]) as [string, string[]];
  const data = path.join(dir, 'data');
  const [c1, a1] = run(initdb, ['-D', data, '-U', 'agora', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  execFileSync(c1, a1, { stdio: 'ignore' });
  const port = await freePort();
  const [c2, a2] = run(postgres, [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
  ]);
  // Its own process group, so stopping reaches postgres itself and not only the runuser wrapper.
  const proc: ChildProcess = spawn(c2, a2, { stdio: 'ignore', detached: true });
  const url = `postgres://agora@127.0.0.1:${port}/postgres`;
  const pg = (await import('pg')).default;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      break;
    } catch (e) {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    url,
    async stop() {
      const exited = new Promise((r) => proc.once('exit', r));
      process.kill(-proc.pid!, 'SIGINT');
      const timer = setTimeout(() => process.kill(-proc.pid!, 'SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
