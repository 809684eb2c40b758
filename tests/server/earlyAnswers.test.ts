import { request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { health } from '../../src/schemas/system';
import { EarlyAnswers } from '../../server/http/earlyAnswers';
import { secureServerFactory, securityHeaders } from '../../server/http/security';
import { startTestServer, type TestServer } from './harness';

// GET /health is answered before Fastify's router (http/earlyAnswers.ts): the same answer as the router's, headers
// included, and only for the exact address and method it was given.

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

function ask(port: number, method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The head without the lines that change from one answer to the next. */
const steady = (h: Answer['headers']) => {
  const { date: _date, ...rest } = h;
  return rest;
};

describe('the server factory with early answers', () => {
  let server: Server;
  let port: number;
  const routed = vi.fn((_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('router');
  });
  let passOn = false;

  beforeAll(async () => {
    const early = new EarlyAnswers();
    early.get('/health', (_req, res) => {
      if (passOn) return false;
      res.writeHead(200, ['content-type', 'application/json', 'content-length', '2']);
      res.end('{}');
      return true;
    });
    server = secureServerFactory(early)(routed, {}) as Server;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('answers GET of the exact address without the router, with every security header', async () => {
    routed.mockClear();
    const a = await ask(port, 'GET', '/health');
    expect(a.body).toBe('{}');
    expect(routed).not.toHaveBeenCalled();
    for (const [name, value] of Object.entries(securityHeaders())) expect(a.headers[name]).toBe(value);
  });

  it('passes on any other method, a query string, another address, and what the answer declines', async () => {
    routed.mockClear();
    for (const [method, path] of [
      ['HEAD', '/health'],
      ['POST', '/health'],
      ['GET', '/health?full=1'],
      ['GET', '/health/'],
      ['GET', '/Health'],
    ] as const) {
      const a = await ask(port, method, path);
      expect(a.status).toBe(200);
      if (method !== 'HEAD') expect(a.body).toBe('router');
    }
    expect(routed).toHaveBeenCalledTimes(5);
    passOn = true;
    expect((await ask(port, 'GET', '/health')).body).toBe('router');
    passOn = false;
  });

  it('still refuses a NUL in the address first', async () => {
    const a = await ask(port, 'GET', '/health%00');
    expect(a.status).toBe(400);
  });
});

describe("the server's GET /health before the router", () => {
  let s: TestServer;
  let port: number;
  beforeAll(async () => {
    s = await startTestServer({ operatorToken: 'operator-token-early-01' });
    port = Number(new URL(s.url).port);
    // The router answers until the first probe is in; wait for it.
    await s.api('GET', '/health');
  });
  afterAll(() => s.close());

  it('is the router answer: status, body and head alike, for the public and for the operator', async () => {
    for (const headers of [{}, { authorization: 'Bearer operator-token-early-01' }] as Record<string, string>[]) {
      const early = await ask(port, 'GET', '/health', headers);
      // A query string goes to the router's /health route.
      const routed = await ask(port, 'GET', '/health?via=router', headers);
      expect(early.status).toBe(200);
      expect(early.body).toBe(routed.body);
      expect(steady(early.headers)).toEqual(steady(routed.headers));
      expect(health.parse(JSON.parse(early.body)).status).toBe('healthy');
    }
    const pub = JSON.parse((await ask(port, 'GET', '/health')).body);
    expect(pub.components.database.provider).toBeUndefined();
    const op = JSON.parse(
      (await ask(port, 'GET', '/health', { authorization: 'Bearer operator-token-early-01' })).body,
    );
    expect(op.components.database.provider).toBe('pglite');
  });

  it('is given before the router, and HEAD and OPTIONS still reach the route', async () => {
    const res = { writeHead: vi.fn(), end: vi.fn() };
    const req = { method: 'GET', url: '/health', headers: {} };
    expect(s.server.app.earlyAnswers.answer(req as never, res as never)).toBe(true);
    expect(res.writeHead.mock.calls[0]![0]).toBe(200);
    expect(JSON.parse(res.end.mock.calls[0]![0])).toMatchObject({ status: 'healthy' });
    const head = await ask(port, 'HEAD', '/health');
    expect(head.status).toBe(200);
    expect(head.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const options = await ask(port, 'OPTIONS', '/health');
    expect(options.status).toBe(204);
    expect(options.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('stops once the server starts to close, so the router answers (503 while closing)', async () => {
    const c = await startTestServer();
    expect((await c.api('GET', '/health')).status).toBe(200);
    const req = { method: 'GET', url: '/health', headers: {} };
    const res = { writeHead: vi.fn(), end: vi.fn() };
    expect(c.server.app.earlyAnswers.answer(req as never, res as never)).toBe(true);
    await c.close();
    expect(c.server.app.earlyAnswers.answer(req as never, res as never)).toBe(false);
  });

  it('is not given while every request is logged (LOG_LEVEL=debug), so the log shows the probes', async () => {
    const d = await startTestServer({ logLevel: 'debug' });
    try {
      expect((await d.api('GET', '/health')).status).toBe(200);
      const req = { method: 'GET', url: '/health', headers: {} };
      expect(d.server.app.earlyAnswers.answer(req as never, {} as never)).toBe(false);
    } finally {
      await d.close();
    }
  });
});
