// Start-up and /health plumbing: the background health state, the start-up line, the PGlite template
// seeding and the security headers worked out once. Behaviour only; how fast they are is the server bench's.
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDb } from '../../server/db/db';
import { seedDataDir } from '../../server/db/pgliteTemplate';
import { CSP_DIRECTIVES, secureResponseClass, securityHeaders } from '../../server/http/security';
import { startHealthMonitor } from '../../server/providers/healthMonitor';
import { startupTimer } from '../../server/startupTimer';
import type { Health } from '../../src/schemas/system';

const state = (status: Health['status']): Health => ({
  status,
  version: 'test',
  components: {
    database: { status: 'ok' },
    llm: { status: 'ok' },
    speech: { status: 'disabled' },
    transcription: { status: 'disabled' },
  } as Health['components'],
});

describe('the health monitor', () => {
  afterEach(() => vi.useRealTimers());

  it('answers every reader from the last probe and probes again on its own clock, never per read', async () => {
    vi.useFakeTimers();
    let probes = 0;
    const monitor = startHealthMonitor(async () => state(++probes === 1 ? 'healthy' : 'degraded'), 2000);
    expect(await monitor.current()).toMatchObject({ status: 'healthy' }); // the first read waits for the first probe
    for (let i = 0; i < 100; i++) expect(monitor.current()).toMatchObject({ status: 'healthy' });
    expect(probes).toBe(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(probes).toBe(2);
    expect(monitor.current()).toMatchObject({ status: 'degraded' });
    monitor.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(probes).toBe(2);
  });

  it('never starts a probe while one is still running', async () => {
    vi.useFakeTimers();
    let running = 0;
    let most = 0;
    const monitor = startHealthMonitor(async () => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 5000)); // a probe slower than the refresh period
      running--;
      return state('healthy');
    }, 1000);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(most).toBe(1);
    monitor.stop();
  });
});

describe('the start-up line', () => {
  it('names each phase with its time and note, the first counted from the process start', () => {
    const timer = startupTimer();
    timer.mark('modules');
    timer.mark('database', 'copied');
    timer.mark('listen');
    expect(timer.line()).toMatch(/^started in \d+ ms: modules \d+, database \d+ \(copied\), listen \d+$/);
    const [total, modules] = [/started in (\d+)/, /modules (\d+)/].map((re) => Number(re.exec(timer.line())![1]));
    expect(modules).toBeGreaterThan(0); // this process started before the test ran
    expect(total).toBeGreaterThanOrEqual(modules);
  });
});

describe('a new PGlite data directory', () => {
  const dirs: string[] = [];
  const temp = () => {
    const d = mkdtempSync(path.join(tmpdir(), 'agora-seed-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('starts as a copy of the template cluster; an existing one is left alone', async () => {
    const template = path.join(temp(), 'pgdata-x');
    mkdirSync(path.join(template, 'base'), { recursive: true });
    writeFileSync(path.join(template, 'PG_VERSION'), '17\n');
    writeFileSync(path.join(template, 'base', 'file'), 'cluster');
    const fresh = path.join(temp(), 'pgdata');
    expect(await seedDataDir(fresh, template)).toBe('copied');
    expect(readFileSync(path.join(fresh, 'base', 'file'), 'utf8')).toBe('cluster');

    writeFileSync(path.join(fresh, 'base', 'file'), 'my data');
    expect(await seedDataDir(fresh, template)).toBe('existing');
    expect(readFileSync(path.join(fresh, 'base', 'file'), 'utf8')).toBe('my data');
  });

  it("falls back to PGlite's own initdb when there is no place for a template", async () => {
    const fresh = path.join(temp(), 'pgdata');
    expect(await seedDataDir(fresh, null)).toBe('initdb');
  });

  it('opens with a 32 MB buffer pool, on disk and in memory, and keeps the setting out of the cluster', async () => {
    const dataDir = temp();
    for (const databaseUrl of [undefined, 'memory://']) {
      const db = await openDb({ databaseUrl, dataDir });
      try {
        expect(await db.query("SELECT current_setting('shared_buffers') AS sb")).toEqual([{ sb: '32MB' }]);
      } finally {
        await db.close();
      }
    }
    expect(readFileSync(path.join(dataDir, 'pgdata', 'postgresql.conf'), 'utf8')).toMatch(/^shared_buffers = 128MB/m);
  });
});

describe('the security headers', () => {
  it('are worked out once, with the whole CSP and no HSTS', () => {
    const h = securityHeaders();
    for (const [name, values] of Object.entries(CSP_DIRECTIVES))
      expect(h['content-security-policy']).toContain(`${name} ${values.join(' ')}`);
    expect(h).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
    });
    expect(h).not.toHaveProperty('strict-transport-security');
    expect(Object.isFrozen(h)).toBe(true);
  });

  /** Serves one answer from a node server with the secure response class; resolves to its headers (repeats joined). */
  async function answer(handler: RequestListener) {
    const server = createServer({ ServerResponse: secureResponseClass() }, handler);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      await res.arrayBuffer();
      return res.headers;
    } finally {
      await new Promise((done) => server.close(done));
    }
  }

  it('ride on every head, whichever way it was written, once each; a header the answer set itself wins', async () => {
    const all = securityHeaders();
    const heads: Record<string, RequestListener> = {
      implicit: (_req, res) => res.end('x'),
      object: (_req, res) => res.writeHead(200, { 'x-frame-options': 'SAMEORIGIN' }).end('x'),
      flat: (_req, res) => res.writeHead(200, ['X-Frame-Options', 'SAMEORIGIN']).end('x'),
      pairs: (_req, res) => res.writeHead(200, [['x-frame-options', 'SAMEORIGIN']] as unknown as string[]).end('x'),
      progressive: (_req, res) => (res.setHeader('X-Frame-Options', 'SAMEORIGIN'), res.end('x')),
    };
    for (const [how, handler] of Object.entries(heads)) {
      const h = await answer(handler);
      for (const [name, value] of Object.entries(all)) {
        expect(h.get(name), `${how}: ${name}`).toBe(
          name === 'x-frame-options' && how !== 'implicit' ? 'SAMEORIGIN' : value,
        );
      }
    }
  });
});
