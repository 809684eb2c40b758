// Discussion engine budgets, on loopback with the built-in offline model:
//   - 50 concurrent discussions: frames per second, p50/p99 time from a model's answer to its frame on the wire
//     (target p99 ≤ 20 ms), memory per discussion;
//   - 50 concurrent streaming discussions (the offline model streaming at 200 tokens/s, deltas coalesced to one
//     per 50 ms): frames per second, and p50/p99 time from a model's first token to the first delta on the wire
//     (target p99 ≤ 60 ms), and from any delta's first token to that delta on the wire;
//   - one discussion alone: engine overhead per turn against the model's own time, as a ratio, with the instant
//     offline model and with a model that takes ~40 ms a turn (streamed, so the ratio includes the deltas).
// Figures only; budgets are compared by whoever reads them, never asserted here.
//
//   npx tsx bench/discussions.bench.ts        (or through npm run bench)

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import { buildServer, type BuiltServer } from '../server/app';
import { observeEngine } from '../server/engine/hooks';
import { createLlmRegistry, createOfflineProvider } from '../server/providers';
import { createNoSpeech } from '../server/providers/speech/none';
import { createNoTranscription } from '../server/providers/transcription/none';
import { withTimeout } from '../tests/support/withTimeout';

const CONCURRENT = 50;
const ROUNDS = 5;
/** A discussion socket that says nothing for this long has failed (a refused or stuck socket must not hang the run). */
const SILENCE_LIMIT_MS = 30_000;
const CLOSE_LIMIT_MS = 15_000;

interface Rig {
  server: BuiltServer;
  ws: string;
  token: string;
  agents: string[];
  close(): Promise<void>;
}

async function rig(tokensPerSecond = 0): Promise<Rig> {
  const dir = await mkdtemp(path.join(tmpdir(), 'agora-bench-'));
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
      // One bench user runs all 50 discussions: the per-user cap (5 by default) is not what is measured.
      maxRunningDiscussionsPerUser: 0,
    },
    {
      providers: {
        llm: createLlmRegistry([createOfflineProvider({ tokensPerSecond, thinkMs: 0 })]),
        speech: createNoSpeech(),
        transcription: createNoTranscription(),
      },
    },
  );
  const url = (await server.listen()).replace('0.0.0.0', '127.0.0.1').replace('localhost', '127.0.0.1');
  const post = async (p: string, body: unknown, token?: string) => {
    const r = await fetch(url + p, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return (await r.json()) as Record<string, any>;
  };
  const { access_token: token } = await post('/auth/register', { email: 'bench@example.com', password: 'bench-pass' });
  const agents: string[] = [];
  for (const [name, role, personality] of [
    ['Ada', 'Agronomist', 'analytical'],
    ['Bo', 'Economist', 'assertive'],
    ['Cy', 'Grower', 'patient'],
  ]) {
    agents.push(
      String(
        (
          await post(
            '/agents/',
            { name, role, prompt: `You are the ${role.toLowerCase()}.`, model: 'offline', personality },
            token,
          )
        ).id,
      ),
    );
  }
  const close = async () => {
    for (const ws of sockets) ws.terminate();
    try {
      await withTimeout(server.close(), CLOSE_LIMIT_MS, 'closing the bench server');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
  return { server, ws: url.replace(/^http/, 'ws'), token, agents, close };
}

/** Every discussion socket still open: a failure ends them all, so the run stops at once instead of waiting. */
const sockets = new Set<WebSocket>();

/**
 * Runs one discussion over a socket; resolves with the frames received and the wall time. Rejects at once, with
 * what happened, when the socket is refused (connection error, an HTTP answer instead of the upgrade, a close
 * other than 1000) or goes silent for SILENCE_LIMIT_MS; the other sockets of the run are ended with it.
 */
export function discuss(
  r: Pick<Rig, 'ws' | 'token'>,
  path: string,
  config: object,
): Promise<{ frames: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let frames = 0;
    let settled = false;
    const ws = new WebSocket(`${r.ws}${path}?token=${r.token}`);
    sockets.add(ws);
    let silence: NodeJS.Timeout;
    const listen = () => {
      clearTimeout(silence);
      silence = setTimeout(
        () => fail(new Error(`${path}: no frame for ${SILENCE_LIMIT_MS / 1000} s`)),
        SILENCE_LIMIT_MS,
      );
    };
    const finish = () => {
      settled = true;
      clearTimeout(silence);
      sockets.delete(ws);
    };
    const fail = (e: Error) => {
      if (settled) return;
      finish();
      for (const other of sockets) other.terminate();
      sockets.clear();
      ws.terminate();
      reject(e);
    };
    listen();
    ws.on('open', () => ws.send(JSON.stringify(config)));
    ws.on('message', () => {
      frames++;
      listen();
    });
    ws.on('close', (code, reason) => {
      if (settled) return;
      if (code !== 1000)
        return fail(new Error(`${path}: socket closed ${code}${reason.length ? ` (${reason.toString()})` : ''}`));
      finish();
      resolve({ frames, ms: performance.now() - started });
    });
    ws.on('unexpected-response', (_req, res) => fail(new Error(`${path}: refused with HTTP ${res.statusCode}`)));
    ws.on('error', (e) => fail(new Error(`${path}: ${e.message}`)));
  });
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : 0;
};
const r2 = (x: number) => Math.round(x * 100) / 100;

