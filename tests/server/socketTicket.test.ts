import { rm, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socketTicket } from '../../src/schemas/auth';
import { redactUrl } from '../../server/http/redact';
import { collect, startTestServer, type TestServer } from './harness';
import { startServerProcess, type ServerProcess } from './serverProcess';

// Sockets open with a single-use, short-lived ticket (POST /auth/socket-ticket) so the session token never rides
// in a URL; `?token=` keeps working for the spec's clients, and neither reaches a log.

const open = (url: string) => {
  const ws = new WebSocket(url);
  const c = collect(ws);
  return { ws, c };
};

describe('socket tickets', () => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await startTestServer();
    ({ token } = await s.register());
  });
  afterAll(() => s.close());

  const ticket = async () => {
    const r = await s.api('POST', '/auth/socket-ticket', { token });
    expect(r.status).toBe(200);
    return socketTicket.parse(r.body);
  };

  it('needs a signed-in user', async () => {
    expect((await s.api('POST', '/auth/socket-ticket')).status).toBe(401);
  });

  it('opens one socket, once', async () => {
    const t = await ticket();
    expect(t.expires_in).toBe(30);
    const first = open(`${s.wsUrl}/ws/updates?ticket=${t.ticket}`);
    expect(await first.c.next('connected')).toMatchObject({ channel: 'updates' });
    const again = open(`${s.wsUrl}/ws/updates?ticket=${t.ticket}`);
    expect(await again.c.closedWith()).toMatchObject({ code: 1008 });
    first.ws.close();
  });

  it('refuses an expired, unknown or empty ticket with 1008, and a discussion socket takes one too', async () => {
    const t = await ticket();
    await s.server.ctx.db.query("UPDATE socket_tickets SET expires_at = now() - interval '1 second'");
    for (const q of [`ticket=${t.ticket}`, 'ticket=made-up', 'ticket=']) {
      const { c } = open(`${s.wsUrl}/ws/system?${q}`);
      expect(await c.closedWith(), q).toMatchObject({ code: 1008, reason: 'Authentication failed' });
    }
    const fresh = await ticket();
    const d = open(`${s.wsUrl}/ws/discuss?ticket=${fresh.ticket}`);
    await new Promise((r) => d.ws.once('open', r));
    d.ws.send(JSON.stringify({ topic: 'x', agents: [] }));
    // Past the ticket: the configuration is judged (and refused for naming no agents), not the credential.
    expect(await d.c.next('error')).toMatchObject({ type: 'error' });
    expect((await d.c.closedWith()).code).not.toBe(1008);
  });

  it('leaves ?token= working', async () => {
    const { ws, c } = open(`${s.wsUrl}/ws/updates?token=${encodeURIComponent(token)}`);
    expect(await c.next('connected')).toMatchObject({ channel: 'updates' });
    ws.close();
  });

  it('redacts both in a logged URL', () => {
    expect(redactUrl('/ws/discuss?token=a.b.c&x=1')).toBe('/ws/discuss?token=[redacted]&x=1');
    expect(redactUrl('/ws/updates?x=1&ticket=abc')).toBe('/ws/updates?x=1&ticket=[redacted]');
  });
});

describe('a server process at its most talkative log level', () => {
  let dataDir: string;
  let server: ServerProcess;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'agora-tickets-'));
    // A cold start under a busy test run can be slow.
    server = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'trace' }, 150_000);
  }, 180_000);
  afterAll(async () => {
    await server?.kill();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('logs neither a socket token nor a ticket', { timeout: 60_000 }, async () => {
    const post = (p: string, headers: Record<string, string>, body?: unknown) =>
      fetch(server.url + p, {
        method: 'POST',
        headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      }).then((r) => r.json());
    const { access_token: token } = await post(
      '/auth/register',
      {},
      { email: 'logs@example.com', password: 'secret-pass' },
    );
    const { ticket } = await post('/auth/socket-ticket', { authorization: `Bearer ${token}` });
    for (const q of [`ticket=${ticket}`, `token=${token}`]) {
      const { ws, c } = open(`${server.wsUrl}/ws/updates?${q}`);
      await c.next('connected');
      ws.close();
      await c.closedWith();
    }
    // The request lines were logged (so the check below is not vacuous), with the credentials redacted.
    await expect.poll(() => server.output(), { timeout: 10_000 }).toContain('/ws/updates?ticket=[redacted]');
    const log = server.output();
    expect(log).toContain('/ws/updates?token=[redacted]');
    expect(log).not.toContain(token);
    expect(log).not.toContain(ticket);
  });
});
