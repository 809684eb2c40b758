import { Writable } from 'node:stream';
import Fastify from 'fastify';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { LazyLogger, lazyLogger } from '../../server/http/lazyLogger';

/** A Fastify app logging JSON lines into `lines` through the lazy logger, as the server does; `children` spies on its pino's child(). */
function app(lines: Record<string, unknown>[]) {
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  const root = pino(
    {
      level: 'info',
      serializers: { req: (req: { url: string }) => ({ url: req.url.replace(/token=[^&]*/, 'token=…') }) },
    },
    stream,
  );
  const children = vi.spyOn(root, 'child');
  return { app: Fastify({ loggerInstance: lazyLogger(root), disableRequestLogging: true }), children };
}

describe('request loggers made when first used', () => {
  it('a request that logs nothing makes no pino child; one that logs writes with its request id', async () => {
    const lines: Record<string, unknown>[] = [];
    const { app: a, children } = app(lines);
    let quiet: LazyLogger | null = null;
    a.get('/quiet', async (req) => {
      quiet = req.log as LazyLogger;
      return { ok: true };
    });
    a.get('/loud', async (req) => {
      req.log.warn({ n: 1 }, 'careful %s', 'now');
      return { ok: true };
    });
    await a.ready();
    await a.inject('/quiet');
    expect(quiet).toBeInstanceOf(LazyLogger);
    // Nothing was written, so no pino child was made, for the request or above it.
    expect(children).not.toHaveBeenCalled();
    // The first write makes the server's child (Fastify's own logger, made once) and the request's (pino's
    // children inherit the spied method); the next request's write makes only its own.
    await a.inject('/loud');
    expect(children).toHaveBeenCalledTimes(2);
    await a.inject('/loud');
    expect(children).toHaveBeenCalledTimes(3);
    const line = lines.find((l) => l.msg === 'careful now');
    expect(line).toMatchObject({ level: 40, n: 1, reqId: expect.any(String) });
    await a.close();
  });

  it('follows the parent level and a route level, and below it writes nothing', async () => {
    const lines: Record<string, unknown>[] = [];
    const { app: a } = app(lines);
    a.get('/debug', { logLevel: 'debug' }, async (req) => {
      req.log.debug('seen at debug');
      return { level: req.log.level };
    });
    a.get('/info', async (req) => {
      req.log.debug('not seen');
      return { level: req.log.level };
    });
    expect((await a.inject('/debug')).json()).toEqual({ level: 'debug' });
    expect((await a.inject('/info')).json()).toEqual({ level: 'info' });
    expect(lines.map((l) => l.msg)).toEqual(['seen at debug']);
    await a.close();
  });

  it("keeps the given req serializer over Fastify's, and Fastify's for errors", async () => {
    const lines: Record<string, unknown>[] = [];
    const { app: a } = app(lines);
    a.get('/fails', async (req) => {
      req.log.error({ req, err: new Error('boom') }, 'failed');
      return { ok: false };
    });
    await a.inject('/fails?token=secret');
    const line = lines.find((l) => l.msg === 'failed') as {
      req: { url: string };
      err: { message: string; stack: string };
    };
    expect(line.req).toEqual({ url: '/fails?token=…' });
    expect(line.err.message).toBe('boom');
    expect(line.err.stack).toContain('Error: boom');
    await a.close();
  });
});
