// Room fan-out: 1,000 watcher sockets of one discussion on one process receive every frame it sends (stored turns
// and streamed deltas alike). Figures:
//   fanout_p99_ms       — from the moment a frame is handed to the room to the moment the last of the 1,000
//                         sockets has it, p99 over every frame of the run;
//   fanout_frames_lost  — frames some socket never received (must be 0);
//   fanout_p99_ratio_to_bare — the same p99 over a bare `ws` server sending the same frames, at the same times,
//                         to 1,000 sockets (the floor, measured in the same run).
// The clients live in this process too, on both sides alike. Figures only; budgets in bench/budgets.ts.
//
//   npx tsx bench/rooms.bench.ts        (or: npm run bench rooms)

import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import { buildServer } from '../server/app';
import { createLlmRegistry, createOfflineProvider } from '../server/providers';
import { createNoSpeech } from '../server/providers/speech/none';
import { createNoTranscription } from '../server/providers/transcription/none';

const WATCHERS = 1_000;
/** How long frames are measured once the debate starts (it is stopped then, if it has not ended). */
const RUN_MS = 8_000;
const TOKENS_PER_SECOND = 120;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const p99 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * 0.99))] : Number.NaN;
};
const r2 = (x: number) => Math.round(x * 100) / 100;

/** N sockets counting the frames they receive (room_people lists aside) while `measuring`. */
function audience(n: number) {
  const received: number[] = [];
  const allAt: number[] = [];
  const state = { measuring: false, closed: 0, lastAt: 0, lists: 0 };
  const onFrame = (counter: { k: number }) => (data: WebSocket.RawData) => {
    state.lastAt = performance.now();
    if (!state.measuring) return;
    const head = data.toString('utf8', 0, 24);
    if (head.startsWith('{"type":"room_people"')) return void state.lists++;
    const k = counter.k++;
    received[k] = (received[k] ?? 0) + 1;
    if (received[k] === n) allAt[k] = performance.now();
  };
  return { received, allAt, state, onFrame };
}

async function ours() {
  const dir = await mkdtemp(path.join(tmpdir(), 'agora-bench-rooms-'));
  const server = await buildServer(
    {
      port: 0,
      host: '127.0.0.1',
      databaseUrl: 'memory://',
      dataDir: dir,
      mediaDir: path.join(dir, 'media'),
      jwtSecret: 'bench-secret-0123456789abcdef',
      logLevel: 'silent',
      staticDir: undefined,
      ollamaHost: undefined,
      openaiBaseUrl: undefined,
      loginRateLimit: 10_000,
    },
    {
      providers: {
        llm: createLlmRegistry([createOfflineProvider({ tokensPerSecond: TOKENS_PER_SECOND, thinkMs: 0 })]),
        speech: createNoSpeech(),
        transcription: createNoTranscription(),
      },
    },
  );
  const url = (await server.listen()).replace('0.0.0.0', '127.0.0.1').replace('localhost', '127.0.0.1');
  const wsUrl = url.replace(/^http/, 'ws');
  const { ctx } = server;
  const post = async (p: string, body: unknown, token?: string) => {
    const r = await fetch(url + p, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return (await r.json()) as Record<string, any>;
  };
  const { access_token: token } = await post('/auth/register', {
    email: 'owner@bench.example',
    password: 'bench-pass',
  });
  const agents: string[] = [];
  for (const name of ['Ada', 'Bo'])
    agents.push(
      String((await post('/agents/', { name, role: 'Analyst', prompt: 'You weigh it.', model: 'offline' }, token)).id),
    );

  // The owner's debate waits for its human judge's first vote: everyone joins before a frame is measured.
  const owner = new WebSocket(`${wsUrl}/ws/discuss?token=${token}`);
  const ownerFrames: string[] = [];
  owner.on('message', (d) => ownerFrames.push(String(d)));
  await new Promise((r) => owner.once('open', r));
  owner.send(
    JSON.stringify({
      agent_ids: agents,
      session_id: `bench-${randomUUID()}`,
      context: 'Should vineyards switch to drip irrigation?',
      turns: 40,
      format: { kind: 'debate', judge: 'human', sides: { for: [agents[0]], against: [agents[1]] } },
    }),
  );
  while (!ownerFrames.some((f) => f.includes('"format_stage"'))) await sleep(20);
  const [{ id: discussionId }] = await ctx.db.query<{ id: string }>('SELECT id FROM discussions LIMIT 1');

  // 1,000 watchers, made in SQL (the bench measures the fan-out, not sign-up's password hashing).
  await ctx.db.query(
    `INSERT INTO users (id, email, password_hash) SELECT 'w' || g, 'w' || g || '@bench.example', 'x' FROM generate_series(1, $1::int) g`,
    [WATCHERS],
  );
  await ctx.db.query(
    `INSERT INTO room_members (discussion_id, user_id, role) SELECT $1, 'w' || g, 'watcher' FROM generate_series(1, $2::int) g`,
    [discussionId, WATCHERS],
  );
  const a = audience(WATCHERS);
  const sockets: WebSocket[] = [];
  for (let i = 1; i <= WATCHERS; i += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, WATCHERS - i + 1) }, async (_, j) => {
        const t = await ctx.tokens.issue(`w${i + j}`);
        const ws = new WebSocket(`${wsUrl}/ws/discuss?token=${t}`);
        ws.on('message', a.onFrame({ k: 0 }));
        ws.on('close', () => a.state.closed++);
        sockets.push(ws);
        await new Promise((r) => ws.once('open', r));
        ws.send(JSON.stringify({ type: 'room_join', discussion_id: discussionId }));
      }),
    );
  }
  const session = ctx.discussions.byId(discussionId)!;
  while (session.room.size < WATCHERS) await sleep(50);
  // Replays and the joiners' lists delivered (a room of 1,000 hears its list at most every 2.5 s): quiet for 1 s.
  await sleep(3_000);
  while (performance.now() - a.state.lastAt < 1_000) await sleep(100);

  // Each frame handed to the room is timed; its (serialized) text kept for the bare floor.
  const sentAt: number[] = [];
  const sent: string[] = [];
  const pass = session.room.pass.bind(session.room);
  session.room.pass = (data: string) => {
    sentAt.push(performance.now());
    sent.push(data);
    pass(data);
  };
  a.state.measuring = true;
  const t0 = performance.now();
  owner.send(JSON.stringify({ type: 'judge_vote', side: 'for', confidence: 0.6 }));
  while (performance.now() - t0 < RUN_MS && !ownerFrames.some((f) => f.includes('"discussion_ended"'))) await sleep(50);
  owner.send(JSON.stringify({ type: 'stop' }));
  const until = performance.now() + 15_000;
  while (a.state.closed < WATCHERS && performance.now() < until) await sleep(50);
  await sleep(200);

  const latencies = sentAt.map((t, k) => (a.allAt[k] ?? Number.NaN) - t).filter((x) => Number.isFinite(x));
  if (process.env.ROOMS_BENCH_DEBUG) console.log('lists received while measuring', a.state.lists);
  if (process.env.ROOMS_BENCH_DEBUG)
    console.log(sentAt.map((t, k) => `${r2((a.allAt[k] ?? Number.NaN) - t)} ${sent[k].slice(0, 40)}`).join('\n'));
  const lost = sentAt.filter((_, k) => (a.received[k] ?? 0) < WATCHERS).length;
  for (const ws of sockets) ws.terminate();
  owner.terminate();
  await server.close();
  await rm(dir, { recursive: true, force: true });
  return { latencies, lost, sent, sentAt, socketsSeen: session.room.size };
}

