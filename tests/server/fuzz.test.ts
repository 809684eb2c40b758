import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { parseFrame } from '../../src/schemas/frames';
import { discussionClientFrame } from '../../server/engine/configure';
import { fakeSpeech, makeAgents, offlineLlm, sessionId, testProviders } from './engine/helpers';
import { startTestServer, type TestServer } from './harness';

// Property-based fuzzing (fast-check) of every REST body and every client socket frame against the real server on
// loopback: never a 500 or a crash; a refusal is a 4xx with a `detail` (or a close / non-fatal error frame with a
// message); and a refused request stores nothing, not even half (every table compared before and after).

const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 20 }).map((s) => `${s}\u0000${s}`),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '%00',
    '../../etc/passwd',
    '\uD800',
    '<script>alert(1)</script>',
    "'; DROP TABLE users; --",
    'x'.repeat(6000),
    '🙂'.repeat(300),
  ),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.constantFrom(1e308, -1e308, -0, 2 ** 53 + 1, true, false, null),
  fc.array(hostileString, { maxLength: 4 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
);

/** A valid body with some fields replaced by hostile values, some removed, and maybe extra keys; or any JSON at all. */
function bodies(valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  const keys = Object.keys(valid);
  const mutated = fc
    .record({
      replace: fc.dictionary(fc.constantFrom(...keys), hostileValue, { maxKeys: keys.length }),
      drop: fc.subarray(keys, { maxLength: Math.min(2, keys.length) }),
      extra: fc.dictionary(hostileString, hostileValue, { maxKeys: 2 }),
    })
    .map(({ replace, drop, extra }) => {
      const out: Record<string, unknown> = { ...extra, ...valid, ...replace };
      for (const k of drop) delete out[k];
      return out;
    });
  return fc.oneof({ weight: 3, arbitrary: mutated }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) });
}

let s: TestServer;
let token: string;
let agentIds: string[];
let release: () => void = () => {};
const gate = new Promise<void>((r) => (release = r));

/** Everything stored, as one comparable value. */
async function snapshot() {
  const q = async (sql: string) => JSON.stringify(await s.server.ctx.db.query(sql));
  return [
    await q('SELECT id, email FROM users ORDER BY id'),
    await q('SELECT id, user_id, name, role, prompt, model, personality, x, y FROM agents ORDER BY id'),
    await q('SELECT id, from_agent_id, to_agent_id FROM connections ORDER BY id'),
    await q('SELECT id, name, file_name, is_default, transcript FROM audio_items ORDER BY id'),
    await q('SELECT id, session_id, status FROM discussions ORDER BY id'),
    await q('SELECT discussion_id, n, text FROM discussion_human_messages ORDER BY discussion_id, n'),
    await q('SELECT file_name FROM tts_clips ORDER BY file_name'),
  ].join('\n');
}

beforeAll(async () => {
  s = await startTestServer(
    { maxRunningDiscussionsPerUser: 50 },
    {
      providers: testProviders({
        // Discussions whose configuration is valid wait here, so the frames after it meet a running discussion.
        llm: offlineLlm(async (req, next) => {
          await gate;
          return next(req);
        }),
        speech: fakeSpeech(),
      }),
    },
  );
  ({ token } = await s.register());
  agentIds = await makeAgents(s, token, 2);
});
afterAll(async () => {
  release();
  await s.close();
});

