import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinConfigFrom } from '../../../server/providers/llm/builtin/config';
import { startLoopback } from '../../support/loopback';
import { tinyGguf } from '../../support/tinyGguf';
import { startTestServer, type TestServer } from '../harness';

// Built-in model downloads a user starts: owned by them, bounded in count, bytes and disk, judged by their first
// bytes, and a cancel that names a download and nothing else.

const model = tinyGguf({ seed: 5 });
let s: TestServer;
let files: Awaited<ReturnType<typeof startLoopback>>;
let dataDir: string;
let modelsDir: string;
let importDir: string;
const zeros = { sent: 0, closed: false };
// Downloads are the operators' (server/auth/operator.ts): every account here is one, so ownership is what differs.
const OPERATORS = Array.from({ length: 8 }, (_, i) => `operator${i}@caps.example.com`);
let operators = 0;
const registerOperator = () => s.register(OPERATORS[operators++]);
let releaseSlow: (() => void) | null = null;

beforeAll(async () => {
  files = await startLoopback(async (req, res: ServerResponse) => {
    if (req.url.startsWith('/zeros')) {
      // 50 MB of something that is not a model; the download must stop at its first bytes.
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.on('close', () => (zeros.closed = true));
      const chunk = Buffer.alloc(64 * 1024);
      while (zeros.sent < 50 * 1024 * 1024 && !zeros.closed) {
        zeros.sent += chunk.length;
        if (!res.write(chunk)) await new Promise((r) => setTimeout(r, 5));
      }
      return res.end();
    }
    if (req.url.startsWith('/slow/')) {
      res.writeHead(200, { 'content-length': model.length });
      res.write(model.subarray(0, 1000));
      await new Promise<void>((r) => (releaseSlow = r));
      return res.end(model.subarray(1000));
    }
    res.writeHead(200, { 'content-length': model.length });
    res.end(model);
  });
  dataDir = mkdtempSync(path.join(tmpdir(), 'agora-caps-'));
  modelsDir = path.join(dataDir, 'models');
  importDir = mkdtempSync(path.join(tmpdir(), 'agora-caps-import-'));
  s = await startTestServer({
    dataDir,
    adminEmails: OPERATORS,
    builtin: {
      ...builtinConfigFrom({}, dataDir),
      importDirs: [importDir],
      downloadAllowPrivate: true,
      maxDownloadsPerUser: 1,
      maxDownloads: 5,
      maxTotalBytes: model.length * 3,
    },
  });
}, 120_000);
afterAll(async () => {
  releaseSlow?.();
  await s.close();
  await files.close();
  rmSync(importDir, { recursive: true, force: true });
});