/** The floor: a bare `ws` server sends the same frames at the same moments to as many sockets. */
async function bare(frames: string[], at: number[]) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => wss.once('listening', r));
  const port = (wss.address() as { port: number }).port;
  const a = audience(WATCHERS);
  const sockets: WebSocket[] = [];
  for (let i = 0; i < WATCHERS; i += 100)
    await Promise.all(
      Array.from({ length: Math.min(100, WATCHERS - i) }, async () => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}`);
        ws.on('message', a.onFrame({ k: 0 }));
        sockets.push(ws);
        await new Promise((r) => ws.once('open', r));
      }),
    );
  while (wss.clients.size < WATCHERS) await sleep(20);
  a.state.measuring = true;
  const sentAt: number[] = [];
  const start = performance.now();
  for (const [k, data] of frames.entries()) {
    const wait = at[k] - at[0] - (performance.now() - start);
    if (wait > 0) await sleep(wait);
    sentAt.push(performance.now());
    const bytes = Buffer.from(data);
    for (const c of wss.clients) c.send(bytes, { binary: false });
  }
  const until = performance.now() + 10_000;
  while (a.received[frames.length - 1] !== WATCHERS && performance.now() < until) await sleep(20);
  for (const ws of sockets) ws.terminate();
  await new Promise((r) => wss.close(r));
  return sentAt.map((t, k) => (a.allAt[k] ?? Number.NaN) - t).filter((x) => Number.isFinite(x));
}

export default async function run(): Promise<Record<string, number | string>> {
  const o = await ours();
  const floor = await bare(o.sent, o.sentAt);
  const ourP99 = p99(o.latencies);
  const bareP99 = p99(floor);
  return {
    fanout_watchers: WATCHERS,
    fanout_frames: o.sent.length,
    fanout_p50_ms: r2(o.latencies.sort((x, y) => x - y)[Math.floor(o.latencies.length / 2)] ?? Number.NaN),
    fanout_p99_ms: r2(ourP99),
    fanout_frames_lost: o.lost,
    fanout_bare_p99_ms: r2(bareP99),
    fanout_p99_ratio_to_bare: r2(ourP99 / Math.max(bareP99, 0.01)),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run().then(
    (figures) => {
      for (const [k, v] of Object.entries(figures)) console.log(`${k.padEnd(30)} ${v}`);
      process.exit(0);
    },
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
