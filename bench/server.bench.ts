// Server budgets, on loopback:
//   - cold start: `node scripts/start.mjs` (dist/ already built) to the first 200 from /health, with a fresh
//     data directory (migrations run) and again with an existing one;
//   - GET /health requests per second from N keep-alive clients, against the real server and against a bare
//     Fastify app with one /health route, each in its own process, and the ratio (on Linux the servers share one
//     core and the load runs on the others: see cpuSplit). The two servers of a ratio are loaded at the same time,
//     N clients each, on that one core, which the kernel shares between them: on this shared VM a server's rate
//     swings by half from one second to the next (the host's other guests), and measured one after the other the
//     rounds' ratios ran from 0.5 to 2.0; measured together, a slow second slows both, and the rounds agree to a
//     few hundredths. The ratio is the median of the rounds'. A third server, bare Fastify sending the same eleven
//     security headers (bench/lib/bareFastifyHeaders.ts), is the floor that prices the headers; a second bare
//     Fastify against the first is the A/A control of the method (it should print 1.0);
//   - each server's CPU time per request over the same rounds (/proc; printed, not budgeted);
//   - the cold start with existing data as a ratio to bare Fastify opening the same PGlite data, started in pairs.
//
//   npm run bench server        (BENCH_CLIENTS=16 by default)
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { buildIfNeeded, ROOT } from '../scripts/lib/build.mjs';
import { waitForHealth } from '../scripts/lib/health.mjs';
import { exited, freePort, stopProcess } from '../scripts/lib/proc.mjs';
import type { Figures } from './run';

const HOST = '127.0.0.1';
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16);
// Five start pairs: with three, one slow start of this shared VM moved the median pair by a tenth (1.38–1.90× in
// one run); BENCH_STARTS sets another count.
const STARTS = Number(process.env.BENCH_STARTS ?? 5);
const ROUNDS = Number(process.env.BENCH_HEALTH_ROUNDS ?? 10);
/** Each server's solo round warms it up for longer (its JIT); the paired rounds only their new connections. */
const FIRST_WARMUP_MS = 1500;
const WARMUP_MS = 300;
const MEASURE_MS = 1000;
const MAX_REQUESTS = 2_000_000; // a bound on the loop whatever the machine

interface Running {
  child: ChildProcess;
  base: string;
  ms: number;
}

/**
 * For the throughput rounds on Linux with two or more cores: the servers on the last core, this process (the
 * load) on the others. Sharing every core, the client took CPU from the server it measured, and more from the
 * one whose answers are longer. Null (no pinning) without taskset or with one core.
 */
function cpuSplit(): { server: string; client: string } | null {
  const cores = availableParallelism();
  if (process.platform !== 'linux' || cores < 2) return null;
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
  } catch {
    return null;
  }
  return { server: String(cores - 1), client: cores === 2 ? '0' : `0-${cores - 2}` };
}

/** Runs `fn` with every thread of this process on `cpus`, then puts them back where they were. */
async function onCpus<T>(cpus: string, fn: () => Promise<T>): Promise<T> {
  const pid = String(process.pid);
  const before = /:\s*(\S+)\s*$/.exec(execFileSync('taskset', ['-c', '-p', pid], { encoding: 'utf8' }))![1]!;
  execFileSync('taskset', ['-a', '-c', '-p', cpus, pid], { stdio: 'ignore' });
  try {
    return await fn();
  } finally {
    execFileSync('taskset', ['-a', '-c', '-p', before, pid], { stdio: 'ignore' });
  }
}

/** Starts a process that serves /health on a free port (on `cpus` when given); resolves when it first answers 200. */
async function launch(args: string[], env: NodeJS.ProcessEnv, cpus?: string): Promise<Running> {
  const port = await freePort(HOST);
  const base = `http://${HOST}:${port}`;
  const t0 = performance.now();
  const [command, argv] = cpus ? ['taskset', ['-c', cpus, process.execPath, ...args]] : [process.execPath, args];
  const child = spawn(command, argv, {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST },
    stdio: 'ignore',
    detached: process.platform !== 'win32',
  });
  try {
    await waitForHealth(base, { timeoutMs: 60_000, intervalMs: 10, accept: [200], alive: () => !exited(child) });
  } catch (e) {
    await stopProcess(child);
    throw e;
  }
  return { child, base, ms: performance.now() - t0 };
}