const hybridConfig = (i: number, tag: string) => ({
  agent_ids: [] as string[],
  session_id: `session_${tag}_${i}`,
  topic: 'Should vineyards adopt drip irrigation?',
  mode: 'hybrid',
  max_rounds: ROUNDS,
  turns_per_round: 1,
  pause_between_turns: 0,
  auto_stop_on_consensus: false,
  allow_research: false,
  tts_config: null,
});

async function streaming(): Promise<Record<string, number>> {
  const r = await rig(200);
  const first: number[] = [];
  const all: number[] = [];
  observeEngine(r.server.ctx, { onDeltaOnWire: (ms, isFirst) => (all.push(ms), isFirst && first.push(ms)) });
  try {
    const started = performance.now();
    const runs = await Promise.all(
      Array.from({ length: CONCURRENT }, (_, i) =>
        discuss(r, '/ws/hybrid', { ...hybridConfig(i, 'stream'), agent_ids: r.agents }),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    const frames = runs.reduce((n, x) => n + x.frames, 0);
    return {
      streaming_discussions: CONCURRENT,
      streaming_frames_total: frames,
      streaming_frames_per_second: Math.round(frames / seconds),
      streaming_wall_seconds: r2(seconds),
      first_token_to_first_delta_p50_ms: r2(pct(first, 50)),
      first_token_to_first_delta_p99_ms: r2(pct(first, 99)),
      token_to_delta_p50_ms: r2(pct(all, 50)),
      token_to_delta_p99_ms: r2(pct(all, 99)),
    };
  } finally {
    await r.close();
  }
}

async function concurrent(): Promise<Record<string, number>> {
  const r = await rig();
  const latencies: number[] = [];
  observeEngine(r.server.ctx, { onAnswerOnWire: (ms) => latencies.push(ms) });
  try {
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = heapBefore;
    const sampler = setInterval(() => (heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)), 5);
    const started = performance.now();
    const runs = await Promise.all(
      Array.from({ length: CONCURRENT }, (_, i) =>
        discuss(r, '/ws/hybrid', {
          agent_ids: r.agents,
          session_id: `session_bench_${i}`,
          topic: 'Should vineyards adopt drip irrigation?',
          mode: 'hybrid',
          max_rounds: ROUNDS,
          turns_per_round: 1,
          pause_between_turns: 0,
          auto_stop_on_consensus: false,
          allow_research: false,
          tts_config: null,
        }),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const frames = runs.reduce((n, x) => n + x.frames, 0);
    return {
      concurrent_discussions: CONCURRENT,
      frames_total: frames,
      frames_per_second: Math.round(frames / seconds),
      wall_seconds: r2(seconds),
      answer_to_wire_p50_ms: r2(pct(latencies, 50)),
      answer_to_wire_p99_ms: r2(pct(latencies, 99)),
      answer_to_wire_max_ms: r2(Math.max(...latencies)),
      memory_per_discussion_kb: Math.round((heapPeak - heapBefore) / CONCURRENT / 1024),
    };
  } finally {
    await r.close();
  }
}

/** One discussion alone: wall time per turn minus the model's own time, against the model's time. */
async function overhead(tokensPerSecond: number, label: string): Promise<Record<string, number>> {
  const r = await rig(tokensPerSecond);
  const model: number[] = [];
  observeEngine(r.server.ctx, { onModelCall: (ms) => model.push(ms) });
  try {
    const turns = 30;
    // A warm-up run so the first-call costs (JIT, prepared statements) are not counted.
    await discuss(r, '/ws/discuss', {
      agent_ids: r.agents,
      session_id: `session_warm_${label}`,
      context: 'Warm up',
      turns: 5,
    });
    model.length = 0;
    const { ms } = await discuss(r, '/ws/discuss', {
      agent_ids: r.agents,
      session_id: `session_alone_${label}`,
      context: 'Should vineyards adopt drip irrigation?',
      turns,
    });
    const modelMs = model.reduce((a, b) => a + b, 0);
    const perTurn = (ms - modelMs) / turns;
    return {
      [`${label}_model_ms_per_turn`]: r2(modelMs / turns),
      [`${label}_engine_overhead_ms_per_turn`]: r2(perTurn),
      [`${label}_overhead_to_model_ratio`]: r2(perTurn / Math.max(modelMs / turns, 1e-6)),
    };
  } finally {
    await r.close();
  }
}

export default async function run(): Promise<Record<string, number | string>> {
  return {
    ...(await concurrent()),
    ...(await streaming()),
    ...(await overhead(0, 'instant_model')),
    ...(await overhead(1000, 'slow_model')),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run().then(
    (figures) => {
      for (const [k, v] of Object.entries(figures)) console.log(`${k.padEnd(42)} ${v}`);
      process.exit(0);
    },
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
