import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginResponse, user } from '../../src/schemas/auth';
import { health } from '../../src/schemas/system';
import { collect, startTestServer, type TestServer } from './harness';

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('auth and system routes against the real server', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('registers, rejects a duplicate, logs in and answers /auth/me', async () => {
    const reg = await s.api('POST', '/auth/register', { body: { email: 'Ada@Example.com', password: 'secret-1' } });
    expect(reg.status).toBe(200);
    const body = loginResponse.parse(reg.body);
    expect(body.access_token?.split('.')).toHaveLength(3);
    expect(body.user?.email).toBe('ada@example.com');

    const dup = await s.api('POST', '/auth/register', { body: { email: 'ada@example.com', password: 'other-pass' } });
    expect(dup).toMatchObject({ status: 400, body: { detail: 'Email already registered' } });

    const login = await s.api('POST', '/auth/login', { body: { email: 'ada@example.com', password: 'secret-1' } });
    expect(login.status).toBe(200);
    const me = await s.api('GET', '/auth/me', { token: login.body.access_token });
    expect(me.status).toBe(200);
    expect(user.parse(me.body).email).toBe('ada@example.com');

    const refreshed = await s.api('POST', '/auth/refresh', { token: login.body.access_token });
    expect(refreshed.status).toBe(200);
    expect(typeof refreshed.body.access_token).toBe('string');
  });

  it('answers 401 with a detail for a wrong password and an unknown email', async () => {
    await s.register('bob@example.com', 'right-pass');
    for (const body of [
      { email: 'bob@example.com', password: 'wrong-pass' },
      { email: 'nobody@example.com', password: 'whatever' },
    ]) {
      const r = await s.api('POST', '/auth/login', { body });
      expect(r.status).toBe(401);
      expect(typeof r.body.detail).toBe('string');
    }
  });

  it('answers 422 for malformed bodies', async () => {
    for (const body of [
      {},
      { email: 'no-at-sign', password: 'secret-1' },
      { email: 'a@b.c', password: '123' },
      'not json',
    ]) {
      const r = await s.api('POST', '/auth/login', { body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.detail).toBeTruthy();
    }
  });

  it('rejects missing, expired, wrongly signed and alg:none tokens', async () => {
    const { userId, token } = await s.register();
    expect((await s.api('GET', '/auth/me')).status).toBe(401);
    const secret = new TextEncoder().encode('test-secret-0123456789abcdef');
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(secret);
    const wrongKey = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-entirely-0000'));
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: userId, exp: Math.floor(Date.now() / 1000) + 3600 })}.`;
    const [h, , sig] = token.split('.');
    const tampered = `${h}.${b64({ sub: 'someone-else', exp: Math.floor(Date.now() / 1000) + 3600 })}.${sig}`;
    for (const bad of [expired, wrongKey, none, tampered, 'garbage']) {
      const r = await s.api('GET', '/auth/me', { token: bad });
      expect(r.status).toBe(401);
      expect(r.body.detail).toBeTruthy();
    }
  });

  it('limits login attempts', async () => {
    const limited = await startTestServer({ loginRateLimit: 3 });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 5; i++)
        codes.push(
          (await limited.api('POST', '/auth/login', { body: { email: 'x@y.z', password: 'wrong-pass' } })).status,
        );
      expect(codes.slice(0, 3)).toEqual([401, 401, 401]);
      expect(codes[4]).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('answers /health with probed components, HEAD and OPTIONS too', async () => {
    const r = await s.api('GET', '/health');
    expect(r.status).toBe(200);
    const h = health.parse(r.body);
    expect(h.version).toBe('2.1.0');
    expect(h.components.database.status).toBe('ok');
    expect((await fetch(`${s.url}/health`, { method: 'HEAD' })).status).toBe(200);
    const opt = await fetch(`${s.url}/health`, { method: 'OPTIONS' });
    expect(opt.status).toBe(204);
    expect(opt.headers.get('allow')).toContain('GET');
  });

  it('guards /models/, /monitor/stats and /debug/info', async () => {
    const { token } = await s.register();
    for (const p of ['/models/', '/monitor/stats', '/debug/info']) expect((await s.api('GET', p)).status, p).toBe(401);
    for (const p of ['/models/', '/monitor/stats']) expect((await s.api('GET', p, { token })).status, p).toBe(200);
    // /debug/info is the operator's (the first account here, ada@example.com).
    expect(await s.api('GET', '/debug/info', { token })).toMatchObject({
      status: 403,
      body: { detail: expect.stringContaining('operator') },
    });
    const operator = await s.api('POST', '/auth/login', { body: { email: 'ada@example.com', password: 'secret-1' } });
    // A provider's detail (an address, a path, an error text) is the operator token's: /debug/info has statuses only.
    const info = await s.api('GET', '/debug/info', { token: operator.body.access_token });
    expect(info.status).toBe(200);
    for (const [k, v] of Object.entries(info.body.providers as Record<string, string>))
      expect(['ok', 'degraded', 'unavailable', 'disabled'], k).toContain(v);
    const stats = await s.api('GET', '/monitor/stats', { token });
    expect(stats.body).toMatchObject({ agents: 0, connections: 0 });
  });

  it('closes live sockets without a valid token with 1008', async () => {
    for (const p of ['/ws/updates', '/ws/system']) {
      const ws = await s.socket(p);
      expect((await collect(ws).closedWith()).code).toBe(1008);
      const ws2 = await s.socket(p, 'not-a-token');
      expect((await collect(ws2).closedWith()).code).toBe(1008);
    }
  });

  it('answers get_stats on /ws/system and keeps each user to their own sockets', async () => {
    const a = await s.register();
    const b = await s.register();
    const wsA = await s.socket('/ws/system', a.token);
    const ca = collect(wsA);
    wsA.send(JSON.stringify({ type: 'get_stats' }));
    const stats = await ca.next('stats');
    expect(stats.stats.agents).toBe(0);

    const updA = collect(await s.socket('/ws/updates', a.token));
    const wsUpdB = await s.socket('/ws/updates', b.token);
    const updB = collect(wsUpdB);
    await updA.next('connected');
    await updB.next('connected');
    s.server.ctx.hub.broadcast(a.userId, { type: 'agent_deleted', agent_id: 'x1' });
    await updA.next('agent_deleted');
    // A ping after the broadcast is answered after anything the broadcast had sent B.
    wsUpdB.send(JSON.stringify({ type: 'ping' }));
    await updB.next('pong');
    expect(updB.frames.map((f) => f.type)).toEqual(['connected', 'pong']);
    wsA.close();
  });
});