/** The environment of `npm start` with nothing but a data directory of our own. */
function appEnv(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  for (const k of ['JWT_SECRET', 'DATABASE_URL', 'MEDIA_DIR', 'STATIC_DIR'] as const) delete env[k];
  return env;
}

const startApp = (dataDir: string) => launch([path.join(ROOT, 'scripts', 'start.mjs')], appEnv(dataDir));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! : 0;
};
const r1 = (x: number) => Math.round(x * 10) / 10;

/** The cold start's floor: bare Fastify opening the same PGlite data (bench/lib/bare-fastify-pglite.mjs). */
const startBarePglite = (dataDir: string) =>
  launch([path.join(ROOT, 'bench', 'lib', 'bare-fastify-pglite.mjs')], appEnv(dataDir));

async function coldStarts(): Promise<Figures> {
  const fresh: number[] = [];
  const existing: number[] = [];
  const bare: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const dir = mkdtempSync(path.join(tmpdir(), 'agora-bench-start-'));
    try {
      const first = await startApp(dir);
      fresh.push(first.ms);
      await stopProcess(first.child);
      // Agora and the bare server on the same data, back to back, each first in every other start: the ratio of
      // each pair, so a slow stretch of this shared VM slows both sides of it alike.
      const pair: Record<string, number> = {};
      for (const side of i % 2 === 0 ? ['agora', 'bare'] : ['bare', 'agora']) {
        const started = side === 'agora' ? await startApp(dir) : await startBarePglite(dir);
        pair[side] = started.ms;
        await stopProcess(started.child);
      }
      existing.push(pair.agora!);
      bare.push(pair.bare!);
      ratios.push(pair.agora! / pair.bare!);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return {
    cold_start_fresh_data_ms_median: Math.round(median(fresh)),
    cold_start_fresh_data_ms_all: fresh.map(Math.round).join(' / '),
    cold_start_existing_data_ms_median: Math.round(median(existing)),
    cold_start_existing_data_ms_all: existing.map(Math.round).join(' / '),
    cold_start_existing_bare_ms_median: Math.round(median(bare)),
    cold_start_existing_bare_ms_all: bare.map(Math.round).join(' / '),
    cold_start_existing_ratio_to_bare: Math.round(median(ratios) * 100) / 100,
  };
}

const HEAD_END = Buffer.from('\r\n\r\n');
const LENGTH_FIELDS = ['\r\ncontent-length:', '\r\nContent-Length:'].map((f) => Buffer.from(f));

/** The number written in bytes [from, to) of `b`, spaces skipped. */
function digitsAt(b: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (b[i] !== 0x20) n = n * 10 + (b[i]! - 0x30);
  return n;
}

/**
 * The Content-Length of the head ending at `headEnd`, read from the bytes: the client's cost per answer must not
 * grow with the server's head (decoding and matching the whole head made a server that sends more headers look
 * slower than it is; on two cores the client shares the machine with the server).
 */
function contentLength(b: Buffer, headEnd: number): number | null {
  for (const field of LENGTH_FIELDS) {
    const at = b.indexOf(field);
    if (at < 0 || at > headEnd) continue;
    const from = at + field.length;
    const to = b.indexOf(0x0d, from);
    return digitsAt(b, from, to);
  }
  const other = /\r\ncontent-length:\s*(\d+)/i.exec(b.subarray(0, headEnd).toString('latin1'));
  return other ? Number(other[1]) : null;
}

/**
 * One keep-alive HTTP/1.1 connection that sends GET /health, reads the whole answer (headers, then
 * Content-Length bytes or a chunked body), and sends the next. A raw socket, because node:http's client costs
 * more CPU per request than a Fastify route, and on a small machine the load generator must not be the limit.
 */
function connection(port: number) {
  const request = Buffer.from(`GET /health HTTP/1.1\r\nHost: ${HOST}:${port}\r\nConnection: keep-alive\r\n\r\n`);
  const socket = net.connect({ port, host: HOST, noDelay: true });
  let buffer = Buffer.alloc(0);
  let pending: { resolve: (status: number) => void; reject: (e: Error) => void } | null = null;
  const complete = (): number | null => {
    const headEnd = buffer.indexOf(HEAD_END);
    if (headEnd < 0) return null;
    const length = contentLength(buffer, headEnd);
    let end: number;
    if (length !== null) {
      end = headEnd + 4 + length;
      if (buffer.length < end) return null;
    } else {
      const last = buffer.indexOf('\r\n0\r\n\r\n', headEnd);
      if (last < 0) return null;
      end = last + 7;
    }
    const status = digitsAt(buffer, 9, 12); // "HTTP/1.1 200"
    buffer = buffer.subarray(end);
    return status;
  };
  socket.on('data', (chunk) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    const status = complete();
    if (status !== null && pending) {
      const p = pending;
      pending = null;
      p.resolve(status);
    }
  });
  const fail = (e: Error) => {
    if (pending) pending.reject(e);
    pending = null;
  };
  socket.on('error', fail);
  socket.on('close', () => fail(new Error('connection closed')));
  return {
    get: () =>
      new Promise<number>((resolve, reject) => {
        pending = { resolve, reject };
        socket.write(request);
      }),
    close: () => socket.destroy(),
  };
}

