import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinModelsList, modelDownload } from '../../../src/schemas/builtinModels';
import { modelConnectionList } from '../../../src/schemas/modelConnections';
import { resolveModel } from '../../../server/models/service';
import { builtinConfigFrom } from '../../../server/providers/llm/builtin/config';
import { collect, startTestServer, type TestServer } from '../harness';
import { tinyGguf } from '../../support/tinyGguf';

// Downloads against a loopback HTTP server that speaks Range like a CDN, and 'Add a file' inside and
// outside the allowed directories.

const model = tinyGguf({ seed: 3 });
const sha = createHash('sha256').update(model).digest('hex');

/** Serves `model` at /m/<name>.gguf with Range support; `cutAfter` drops the first answer's connection after so many bytes. */
function fileServer() {
  const seen: Array<{ path: string; range: string | null }> = [];
  let cutAfter = 0;
  let slowMs = 0;
  const server: Server = createServer(async (req, res) => {
    seen.push({ path: req.url ?? '', range: req.headers.range ?? null });
    if (req.url === '/redirect.gguf') {
      res.writeHead(302, { location: '/m/redirected.gguf' }).end();
      return;
    }
    if (req.url === '/text.gguf') {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': 13 }).end('<html></html>');
      return;
    }
    if (!req.url?.startsWith('/m/')) {
      res.writeHead(404).end('not here');
      return;
    }
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const from = range ? Number(range[1]) : 0;
    const body = model.subarray(from);
    res.writeHead(range ? 206 : 200, {
      'content-length': body.length,
      'accept-ranges': 'bytes',
      ...(range ? { 'content-range': `bytes ${from}-${model.length - 1}/${model.length}` } : {}),
    });
    if (cutAfter) {
      const n = cutAfter;
      cutAfter = 0;
      res.write(body.subarray(0, n), () => setTimeout(() => res.socket?.destroy(), 250));
      return;
    }
    // In slices, so progress has something to report.
    for (let i = 0; i < body.length; i += 64 * 1024) {
      if (slowMs) await new Promise((r) => setTimeout(r, slowMs));
      res.write(body.subarray(i, i + 64 * 1024));
    }
    res.end();
  });
  return {
    seen,
    cut: (n: number) => (cutAfter = n),
    slow: (ms: number) => (slowMs = ms),
    listen: () =>
      new Promise<string>((r) =>
        server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(server.address() as { port: number }).port}`)),
      ),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

let s: TestServer;
let files: ReturnType<typeof fileServer>;
let base: string;
let token: string;
let userId: string;
let importDir: string;
let outside: string;
let modelsDir: string;

const settle = async (file: string) => {
  for (let i = 0; i < 200; i++) {
    const list = builtinModelsList.parse((await s.api('GET', '/api/builtin-models', { token })).body);
    const d = list.downloads.find((x) => x.file === file);
    if (!d || !['running', 'verifying'].includes(d.state)) return { list, d };
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('download never settled');
};

beforeAll(async () => {
  files = fileServer();
  base = await files.listen();
  importDir = mkdtempSync(path.join(tmpdir(), 'agora-import-'));
  outside = mkdtempSync(path.join(tmpdir(), 'agora-outside-'));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'agora-data-'));
  modelsDir = path.join(dataDir, 'models');
  s = await startTestServer({
    dataDir,
    builtin: {
      ...builtinConfigFrom({}, dataDir),
      importDirs: [importDir],
      downloadAllowPrivate: true,
      threads: 1,
      contextSize: 512,
      parallel: 1,
      idleUnloadMs: 0,
    },
  });
  ({ token, userId } = await s.register());
});
afterAll(async () => {
  await s.close();
  await files.close();
  rmSync(importDir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('/api/builtin-models', () => {
  it('needs a signed-in user', async () => {
    expect((await s.api('GET', '/api/builtin-models')).status).toBe(401);
  });

  it('lists no files at first, the recommended models with sizes and licences, and where files may be added from', async () => {
    const list = builtinModelsList.parse((await s.api('GET', '/api/builtin-models', { token })).body);
    expect(list.files).toEqual([]);
    expect(list.dir).toBe(modelsDir);
    expect(list.import_dirs).toEqual([importDir]);
    expect(list.recommended.map((m) => m.label)).toEqual([
      'Qwen3 0.6B',
      'Gemma 3 1B',
      'Llama 3.2 1B Instruct',
      'SmolLM2 1.7B Instruct',
      'Qwen3 1.7B',
      'Llama 3.2 3B Instruct',
      'Phi-4-mini Instruct',
      'Qwen3 4B Instruct 2507',
    ]);
    expect(
      list.recommended.every(
        (m) =>
          m.bytes > 0 &&
          m.licence &&
          m.url.startsWith('https://') &&
          m.url.endsWith(`/${m.file}`) &&
          m.ram_bytes > m.bytes,
      ),
    ).toBe(true);
    // Marked for this server's memory, read now, with the one to suggest.
    expect(list.system!.total_bytes).toBeGreaterThan(0);
    expect(list.system!.cpus).toBeGreaterThan(0);
    expect(list.recommended.every((m) => ['fits', 'may_be_slow', 'too_big'].includes(m.fit!))).toBe(true);
    if (list.suggested) expect(list.recommended.find((m) => m.id === list.suggested)!.fit).not.toBe('too_big');
  });

  it('a download that cannot reach its server says what to do instead: the models folder, then Refresh', async () => {
    // A port nothing listens on: the connection is refused, as a server without a route out sees it.
    const closed = createServer();
    const port = await new Promise<number>((r) =>
      closed.listen(0, '127.0.0.1', () => r((closed.address() as { port: number }).port)),
    );
    await new Promise<void>((r) => closed.close(() => r()));
    const r = await s.api('POST', '/api/builtin-models/downloads', {
      token,
      body: { url: `http://127.0.0.1:${port}/m/away.gguf` },
    });
    expect(r.status).toBe(202);
    const { d } = await settle('away.gguf');
    expect(d!.state).toBe('failed');
    expect(d!.error, d!.error!).toContain(`put a .gguf file in ${modelsDir}, then Refresh`);
    await s.api('DELETE', '/api/builtin-models/downloads/away.gguf', { token });
  });

  it('a .gguf file dropped into the models folder is listed on the next refresh', async () => {
    mkdirSync(modelsDir, { recursive: true });
    writeFileSync(path.join(modelsDir, 'dropped.gguf'), model);
    const list = builtinModelsList.parse((await s.api('GET', '/api/builtin-models', { token })).body);
    expect(list.files.map((f) => f.name)).toContain('dropped.gguf');
    rmSync(path.join(modelsDir, 'dropped.gguf'));
  });

  it('downloads a file with progress on /ws/updates, checks its SHA-256 and lists it as a model of the Built-in connection', async () => {
    const live = collect(await s.socket('/ws/updates', token));
    files.slow(5);
    const r = await s.api('POST', '/api/builtin-models/downloads', {
      token,
      body: { url: `${base}/m/one.gguf`, sha256: sha },
    });
    files.slow(0);
    expect(r.status).toBe(202);
    expect(modelDownload.parse(r.body)).toMatchObject({ file: 'one.gguf', state: 'running' });
    await live.until(() => live.frames.some((f) => f.type === 'model_download' && f.download.state === 'done'));
    const frames = live.frames.filter((f) => f.type === 'model_download').map((f) => modelDownload.parse(f.download));
    expect(frames.some((f) => f.state === 'running' && f.total === model.length)).toBe(true);
    expect(frames.at(-1)).toMatchObject({ state: 'done', received: model.length, total: model.length });
    // The file is now a model of the Built-in connection: the dialog is told to read the connections again.
    await live.until(() => live.frames.some((f) => f.type === 'model_connections_changed'));
    const { list } = await settle('one.gguf');
    expect(list.files).toEqual([
      expect.objectContaining({
        name: 'one.gguf',
        model: '@server-builtin/one.gguf',
        bytes: model.length,
        loaded: false,
      }),
    ]);
    expect(readFileSync(path.join(modelsDir, 'one.gguf')).equals(model)).toBe(true);
    expect(existsSync(path.join(modelsDir, 'one.gguf.part'))).toBe(false);
  });

  it('resumes an interrupted download with a Range request and ends with the whole file', async () => {
    files.cut(100_000);
    await s.api('POST', '/api/builtin-models/downloads', { token, body: { url: `${base}/m/two.gguf`, sha256: sha } });
    const first = (await settle('two.gguf')).d!;
    expect(first.state).toBe('interrupted');
    expect(first.error).toMatch(/Download of two.gguf failed/);
    // What reached the disk before the cut (the server sent 100,000 bytes).
    expect(first.received).toBeGreaterThan(0);
    expect(first.received).toBeLessThanOrEqual(100_000);
    expect(statSync(path.join(modelsDir, 'two.gguf.part')).size).toBe(first.received);
    const r = await s.api('POST', '/api/builtin-models/downloads', { token, body: { url: `${base}/m/two.gguf` } });
    expect(r.status).toBe(202);
    const { list } = await settle('two.gguf');
    expect(list.files.map((f) => f.name)).toContain('two.gguf');
    expect(files.seen.filter((x) => x.path === '/m/two.gguf').at(-1)!.range).toBe(`bytes=${first.received}-`);
    expect(readFileSync(path.join(modelsDir, 'two.gguf')).equals(model)).toBe(true);
  });

  it('removes a file whose SHA-256 does not match, and says so', async () => {
    await s.api('POST', '/api/builtin-models/downloads', {
      token,
      body: { url: `${base}/m/bad.gguf`, sha256: 'a'.repeat(64) },
    });
    const { list, d } = await settle('bad.gguf');
    expect(d).toMatchObject({ state: 'failed' });
    expect(d!.error).toMatch(/SHA-256 is [a-f0-9]{64}, not the expected a{64}; the file was removed/);
    expect(list.files.map((f) => f.name)).not.toContain('bad.gguf');
    expect(existsSync(path.join(modelsDir, 'bad.gguf.part'))).toBe(false);
  });

  it('refuses what is not a GGUF model, bad names and clashes, clearly', async () => {
    await s.api('POST', '/api/builtin-models/downloads', { token, body: { url: `${base}/text.gguf` } });
    expect((await settle('text.gguf')).d!.error).toMatch(/not a GGUF model/);
    const badName = await s.api('POST', '/api/builtin-models/downloads', { token, body: { url: `${base}/m/x.bin` } });
    expect(badName.status).toBe(422);
    expect(badName.body.detail).toMatch(/must end in .gguf/);
    const notHttp = await s.api('POST', '/api/builtin-models/downloads', {
      token,
      body: { url: 'file:///etc/passwd' },
    });
    expect(notHttp.status).toBe(422);
    const clash = await s.api('POST', '/api/builtin-models/downloads', { token, body: { url: `${base}/m/one.gguf` } });
    expect(clash.status).toBe(409);
    expect(clash.body.detail).toBe('one.gguf is already in the models directory');
  });

  it('follows a redirect', async () => {
    await s.api('POST', '/api/builtin-models/downloads', {
      token,
      body: { url: `${base}/redirect.gguf`, file: 'redirected.gguf' },
    });
    expect((await settle('redirected.gguf')).list.files.map((f) => f.name)).toContain('redirected.gguf');
  });

  it('adds a file from an allowed directory, and nothing from outside it, even through a link', async () => {
    writeFileSync(path.join(importDir, 'local.gguf'), model);
    writeFileSync(path.join(outside, 'secret.gguf'), model);
    symlinkSync(path.join(outside, 'secret.gguf'), path.join(importDir, 'sneaky.gguf'));
    writeFileSync(path.join(importDir, 'notes.gguf'), 'plain text');
    mkdirSync(path.join(importDir, 'dir.gguf'));

    const ok = await s.api('POST', '/api/builtin-models/files', {
      token,
      body: { path: path.join(importDir, 'local.gguf') },
    });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ name: 'local.gguf', model: '@server-builtin/local.gguf', bytes: model.length });

    const cases: Array<[string, number, RegExp]> = [
      [path.join(outside, 'secret.gguf'), 403, /not inside a directory models may be added from/],
      [path.join(importDir, 'sneaky.gguf'), 403, /not inside/],
      [path.join(importDir, '..', path.basename(outside), 'secret.gguf'), 403, /not inside/],
      ['/etc/passwd', 403, /not inside/],
      ['local.gguf', 422, /absolute path/],
      [path.join(importDir, 'missing.gguf'), 404, /There is no file/],
      [path.join(importDir, 'notes.gguf'), 422, /not a GGUF model/],
      [path.join(importDir, 'dir.gguf'), 422, /is not a file/],
      [path.join(importDir, 'local.gguf'), 409, /already in the models directory/],
    ];
    for (const [p, status, detail] of cases) {
      const r = await s.api('POST', '/api/builtin-models/files', { token, body: { path: p } });
      expect({ p, status: r.status }).toEqual({ p, status });
      expect(r.body.detail).toMatch(detail);
    }
  });

  it('lists the files as the Built-in connection, read-only, whose model ids reach the built-in provider', async () => {
    const { connections } = modelConnectionList.parse((await s.api('GET', '/model-connections', { token })).body);
    const builtin = connections.find((c) => c.kind === 'builtin');
    expect(builtin).toMatchObject({
      id: 'server-builtin',
      name: 'Built-in',
      read_only: true,
      status: { state: 'reachable' },
      base_url: `GGUF files in ${modelsDir}`,
    });
    expect(builtin!.models).toContainEqual({
      id: '@server-builtin/one.gguf',
      name: 'one.gguf',
      label: 'Built-in · one.gguf',
    });
    // One id per model in the editor's picker: the connection's, not the registry's older 'builtin:' name too.
    const picker = (await s.api('GET', '/models/', { token })).body as Array<{ name: string; connection_id?: string }>;
    expect(picker).toContainEqual(
      expect.objectContaining({ name: '@server-builtin/one.gguf', connection_id: 'server-builtin' }),
    );
    expect(picker.some((m) => m.name.startsWith('builtin:'))).toBe(false);
    const r = await resolveModel(s.server.ctx, userId, '@server-builtin/one.gguf');
    expect(r!.provider.id).toBe('builtin');
    expect(r!.model).toBe('one.gguf');
    const res = await r!.provider.chat({
      model: r!.model,
      messages: [{ role: 'user', content: 'Hello' }],
      maxTokens: 4,
    });
    expect(res.provider).toBe('builtin');
  });

  it('answers a turn with a downloaded model through the registry, then deletes it (unloading it first)', async () => {
    const llm = s.server.ctx.providers.llm;
    await llm.listModels();
    const provider = await llm.resolve!('builtin:one.gguf');
    expect(provider.id).toBe('builtin');
    const res = await provider.chat({
      model: 'builtin:one.gguf',
      messages: [{ role: 'user', content: 'Hello' }],
      maxTokens: 8,
    });
    expect(res.provider).toBe('builtin');
    expect(
      builtinModelsList
        .parse((await s.api('GET', '/api/builtin-models', { token })).body)
        .files.find((f) => f.name === 'one.gguf')!.loaded,
    ).toBe(true);
    expect((await s.api('DELETE', '/api/builtin-models/files/one.gguf', { token })).status).toBe(204);
    expect(existsSync(path.join(modelsDir, 'one.gguf'))).toBe(false);
    expect((await s.api('DELETE', '/api/builtin-models/files/one.gguf', { token })).status).toBe(404);
    expect((await s.api('DELETE', '/api/builtin-models/files/..%2Fx.gguf', { token })).status).toBe(404);
  });
});

describe('downloads from private addresses', () => {
  it('are refused unless the operator allows them', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'agora-data-'));
    const strict = await startTestServer({ dataDir, builtin: builtinConfigFrom({}, dataDir) });
    try {
      const { token: t } = await strict.register();
      for (const url of [
        `${base}/m/x.gguf`,
        'http://[::1]:9/x.gguf',
        'http://169.254.169.254/latest/x.gguf',
        'http://10.1.2.3/x.gguf',
      ]) {
        const r = await strict.api('POST', '/api/builtin-models/downloads', { token: t, body: { url } });
        expect({ url, status: r.status }).toEqual({ url, status: 422 });
        expect(r.body.detail).toMatch(
          url.includes('169.254') ? /link-local, cloud metadata/ : /loopback or private address/,
        );
      }
    } finally {
      await strict.close();
    }
  });
});
