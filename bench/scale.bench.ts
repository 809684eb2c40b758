// More than one process on one PostgreSQL, on loopback, with Debian's PostgreSQL in a throwaway cluster:
//   - cross-process live-update latency: PUT /agents/{id}/position on A → the agent_updated frame on B's
//     /ws/updates socket, p50/p99 (target p99 ≤ 100 ms);
//   - load: BENCH_USERS (200) users, each with a /ws/updates socket, BENCH_DISCUSSING (50) of them in a discussion
//     with the offline model at its human pace, spread over 2 processes (and the same on 1 process for the ratio):
//     REST p99 (each user moves an agent every second through the process its socket is not on), live-frame p99
//     (that write → its frame), errors (target zero), memory (RSS) per process;
//   - take-over: the owner of a running discussion killed (SIGKILL) → the next frame of it on the surviving process
//     (target ≤ lease + 1 s; the lease is DISCUSSION_LEASE_MS, 3000 ms here).
//
//   npm run bench scale
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import WebSocket from 'ws';
import { createTokenService } from '../server/auth/tokens';
import { startPostgres } from '../tests/server/postgresCluster';
import { startServerProcess, type ServerProcess } from '../tests/server/serverProcess';
import type { Figures } from './run';

const USERS = Number(process.env.BENCH_USERS ?? 200);
const DISCUSSING = Number(process.env.BENCH_DISCUSSING ?? 50);
const LOAD_MS = Number(process.env.BENCH_LOAD_MS ?? 15_000);
const LEASE_MS = 3_000;
const SECRET = 'bench-scale-secret-0123456789abcdef';

const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 10) / 10;
};
const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
};

