import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { health } from '../../src/schemas/system';
import { parseTrustProxy } from '../../server/config';
import { AUDIO_SAMPLES, upload } from './audioFixtures';
import { fakeSpeech, makeAgents, offlineLlm, openDiscussion, sessionId, testProviders } from './engine/helpers';
import { collect, startTestServer, type TestServer } from './harness';

// Finding by finding: what an attacker from outside could do, and what the server answers now.

const NUL = '\u0000';
const isDetail = (r: { status: number; body: any }) =>
  typeof r.body?.detail === 'string' && r.body.detail.length > 0 && !/\n\s+at /.test(r.body.detail);

/** A raw request (no JSON encoding), for bodies and headers the harness does not make. */
async function raw(
  s: TestServer,
  method: string,
  p: string,
  init: { headers?: Record<string, string>; body?: BodyInit } = {},
) {
  const res = await fetch(s.url + p, { method, headers: init.headers, body: init.body });
  const text = await res.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* keep the text */
  }
  return { status: res.status, body, headers: res.headers };
}

function socketWithOrigin(s: TestServer, p: string, token: string, origin?: string) {
  const ws = new WebSocket(`${s.wsUrl}${p}?token=${encodeURIComponent(token)}`, origin ? { origin } : {});
  return new Promise<WebSocket>((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

// The model waits at this gate, so discussions stay running for as long as a test needs them to.
let release: () => void = () => {};
const gate = new Promise<void>((r) => (release = r));
const heldLlm = offlineLlm(async (req, next) => {
  await gate;
  return next(req);
});

describe('issue 10 on one server with small limits', () => {
  let s: TestServer;
  let token: string;
  let agentIds: string[];
  beforeAll(async () => {
    s = await startTestServer(
      {
        maxAgentsPerDiscussion: 2,
        maxRunningDiscussionsPerUser: 2,
        ttsMaxTextLength: 500,
        ttsQuotaMb: 0.004,
        audioQuotaMb: 0.0003,
        allowedOrigins: ['http://allowed.example'],
        operatorToken: 'operator-secret-123',
      },
      { providers: testProviders({ llm: heldLlm, speech: fakeSpeech() }) },
    );
    ({ token } = await s.register());
    agentIds = await makeAgents(s, token, 3);
  });
  afterAll(async () => {
    release();
    await s.close();
  });

  describe('2. a NUL byte is a 4xx with a detail, never a 500', () => {
    it('in the email or password of register and login', async () => {
      for (const p of ['/auth/register', '/auth/login']) {
        for (const body of [
          { email: `nul${NUL}@example.com`, password: 'secret-pass' },
          { email: 'nul@example.com', password: `secret${NUL}pass` },
        ]) {
          const r = await s.api('POST', p, { body });
          expect(r.status, `${p} ${JSON.stringify(body)}`).toBe(422);
          expect(r.body.detail).toContain('NUL');
        }
      }
    });

    it('in an agent name, role or prompt (create and update)', async () => {
      const spec = { name: 'N', role: 'R', prompt: 'P', model: 'offline' };
      for (const k of ['name', 'role', 'prompt'] as const) {
        const c = await s.api('POST', '/agents/', { token, body: { ...spec, [k]: `a${NUL}b` } });
        expect(c.status, k).toBe(422);
        expect(c.body.detail).toContain('NUL');
        const u = await s.api('PATCH', `/agents/${agentIds[0]}`, { token, body: { [k]: `a${NUL}b` } });
        expect(u.status, k).toBe(422);
        expect(isDetail(u)).toBe(true);
      }
    });

    it('in ids in URLs, the audio routes included', async () => {
      const cases: Array<[string, string]> = [
        ['GET', '/agents/%00'],
        ['PATCH', '/agents/%00'],
        ['DELETE', '/agents/%00'],
        ['PUT', '/agents/%00/position'],
        ['GET', '/discussion/%00'],
        ['DELETE', '/connections/%00'],
        ['GET', '/agents/%00/audio'],
        ['POST', '/agents/%00/audio'],
        ['DELETE', '/agents/audio/%00'],
        ['POST', '/agents/audio/%00/set-default'],
        ['GET', '/research/papers?query=a%00b'],
        ['GET', '/media/audio/%00'],
        ['GET', '/media/tts/%00'],
      ];
      for (const [m, p] of cases) {
        const r = await s.api(m, p, { token, body: m === 'GET' || m === 'DELETE' ? undefined : { x: 1, y: 2 } });
        expect(r.status, `${m} ${p}`).toBeGreaterThanOrEqual(400);
        expect(r.status, `${m} ${p}`).toBeLessThan(500);
        expect(isDetail(r), `${m} ${p}`).toBe(true);
      }
      const refused = await s.api('GET', '/agents/%00', { token });
      expect(refused.body.detail).toContain('NUL');
      // Refused before Fastify (http/errors.ts refuseEncodedNul), yet with the security headers every answer has.
      expect(refused.headers.get('x-content-type-options')).toBe('nosniff');
      expect(refused.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      // A socket's upgrade does not come through that handler: its route refuses the NUL itself.
      await expect(s.socket('/ws/updates?x=a%00b', token)).rejects.toThrow(/400/);
      // An upgrade to a path that is no socket is refused and its connection closed (http/sockets.ts).
      await expect(s.socket('/health', token)).rejects.toThrow(/404/);
    });

    it('in ids in bodies', async () => {
      const cases: Array<[string, object]> = [
        ['/connections/', { from_agent_id: `${agentIds[0]}${NUL}`, to_agent_id: agentIds[1] }],
        ['/agents/audio/transcribe', { audio_id: `x${NUL}` }],
        ['/agents/audio/batch-transcribe', { agent_id: `x${NUL}` }],
        ['/api/tts/speak', { text: 'Hello', agent_id: `x${NUL}` }],
        ['/api/tts/speak', { text: `Hel${NUL}lo` }],
        ['/research/search', { query: `a${NUL}b` }],
      ];
      for (const [p, body] of cases) {
        const r = await s.api('POST', p, { token, body });
        expect(r.status, p).toBe(422);
        expect(r.body.detail, p).toContain('NUL');
      }
    });

    it('in the audio name field', async () => {
      const r = await upload(s, token, agentIds[0], AUDIO_SAMPLES.wav.bytes, 'v.wav', { name: `Voice${NUL}` });
      expect(r.status).toBe(422);
      expect(r.body.detail).toContain('NUL');
      expect((await s.api('GET', `/agents/${agentIds[0]}/audio`, { token })).body).toEqual([]);
    });

    it('in a socket session_id: an error frame and close 1003, not 1011', async () => {
      const c = await openDiscussion(s, '/ws/discuss', token, {
        agent_ids: agentIds.slice(0, 2),
        session_id: `s${NUL}`,
        context: 'Topic',
      });
      const closed = await c.waitClose();
      expect(closed.code).toBe(1003);
      expect(c.frames.find((f) => f.type === 'error')?.message).toContain('NUL');
    });

    it('in a human_message: a non-fatal error frame, nothing stored', async () => {
      const sid = sessionId('nul-human');
      const c = await openDiscussion(s, '/ws/discuss', token, {
        agent_ids: agentIds.slice(0, 2),
        session_id: sid,
        context: 'Topic',
      });
      await c.waitType('discussion_started');
      c.send({ type: 'human_message', text: `hi${NUL}there`, timestamp: new Date().toISOString() });
      const err = await c.waitFor((f) => f.type === 'error' && f.fatal === false);
      expect(err.message).toContain('NUL');
      expect(c.closed).toBeNull();
      c.send({ type: 'stop' });
      await c.waitClose();
      const [row] = await s.server.ctx.db.query<{ n: string }>(
        'SELECT count(*) AS n FROM discussion_human_messages h JOIN discussions d ON d.id = h.discussion_id WHERE d.session_id = $1',
        [sid],
      );
      expect(Number(row.n)).toBe(0);
    });
  });

  describe('3. broken multipart bodies are 400 with a detail', () => {
    it('a multipart content type with no boundary', async () => {
      const r = await raw(s, 'POST', `/agents/${agentIds[0]}/audio`, {
        headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data' },
        body: 'name=x',
      });
      expect(r.status).toBe(400);
      expect(isDetail(r)).toBe(true);
    });

    it('a body cut off mid-part', async () => {
      const b = 'XyZboundary';
      const body = `--${b}\r\nContent-Disposition: form-data; name="name"\r\n\r\nVoice\r\n--${b}\r\nContent-Disposition: form-data; name="file"; filename="v.wav"\r\nContent-Type: audio/wav\r\n\r\nRIFF\u0000\u0000`;
      const r = await raw(s, 'POST', `/agents/${agentIds[0]}/audio`, {
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${b}` },
        body,
      });
      expect(r.status).toBe(400);
      expect(isDetail(r)).toBe(true);
      expect((await s.api('GET', `/agents/${agentIds[0]}/audio`, { token })).body).toEqual([]);
    });
  });

  describe('4. every error is {"detail"}', () => {
    it('a 150+ character id (414) and a bad URL escape (400)', async () => {
      const long = await s.api('GET', `/agents/${'a'.repeat(160)}`, { token });
      expect(long.status).toBe(414);
      expect(long.body).toEqual({ detail: expect.any(String) });
      expect(long.headers.get('x-content-type-options')).toBe('nosniff');
      const bad = await s.api('GET', '/agents/%E0%A4%A', { token });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ detail: expect.any(String) });
    });

    it('a plain GET to a socket path, bad JSON and a wrong content type', async () => {
      const ws = await s.api('GET', '/ws/discuss');
      expect(ws.status).toBe(426);
      expect(isDetail(ws)).toBe(true);
      const json = await raw(s, 'POST', '/auth/login', {
        headers: { 'content-type': 'application/json' },
        body: '{"email":',
      });
      expect(json.status).toBe(400);
      expect(isDetail(json)).toBe(true);
      const type = await raw(s, 'POST', '/auth/login', {
        headers: { 'content-type': 'application/x-nonsense' },
        body: 'x',
      });
      expect(type.status).toBe(415);
      expect(isDetail(type)).toBe(true);
    });
  });

  describe('5. security headers', () => {
    it('CSP with frame-ancestors none, nosniff, X-Frame-Options and Referrer-Policy on answers and errors', async () => {
      const answers = [
        await s.api('GET', '/health'),
        await s.api('GET', '/agents/', { token }),
        await s.api('GET', '/nowhere'),
        await s.api('GET', '/agents/'),
        await s.api('GET', '/agents/%E0%A4%A', { token }), // a framework error, met before any route or hook
      ];
      for (const r of answers) {
        const csp = r.headers.get('content-security-policy') ?? '';
        expect(csp).toContain("frame-ancestors 'none'");
        if (r !== answers[4]) expect(csp).toContain("script-src 'self'");
        expect(csp).not.toContain('upgrade-insecure-requests');
        expect(r.headers.get('x-content-type-options')).toBe('nosniff');
        expect(r.headers.get('x-frame-options')).toBe('DENY');
        expect(r.headers.get('referrer-policy')).toBe('no-referrer');
        expect(r.headers.get('cross-origin-opener-policy')).toBe('same-origin');
      }
      // The framework's own errors keep their stricter CSP, once.
      expect(answers[4]!.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    });
  });

  describe('6. /monitor/stats is the caller’s own; server-wide figures are the operator’s', () => {
    it('counts only the caller’s sockets and says nothing server-wide', async () => {
      const other = await s.register();
      const mine = [await s.socket('/ws/updates', token), await s.socket('/ws/system', token)];
      const theirs = [
        await s.socket('/ws/updates', other.token),
        await s.socket('/ws/updates', other.token),
        await s.socket('/ws/updates', other.token),
      ];
      // Every socket is registered once the other user's own count says 3: wait for that, not for a fixed time.
      await vi.waitFor(
        async () => expect((await s.api('GET', '/monitor/stats', { token: other.token })).body.sockets).toBe(3),
        { timeout: 5_000, interval: 20 },
      );
      const r = await s.api('GET', '/monitor/stats', { token });
      expect(r.body.sockets).toBe(2);
      expect(r.status).toBe(200);
      expect(r.body).not.toHaveProperty('memory_mb');
      expect(r.body).not.toHaveProperty('uptime_s');
      for (const ws of [...mine, ...theirs]) ws.close();
    });

    it('/monitor/server needs OPERATOR_TOKEN', async () => {
      expect((await s.api('GET', '/monitor/server', { token })).status).toBe(401);
      const op = await s.api('GET', '/monitor/server', { token: 'operator-secret-123' });
      expect(op.status).toBe(200);
      expect(op.body).toMatchObject({
        users: expect.any(Number),
        sockets: expect.any(Number),
        memory_mb: expect.any(Number),
      });
    });
  });

  describe('8. per-user limits', () => {
    it('agents per discussion', async () => {
      const c = await openDiscussion(s, '/ws/discuss', token, {
        agent_ids: agentIds,
        session_id: sessionId('many'),
        context: 'Topic',
      });
      const closed = await c.waitClose();
      // A limit is 1013 (try again later) with a sentence to show, never 1008 (authentication).
      expect(closed).toEqual({
        code: 1013,
        reason: 'At most 2 agents may take part in one discussion; 3 were chosen.',
      });
      expect(c.frames.find((f) => f.type === 'error')).toMatchObject({
        fatal: true,
        message: expect.stringContaining('MAX_AGENTS_PER_DISCUSSION'),
      });
    });

    it('concurrent running discussions per user', async () => {
      const cfg = () => ({ agent_ids: agentIds.slice(0, 2), session_id: sessionId('run'), context: 'Topic' });
      const a = await openDiscussion(s, '/ws/discuss', token, cfg());
      await a.waitType('discussion_started');
      const b = await openDiscussion(s, '/ws/discuss', token, cfg());
      await b.waitType('discussion_started');
      const c = await openDiscussion(s, '/ws/discuss', token, cfg());
      expect(await c.waitClose()).toEqual({
        code: 1013,
        reason: 'You already have 2 discussions running. Stop one or wait for one to end, then try again.',
      });
      expect(c.frames.find((f) => f.type === 'error')?.message).toContain('MAX_RUNNING_DISCUSSIONS_PER_USER');
      // Another user is not held back by this one's discussions.
      const other = await s.register();
      const theirAgents = await makeAgents(s, other.token, 2);
      const d = await openDiscussion(s, '/ws/discuss', other.token, {
        agent_ids: theirAgents,
        session_id: sessionId('other'),
        context: 'Topic',
      });
      await d.waitType('discussion_started');
      // Stopping one makes room again.
      a.send({ type: 'stop' });
      await a.waitClose();
      const e = await openDiscussion(s, '/ws/discuss', token, cfg());
      await e.waitType('discussion_started');
      for (const x of [b, d, e]) x.send({ type: 'stop' });
      await Promise.all([b, d, e].map((x) => x.waitClose()));
    });

    it('TTS text length and the stored-speech quota', async () => {
      const long = await s.api('POST', '/api/tts/speak', { token, body: { text: 'a'.repeat(501) } });
      expect(long.status).toBe(422);
      expect(long.body.detail).toContain('TTS_MAX_TEXT_LENGTH');
      // Each fake clip is ~3 KB against a ~4 KB quota: the second fits, the third is refused.
      expect((await s.api('POST', '/api/tts/speak', { token, body: { text: 'One.' } })).status).toBe(200);
      expect((await s.api('POST', '/api/tts/speak', { token, body: { text: 'Two.' } })).status).toBe(200);
      const over = await s.api('POST', '/api/tts/speak', { token, body: { text: 'Three.' } });
      expect(over.status).toBe(429);
      expect(over.body.detail).toContain('TTS_QUOTA_MB');
      // Another user has their own quota.
      const other = await s.register();
      expect((await s.api('POST', '/api/tts/speak', { token: other.token, body: { text: 'Mine.' } })).status).toBe(200);
    });

    it('stored reference audio per user', async () => {
      expect((await upload(s, token, agentIds[1], AUDIO_SAMPLES.wav.bytes, 'a.wav')).status).toBe(201);
      const over = await upload(s, token, agentIds[1], AUDIO_SAMPLES.wav.bytes, 'b.wav');
      expect(over.status).toBe(413);
      expect(isDetail(over)).toBe(true);
      expect((await s.api('GET', `/agents/${agentIds[1]}/audio`, { token })).body).toHaveLength(1);
    });
  });

  describe('9. socket Origin', () => {
    it('accepts no Origin, the same origin and a configured one; refuses others with 1008', async () => {
      for (const origin of [undefined, s.url, 'http://allowed.example']) {
        const c = collect(await socketWithOrigin(s, '/ws/updates', token, origin));
        expect((await c.next('connected')).type).toBe('connected');
      }
      for (const p of ['/ws/updates', '/ws/discuss', '/ws/hybrid']) {
        const c = collect(await socketWithOrigin(s, p, token, 'http://evil.example'));
        expect(await c.closedWith()).toEqual({ code: 1008, reason: 'Origin not allowed' });
      }
    });
  });

  it("7. /health from this machine answers states only (details are the operator token's, issue 21)", async () => {
    const r = await s.api('GET', '/health');
    expect(health.parse(r.body).components.database.provider).toBeUndefined();
  });
});

describe('1. the login limit and X-Forwarded-For', () => {
  it('ignores X-Forwarded-For by default, and register shares the limit', async () => {
    const s = await startTestServer({ loginRateLimit: 3 });
    try {
      const wrong = { email: 'x@y.z', password: 'wrong-pass' };
      for (let i = 0; i < 3; i++) expect((await s.api('POST', '/auth/login', { body: wrong })).status).toBe(401);
      expect((await s.api('POST', '/auth/login', { body: wrong })).status).toBe(429);
      const forged = await raw(s, 'POST', '/auth/login', {
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.77' },
        body: JSON.stringify(wrong),
      });
      expect(forged.status).toBe(429);
      expect(isDetail(forged)).toBe(true);
      const reg = await s.api('POST', '/auth/register', {
        body: { email: 'new@example.com', password: 'secret-pass' },
      });
      expect(reg.status).toBe(429);
    } finally {
      await s.close();
    }
  });

  it('honours X-Forwarded-For from a configured proxy, and /health without a token says only statuses', async () => {
    const s = await startTestServer({
      loginRateLimit: 3,
      trustProxy: ['127.0.0.1'],
      operatorToken: 'operator-token-0123',
    });
    try {
      const wrong = JSON.stringify({ email: 'x@y.z', password: 'wrong-pass' });
      const from = (ip: string, body = wrong, p = '/auth/login') =>
        raw(s, 'POST', p, { headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body });
      for (let i = 0; i < 3; i++) expect((await from('198.51.100.77')).status).toBe(401);
      expect((await from('198.51.100.77')).status).toBe(429);
      expect((await from('198.51.100.78')).status).toBe(401);

      const pub = await raw(s, 'GET', '/health', { headers: { 'x-forwarded-for': '198.51.100.9' } });
      expect(pub.status).toBe(200);
      expect(health.parse(pub.body).version).toBe('2.1.0');
      for (const c of Object.values(pub.body.components)) expect(Object.keys(c as object)).toEqual(['status']);
      expect(JSON.stringify(pub.body)).not.toMatch(/http|ECONN|\//);

      const reg = await from(
        '198.51.100.10',
        JSON.stringify({ email: 'h@example.com', password: 'secret-pass' }),
        '/auth/register',
      );
      // A user's token does not open the details either; only the operator token does.
      const withToken = await raw(s, 'GET', '/health', {
        headers: { 'x-forwarded-for': '198.51.100.9', authorization: `Bearer ${reg.body.access_token}` },
      });
      expect(withToken.body.components.database.provider).toBeUndefined();
      const operator = await raw(s, 'GET', '/health', {
        headers: { 'x-forwarded-for': '198.51.100.9', authorization: 'Bearer operator-token-0123' },
      });
      expect(operator.body.components.database.provider).toBe('pglite');
    } finally {
      await s.close();
    }
  });

  it('reads TRUST_PROXY as none, a hop count or a list of addresses', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8,loopback')).toEqual(['127.0.0.1', '10.0.0.0/8', 'loopback']);
    expect(() => parseTrustProxy('true')).toThrow(/TRUST_PROXY/);
  });
});