describe('REST bodies', () => {
  const routes: Array<{ method: string; path: () => string; valid: () => Record<string, unknown>; auth?: boolean }> = [
    {
      method: 'POST',
      path: () => '/auth/register',
      valid: () => ({ email: 'fuzz@example.com', password: 'secret-pass' }),
      auth: false,
    },
    {
      method: 'POST',
      path: () => '/auth/login',
      valid: () => ({ email: 'fuzz@example.com', password: 'secret-pass' }),
      auth: false,
    },
    {
      method: 'POST',
      path: () => '/agents/',
      valid: () => ({ name: 'F', role: 'R', prompt: 'P', model: 'offline', personality: 'patient', x: 1, y: 2 }),
    },
    {
      method: 'PATCH',
      path: () => `/agents/${agentIds[0]}`,
      valid: () => ({ name: 'F', role: 'R', prompt: 'P', model: 'offline', personality: 'patient' }),
    },
    { method: 'PUT', path: () => `/agents/${agentIds[0]}/position`, valid: () => ({ x: 10, y: 20 }) },
    {
      method: 'POST',
      path: () => '/connections/',
      valid: () => ({ from_agent_id: agentIds[0], to_agent_id: agentIds[1] }),
    },
    { method: 'POST', path: () => '/agents/audio/transcribe', valid: () => ({ audio_id: 'nope' }) },
    {
      method: 'POST',
      path: () => '/agents/audio/batch-transcribe',
      valid: () => ({ agent_id: agentIds[0], force_retranscribe: true }),
    },
    { method: 'POST', path: () => '/api/tts/speak', valid: () => ({ text: 'Hello.', agent_id: agentIds[0] }) },
    {
      method: 'POST',
      path: () => '/research/search',
      valid: () => ({ query: 'vines', sources: ['arxiv'], max_results: 3, domain: 'general' }),
    },
  ];

  for (const route of routes) {
    it(`${route.method} ${route.path
      .toString()
      .replace(/^.*=> /, '')
      .replace(/[`'"]/g, '')
      .replace(
        /\$\{agentIds\[0\]\}/,
        ':id',
      )}: no 5xx but the engines' own 503, a detail on every refusal, nothing stored half`, async () => {
      await fc.assert(
        fc.asyncProperty(bodies(route.valid()), async (body) => {
          const before = await snapshot();
          const r = await s.api(route.method, route.path(), { token: route.auth === false ? undefined : token, body });
          // 503 is the documented answer of a route whose engine is not configured (transcription here).
          expect(r.status === 503 || r.status < 500, `${r.status} ${JSON.stringify(r.body)}`).toBe(true);
          if (r.status >= 400) {
            expect(typeof r.body?.detail, JSON.stringify(r.body)).toBe('string');
            expect(r.body.detail).not.toMatch(/\n\s+at /);
            expect(await snapshot()).toBe(before);
          }
        }),
        { numRuns: RUNS },
      );
    });
  }

  it('raw bytes as a JSON body, and multipart uploads with hostile fields', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 200 }), async (text) => {
        const before = await snapshot();
        const res = await fetch(`${s.url}/agents/`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: text,
        });
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) {
          expect(typeof (await res.json()).detail).toBe('string');
          expect(await snapshot()).toBe(before);
        }
      }),
      { numRuns: RUNS },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom('name', 'auto_transcribe', 'other'), hostileString),
        fc.uint8Array({ maxLength: 64 }),
        async (fields, bytes) => {
          const before = await snapshot();
          const fd = new FormData();
          for (const [k, v] of Object.entries(fields)) fd.set(k, v);
          fd.set('file', new Blob([bytes]), 'x.wav');
          const r = await s.api('POST', `/agents/${agentIds[0]}/audio`, { token, body: fd });
          expect(r.status).toBeLessThan(500);
          expect(r.status).toBeGreaterThanOrEqual(400); // no fuzzed file is audio
          expect(typeof r.body.detail).toBe('string');
          expect(await snapshot()).toBe(before);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

// ── Sockets ──────────────────────────────────────────────────────────────────

interface Conn {
  frames: any[];
  closed: { code: number; reason: string } | null;
  ws: WebSocket;
  waitFor(pred: () => boolean, ms?: number): Promise<void>;
}

async function connect(p: string): Promise<Conn> {
  const ws = new WebSocket(`${s.wsUrl}${p}?token=${encodeURIComponent(token)}`);
  const c: Conn = {
    frames: [],
    closed: null,
    ws,
    async waitFor(pred, ms = 10_000) {
      const end = Date.now() + ms;
      while (!pred()) {
        if (Date.now() > end)
          throw new Error(
            `timed out; frames ${JSON.stringify(c.frames.map((f) => f.type))}, closed ${JSON.stringify(c.closed)}`,
          );
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
  ws.on('message', (d) => c.frames.push(JSON.parse(String(d))));
  ws.on('close', (code, reason) => (c.closed = { code, reason: String(reason) }));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return c;
}

const SOCKETS = ['/ws/discuss', '/ws/enhanced', '/ws/multi_round_reasoning', '/ws/hybrid'] as const;

describe('socket frames', () => {
  const validConfig = () => ({
    agent_ids: agentIds,
    session_id: sessionId('fuzz'),
    context: 'Water use',
    topic: 'Water use',
    turns: 2,
  });
  const asWire = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

  for (const p of SOCKETS) {
    it(`${p}: any first frame starts a discussion or is refused with a message and a close (never 1011), storing nothing`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof({ weight: 3, arbitrary: bodies(validConfig()) }, { weight: 1, arbitrary: hostileString }),
          async (first) => {
            const before = await snapshot();
            const c = await connect(p);
            c.ws.send(asWire(first));
            await c.waitFor(
              () =>
                c.closed !== null ||
                c.frames.some((f) => f.type === 'discussion_started' || f.type === 'discussion_initialized'),
            );
            if (c.closed) {
              expect([1000, 1003, 1008], JSON.stringify(c.closed)).toContain(c.closed.code);
              if (c.closed.code !== 1000) {
                expect(c.frames.find((f) => f.type === 'error')?.message).toEqual(expect.any(String));
                expect(await snapshot()).toBe(before);
              }
            } else {
              c.ws.send(JSON.stringify({ type: 'stop' }));
              await c.waitFor(() => c.closed !== null);
            }
          },
        ),
        { numRuns: Math.ceil(RUNS / 2) },
      );
    });
  }

  it('frames after the configuration: a non-fatal error for each bad one, the discussion goes on', async () => {
    const c = await connect('/ws/hybrid');
    c.ws.send(JSON.stringify({ ...validConfig(), tts_config: null, turns_per_round: 1 }));
    await c.waitFor(() => c.frames.some((f) => f.type === 'discussion_initialized' || f.type === 'discussion_started'));
    const frame = fc
      .oneof(
        bodies({ type: 'human_message', text: 'Hello', timestamp: '2024-01-01T00:00:00Z' }),
        bodies({ type: 'audio_acknowledgment', audio_id: 'a1', status: 'played', timestamp: '2024-01-01T00:00:00Z' }),
        bodies({ type: 'status', status: 'played', audio_id: 'a1' }),
        hostileString,
      )
      .filter((f) => !(f && typeof f === 'object' && (f as { type?: unknown }).type === 'stop'));
    await fc.assert(
      fc.asyncProperty(frame, async (f) => {
        const wire = asWire(f);
        const expectError = parseFrame(discussionClientFrame, wire).kind !== 'frame';
        const errorsBefore = c.frames.filter((x) => x.type === 'error').length;
        c.ws.send(wire);
        if (expectError) await c.waitFor(() => c.frames.filter((x) => x.type === 'error').length > errorsBefore);
        // A ping of ours comes back only after the server has handled every frame sent before it.
        else
          await new Promise<void>((resolve) => {
            c.ws.once('pong', () => resolve());
            c.ws.ping();
          });
        expect(c.closed).toBeNull();
        expect(c.frames.filter((x) => x.type === 'error' && x.fatal !== false)).toEqual([]);
      }),
      { numRuns: RUNS * 2 },
    );
    c.ws.send(JSON.stringify({ type: 'stop' }));
    await c.waitFor(() => c.closed !== null);
  });

  it('/ws/updates and /ws/system: an error frame for each bad frame, the socket stays open', async () => {
    for (const p of ['/ws/updates', '/ws/system']) {
      const c = await connect(p);
      await c.waitFor(() => c.frames.some((f) => f.type === 'connected'));
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(bodies({ type: 'get_stats' }), bodies({ type: 'ping' }), hostileString),
          async (f) => {
            const n = c.frames.length;
            c.ws.send(asWire(f));
            await c.waitFor(() => c.frames.length > n);
            const answer = c.frames[c.frames.length - 1];
            expect(['pong', 'stats', 'error']).toContain(answer.type);
            if (answer.type === 'error') expect(answer.message).toEqual(expect.any(String));
            expect(c.closed).toBeNull();
          },
        ),
        { numRuns: RUNS },
      );
      c.ws.close();
    }
  });
});