async function call(base: string, method: string, p: string, token?: string, body?: unknown) {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

function socket(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url);
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

interface User {
  id: string;
  token: string;
  agents: string[];
}

/** Users made straight in the database (one scrypt hash shared), with tokens signed with the servers' secret. */
async function makeUsers(url: string, base: string, n: number): Promise<User[]> {
  const first = await call(base, 'POST', '/auth/register', undefined, {
    email: `bench-${Date.now()}@example.com`,
    password: 'secret-pass',
  });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const [{ password_hash }] = (
    await client.query('SELECT password_hash FROM users WHERE id = $1', [first.body.user.id])
  ).rows;
  const tokens = createTokenService(new TextEncoder().encode(SECRET), 600);
  const users: User[] = [];
  for (let i = 0; i < n; i++) {
    const id = `bench-user-${Date.now()}-${i}`;
    await client.query('INSERT INTO users (id, email, password_hash) VALUES ($1, $2, $3)', [
      id,
      `${id}@example.com`,
      password_hash,
    ]);
    const agents = [];
    for (const name of ['Ada', 'Bo']) {
      const aid = `${id}-${name}`;
      await client.query(
        "INSERT INTO agents (id, user_id, name, role, prompt, model) VALUES ($1, $2, $3, 'Researcher', 'Study it.', 'offline')",
        [aid, id, name],
      );
      agents.push(aid);
    }
    users.push({ id, token: await tokens.issue(id), agents });
  }
  await client.end();
  return users;
}

async function latency(a: ServerProcess, b: ServerProcess, user: User, n = 200) {
  const ws = await socket(`${b.wsUrl}/ws/updates?token=${user.token}`);
  const waiting = new Map<number, (t: number) => void>();
  ws.on('message', (d) => {
    const f = JSON.parse(String(d));
    if (f.type === 'agent_updated') waiting.get(f.agent.x)?.(performance.now());
  });
  const out: number[] = [];
  for (let i = 1; i <= n; i++) {
    const got = new Promise<number>((r) => waiting.set(i, r));
    const t0 = performance.now();
    await call(a.url, 'PUT', `/agents/${user.agents[0]}/position`, user.token, { x: i, y: 0 });
    out.push((await Promise.race([got, new Promise<number>((r) => setTimeout(() => r(NaN), 5_000))])) - t0);
  }
  ws.close();
  return out.filter(Number.isFinite);
}

async function load(procs: ServerProcess[], users: User[]) {
  const rest: number[] = [];
  const frames: number[] = [];
  let errors = 0;
  const sockets: WebSocket[] = [];
  const pending = new Map<string, number>();
  await Promise.all(
    users.map(async (u, i) => {
      const ws = await socket(`${procs[i % procs.length].wsUrl}/ws/updates?token=${u.token}`).catch(() => null);
      if (!ws) return void errors++;
      ws.on('message', (d) => {
        const f = JSON.parse(String(d));
        if (f.type !== 'agent_updated') return;
        const t0 = pending.get(`${u.id}:${f.agent.x}`);
        if (t0 !== undefined) frames.push(performance.now() - t0);
      });
      ws.on('error', () => errors++);
      sockets.push(ws);
    }),
  );
  // Discussions, each on the process its user's socket is not on, at the offline model's human pace.
  const discussions = users.slice(0, DISCUSSING).map(async (u, i) => {
    const p = procs[(i + 1) % procs.length];
    const ws = await socket(`${p.wsUrl}/ws/discuss?token=${u.token}`).catch(() => null);
    if (!ws) return void errors++;
    ws.send(JSON.stringify({ agent_ids: u.agents, session_id: `bench-${u.id}`, context: 'Load', turns: 4 }));
    await new Promise<void>((resolve) => {
      ws.on('message', (d) => {
        const f = JSON.parse(String(d));
        if (f.type === 'error' && f.fatal) errors++;
      });
      ws.on('close', (code) => {
        if (code !== 1000) errors++;
        resolve();
      });
    });
  });
  const end = Date.now() + LOAD_MS;
  await Promise.all(
    users.map(async (u, i) => {
      const p = procs[(i + 1) % procs.length];
      let x = 0;
      await new Promise((r) => setTimeout(r, Math.random() * 1000));
      while (Date.now() < end) {
        x++;
        const t0 = performance.now();
        pending.set(`${u.id}:${x}`, t0);
        const r = await call(p.url, 'PUT', `/agents/${u.agents[0]}/position`, u.token, { x, y: 0 }).catch(() => ({
          status: 0,
        }));
        rest.push(performance.now() - t0);
        if (r.status !== 200) errors++;
        await new Promise((res) => setTimeout(res, 1000));
      }
    }),
  );
  const memory = procs.map((p) => rssMb(p.proc.pid!));
  await Promise.race([Promise.all(discussions), new Promise((r) => setTimeout(r, 60_000))]);
  await new Promise((r) => setTimeout(r, 500));
  const writes = pending.size;
  for (const ws of sockets) ws.close();
  return { rest, frames, errors, memory, lost: writes - frames.length };
}

async function takeOver(a: ServerProcess, b: ServerProcess, user: User) {
  const config = { agent_ids: user.agents, session_id: `takeover-${Date.now()}`, context: 'Survive', turns: 6 };
  const ws = await socket(`${a.wsUrl}/ws/discuss?token=${user.token}`);
  let kept = 0;
  let texts = 0;
  ws.on('message', (d) => {
    const f = JSON.parse(String(d));
    if (f.type !== 'agent_message_start' && f.type !== 'agent_message_delta') kept++;
    if (f.type === 'text') texts++;
  });
  ws.send(JSON.stringify(config));
  while (texts < 1) await new Promise((r) => setTimeout(r, 20));
  const t0 = performance.now();
  const killedAt = Date.now();
  await a.kill('SIGKILL');
  const ws2 = await socket(`${b.wsUrl}/ws/discuss?token=${user.token}`);
  // The first frame made after the kill (frames A stored but had not sent yet are replayed first, and do not count).
  const first = new Promise<number>((r) =>
    ws2.on('message', (d) => {
      const f = JSON.parse(String(d));
      if (f.timestamp && Date.parse(f.timestamp) >= killedAt) r(performance.now());
    }),
  );
  ws2.send(JSON.stringify({ ...config, resume_from: kept }));
  const ms = (await first) - t0;
  ws2.close(1000);
  return ms;
}

export default async function run(): Promise<Figures> {
  const cluster = await startPostgres();
  const dir = await mkdtemp(path.join(tmpdir(), 'agora-bench-scale-'));
  const env = (name: string) => ({
    DATABASE_URL: cluster.url,
    DATA_DIR: path.join(dir, name),
    MEDIA_DIR: path.join(dir, 'media'),
    JWT_SECRET: SECRET,
    OFFLINE_MODEL_TOKENS_PER_SECOND: '30',
    DISCUSSION_LEASE_MS: String(LEASE_MS),
    MAX_RUNNING_DISCUSSIONS_PER_USER: '0',
  });
  const figures: Figures = {};
  try {
    let a = await startServerProcess(env('a'));
    let b = await startServerProcess(env('b'));
    const users = await makeUsers(cluster.url, a.url, USERS + 2);
    const lat = await latency(a, b, users[USERS]);
    figures['cross-process update p50 ms'] = pct(lat, 50);
    figures['cross-process update p99 ms (target ≤ 100)'] = pct(lat, 99);

    const two = await load([a, b], users.slice(0, USERS));
    figures[`2 processes, ${USERS} users (${DISCUSSING} discussing): REST p99 ms`] = pct(two.rest, 99);
    figures['2 processes: live frame p99 ms'] = pct(two.frames, 99);
    figures['2 processes: errors (target 0)'] = two.errors;
    figures['2 processes: updates not delivered'] = two.lost;
    figures['2 processes: RSS per process MB'] = two.memory.join(' / ');

    await a.kill();
    await b.kill();
    a = await startServerProcess(env('a1'));
    const one = await load(
      [a],
      users.slice(0, USERS).map((u) => ({ ...u })),
    );
    figures[`1 process, ${USERS} users: REST p99 ms`] = pct(one.rest, 99);
    figures['1 process: live frame p99 ms'] = pct(one.frames, 99);
    figures['1 process: errors'] = one.errors;
    figures['1 process: RSS MB'] = one.memory.join('');
    figures['REST p99 ratio 2 processes / 1'] = Math.round((pct(two.rest, 99) / pct(one.rest, 99)) * 100) / 100;

    b = await startServerProcess(env('b1'));
    figures[`take-over ms (lease ${LEASE_MS} ms; target ≤ ${LEASE_MS + 1000})`] = Math.round(
      await takeOver(a, b, users[USERS + 1]),
    );
    await b.kill();
    await a.kill();
  } finally {
    await cluster.stop();
    await rm(dir, { recursive: true, force: true });
  }
  return figures;
}