/** CPU time (user + system) a process has used, in ms, from /proc (Linux; NaN elsewhere). */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}
const CLOCK_TICKS = 100;

/** CLIENTS keep-alive connections GET /health back to back; requests per second over MEASURE_MS after a warm-up. */
async function hammer(base: string, warmupMs: number, pid?: number) {
  const port = Number(new URL(base).port);
  const conns = Array.from({ length: CLIENTS }, () => connection(port));
  const runFor = async (ms: number, latencies?: number[]) => {
    let ok = 0;
    let other = 0;
    const end = performance.now() + ms;
    await Promise.all(
      conns.map(async (c) => {
        while (performance.now() < end && ok + other < MAX_REQUESTS) {
          const t = performance.now();
          if ((await c.get()) === 200) ok++;
          else other++;
          latencies?.push(performance.now() - t);
        }
      }),
    );
    return { ok, other };
  };
  try {
    await runFor(warmupMs);
    const latencies: number[] = [];
    const cpu0 = pid ? cpuMs(pid) : 0;
    const t0 = performance.now();
    const { ok, other } = await runFor(MEASURE_MS, latencies);
    const seconds = (performance.now() - t0) / 1000;
    const cpuUs = pid ? ((cpuMs(pid) - cpu0) * 1000) / (ok + other) : Number.NaN;
    return { rps: ok / seconds, cpuUs, p50: pct(latencies, 50), p99: pct(latencies, 99), other };
  } finally {
    for (const c of conns) c.close();
  }
}

/** Starts Agora with a data directory of its own; stop() also removes the directory. */
async function startAgora(extraEnv: NodeJS.ProcessEnv, cpus?: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'agora-bench-rps-'));
  try {
    const app = await launch([path.join(ROOT, 'scripts', 'start.mjs')], { ...appEnv(dir), ...extraEnv }, cpus);
    return { ...app, stop: async () => (await stopProcess(app.child), rmSync(dir, { recursive: true, force: true })) };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

type Load = Awaited<ReturnType<typeof hammer>>;

/**
 * bench/lib/bareFastifyHeaders.ts as one module (esbuild), with what it imports bundled in as the server's bundle
 * has them (helmet, and zod through src/schemas), and Fastify loaded from node_modules as the bare app loads it.
 * Left as files, zod's few dozen ES modules put this process in a slow state (node's nextTick compiled on generic
 * feedback: docs/performance.md, fifteenth session) that neither bare Fastify nor Agora is in.
 */
async function bundleHeadersFloor(): Promise<string> {
  const out = path.join(ROOT, 'node_modules', '.cache', 'agora', 'bench', 'bare-fastify-headers.mjs');
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'bench', 'lib', 'bareFastifyHeaders.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    external: ['fastify'],
    outfile: out,
    logLevel: 'error',
  });
  return out;
}

/** The servers of the throughput rounds, by name; `bare2` is a second bare Fastify, for the A/A control. */
type ServerName = 'bare' | 'bare2' | 'headers' | 'agora';
/** Each pair measured together, the first server's rate over the second's. */
const PAIRS: readonly (readonly [ServerName, ServerName])[] = [
  ['agora', 'bare'],
  ['headers', 'bare'],
  ['agora', 'headers'],
  ['bare2', 'bare'],
];

