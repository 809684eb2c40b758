import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { lazyChildLoggerFactory, LazyRequestLogger } from '../../server/http/lazyLogger';

/** A Fastify app logging JSON lines into `lines`, with the lazy request loggers. */
function app(lines: Record<string, unknown>[]) {
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  return Fastify({
    logger: { level: 'info', stream },
    childLoggerFactory: lazyChildLoggerFactory,
    disableRequestLogging: true,
  });
}

describe('request loggers made when first used', () => {
  it('a request that logs nothing makes no pino child; one that logs writes with its request id', async () => {
    const lines: Record<string, unknown>[] = [];
    const a = app(lines);
    let quiet: unknown;
    a.get('/quiet', async (req) => {
      quiet = req.log;
      return { ok: true };
    });
    a.get('/loud', async (req) => {
      req.log.warn({ n: 1 }, 'careful %s', 'now');
      return { ok: true };
    });
    await a.ready();
    const child = vi.spyOn(a.log, 'child');
    await a.inject('/quiet');
    expect(quiet).toBeInstanceOf(LazyRequestLogger);
    expect(child).not.toHaveBeenCalled();
    await a.inject('/loud');
    expect(child).toHaveBeenCalledTimes(1);
    const line = lines.find((l) => l.msg === 'careful now');
    expect(line).toMatchObject({ level: 40, n: 1, reqId: expect.any(String) });
    await a.close();
  });

  it('follows the parent level and a route level, and below it writes nothing', async () => {
    const lines: Record<string, unknown>[] = [];
    const a = app(lines);
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
});