const settled = async (token: string, file: string) => {
  let d: { state: string; error: string | null } | undefined;
  await expect
    .poll(
      async () => {
        d = (await s.api('GET', '/api/builtin-models', { token })).body.downloads.find(
          (x: { file: string }) => x.file === file,
        );
        return d && !['running', 'verifying'].includes(d.state);
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return d!;
};

describe('built-in model downloads', () => {
  it('stop at the first bytes when they are not GGUF, and remove what was written', async () => {
    const { token } = await registerOperator();
    expect(
      (await s.api('POST', '/api/builtin-models/downloads', { token, body: { url: `${files.url}/zeros/z.gguf` } }))
        .status,
    ).toBe(202);
    const d = await settled(token, 'z.gguf');
    expect(d).toMatchObject({ state: 'failed', error: expect.stringContaining('not a GGUF model') });
    await expect.poll(() => zeros.closed).toBe(true);
    expect(zeros.sent).toBeLessThan(20 * 1024 * 1024);
    expect(existsSync(path.join(modelsDir, 'z.gguf.part'))).toBe(false);
    expect(existsSync(path.join(modelsDir, 'z.gguf.part.json'))).toBe(false);
  });

  it('belong to their owner: another user neither lists nor cancels them; one runs per user at a time', async () => {
    const a = await registerOperator();
    const b = await registerOperator();
    expect(
      (
        await s.api('POST', '/api/builtin-models/downloads', {
          token: a.token,
          body: { url: `${files.url}/slow/mine.gguf` },
        })
      ).status,
    ).toBe(202);
    const again = await s.api('POST', '/api/builtin-models/downloads', {
      token: a.token,
      body: { url: `${files.url}/m/second.gguf` },
    });
    expect(again).toMatchObject({
      status: 429,
      body: { detail: expect.stringContaining('BUILTIN_MAX_DOWNLOADS_PER_USER') },
    });
    const listA = (await s.api('GET', '/api/builtin-models', { token: a.token })).body.downloads.map(
      (d: { file: string }) => d.file,
    );
    const listB = (await s.api('GET', '/api/builtin-models', { token: b.token })).body.downloads.map(
      (d: { file: string }) => d.file,
    );
    expect(listA).toContain('mine.gguf');
    expect(listB).not.toContain('mine.gguf');
    expect((await s.api('DELETE', '/api/builtin-models/downloads/mine.gguf', { token: b.token })).status).toBe(404);
    // Nor may they take the file over by starting the same name.
    expect(
      (
        await s.api('POST', '/api/builtin-models/downloads', {
          token: b.token,
          body: { url: `${files.url}/m/mine.gguf` },
        })
      ).status,
    ).toBe(409);
    expect((await s.api('DELETE', '/api/builtin-models/downloads/mine.gguf', { token: a.token })).status).toBe(204);
    releaseSlow?.();
    expect(existsSync(path.join(modelsDir, 'mine.gguf.part'))).toBe(false);
  });

  it('cancel names a download only: a path is not one and touches nothing', async () => {
    const { token } = await registerOperator();
    const victim = path.join(dataDir, 'victim');
    writeFileSync(`${victim}.part`, 'keep me');
    writeFileSync(`${victim}.part.json`, JSON.stringify({ url: 'http://x/victim.gguf' }));
    for (const name of ['..%2Fvictim', '..%2F..%2Fx', '%2E%2E%2Fvictim', 'victim']) {
      const r = await s.api('DELETE', `/api/builtin-models/downloads/${name}`, { token });
      expect({ name, status: r.status }).toEqual({ name, status: 404 });
    }
    expect(existsSync(`${victim}.part`)).toBe(true);
    expect(existsSync(`${victim}.part.json`)).toBe(true);
  });

  it('stop at the models directory total, refuse a malformed URL clearly, and never say what exists outside the import directories', async () => {
    const { token } = await registerOperator();
    mkdirSync(modelsDir, { recursive: true });
    writeFileSync(path.join(modelsDir, 'filler.gguf'), Buffer.alloc(model.length * 3));
    const full = await s.api('POST', '/api/builtin-models/downloads', {
      token,
      body: { url: `${files.url}/m/more.gguf` },
    });
    expect(full).toMatchObject({ status: 507, body: { detail: expect.stringContaining('BUILTIN_MODELS_MAX_GB') } });
    rmSync(path.join(modelsDir, 'filler.gguf'));

    const bad = await s.api('POST', '/api/builtin-models/downloads', {
      token,
      body: { url: `${files.url}/m/%E0%A4%A.gguf` },
    });
    expect(bad).toMatchObject({ status: 422, body: { detail: expect.stringContaining('percent-encoding') } });

    for (const p of ['/etc/passwd', '/no/such/file.gguf', path.join(dataDir, 'victim.part')]) {
      const r = await s.api('POST', '/api/builtin-models/files', { token, body: { path: p } });
      expect({ p, status: r.status }).toEqual({ p, status: 403 });
    }
    expect(
      (
        await s.api('POST', '/api/builtin-models/files', {
          token,
          body: { path: path.join(importDir, 'missing.gguf') },
        })
      ).status,
    ).toBe(404);
  });
});

describe('free disk', () => {
  it('a download leaves BUILTIN_MIN_FREE_DISK_GB free', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agora-caps-disk-'));
    const strict = await startTestServer({
      dataDir: dir,
      builtin: { ...builtinConfigFrom({}, dir), downloadAllowPrivate: true, minFreeDiskBytes: 1e18 },
    });
    try {
      const { token } = await strict.register();
      const r = await strict.api('POST', '/api/builtin-models/downloads', {
        token,
        body: { url: `${files.url}/m/room.gguf` },
      });
      expect(r).toMatchObject({ status: 507, body: { detail: expect.stringContaining('BUILTIN_MIN_FREE_DISK_GB') } });
    } finally {
      await strict.close();
    }
  }, 120_000);
});