async function throughput(): Promise<Figures> {
  const split = cpuSplit();
  const launched = async (file: string) => {
    const app = await launch([file], process.env, split?.server);
    return { ...app, stop: () => stopProcess(app.child) };
  };
  const bareFile = path.join(ROOT, 'bench', 'lib', 'bare-fastify.mjs');
  const targets: Record<ServerName, Running & { stop: () => Promise<unknown> }> = {
    bare: await launched(bareFile),
    bare2: await launched(bareFile),
    headers: await launched(await bundleHeadersFloor()),
    agora: await startAgora({}, split?.server),
  };
  const solo: Partial<Record<ServerName, Load>> = {};
  const ratios = new Map<string, number[]>(PAIRS.map(([a, b]) => [`${a}/${b}`, []]));
  const cpu: Record<ServerName, number[]> = { bare: [], bare2: [], headers: [], agora: [] };
  let other = 0;
  try {
    const rounds = async () => {
      // Each server alone first, for the absolute rates (and its JIT's warm-up).
      for (const name of ['bare', 'bare2', 'headers', 'agora'] as const) {
        solo[name] = await hammer(targets[name].base, FIRST_WARMUP_MS, targets[name].child.pid);
        other += solo[name]!.other;
      }
      // Then each pair at the same time, on the same core: a neighbour of this VM that slows the core slows both.
      for (let round = 0; round < ROUNDS; round++) {
        for (const [a, b] of PAIRS) {
          const order = round % 2 === 0 ? [a, b] : [b, a];
          const [first, second] = await Promise.all(
            order.map((n) => hammer(targets[n].base, WARMUP_MS, targets[n].child.pid)),
          );
          const load: Partial<Record<ServerName, Load>> = { [order[0]!]: first, [order[1]!]: second };
          ratios.get(`${a}/${b}`)!.push(load[a]!.rps / load[b]!.rps);
          for (const n of order) {
            cpu[n].push(load[n]!.cpuUs);
            other += load[n]!.other;
          }
        }
      }
    };
    await (split ? onCpus(split.client, rounds) : rounds());
  } finally {
    await Promise.all(Object.values(targets).map((t) => t.stop()));
  }
  const ratio = (pair: string) => Math.round(median(ratios.get(pair)!) * 100) / 100;
  const spread = (pair: string) => {
    const xs = ratios.get(pair)!;
    return `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
  };
  const { bare, headers, agora } = solo as Record<ServerName, Load>;
  return {
    health_clients: CLIENTS,
    health_rounds:
      `${ROUNDS} rounds of each pair × ${MEASURE_MS / 1000} s, the two servers of a pair loaded at once on one ` +
      'core; ratio: median of the rounds',
    health_cpus: split ? `servers on cpu ${split.server}, load on cpu ${split.client}` : 'shared',
    health_rps_agora: Math.round(agora.rps),
    health_rps_bare_fastify: Math.round(bare.rps),
    health_rps_bare_fastify_with_headers: Math.round(headers.rps),
    health_rps_ratio_agora_to_bare: ratio('agora/bare'),
    // What node's handling of the eleven security headers alone leaves of bare Fastify, and Agora's ratio to that.
    health_rps_ratio_headers_floor_to_bare: ratio('headers/bare'),
    health_rps_ratio_agora_to_headers_floor: ratio('agora/headers'),
    // The A/A control: two processes of the same bare Fastify, measured as the pairs are. Far from 1.0, the
    // method (not the servers) would be deciding the ratios.
    health_rps_ratio_bare_to_bare: ratio('bare2/bare'),
    health_rps_round_ratios_spread: PAIRS.map(([a, b]) => `${a}/${b} ${spread(`${a}/${b}`)}`).join(', '),
    health_cpu_us_per_request_bare_headers_agora: (['bare', 'headers', 'agora'] as const)
      .map((n) => r1(median(cpu[n])))
      .join(' / '),
    health_latency_agora_p50_p99_ms: `${r1(agora.p50)} / ${r1(agora.p99)}`,
    health_latency_bare_p50_p99_ms: `${r1(bare.p50)} / ${r1(bare.p99)}`,
    health_non_200_answers: other,
  };
}

export default async function run(): Promise<Figures> {
  await buildIfNeeded({ quiet: true }); // the cold start is measured with dist/ in place, as after a first start
  return { ...(await coldStarts()), ...(await throughput()) };
}
