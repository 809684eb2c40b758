import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  modelConnection,
  modelConnectionList,
  modelJob,
  type ModelConnection,
} from '../../src/schemas/modelConnections';
import { judgeAddress } from '../../server/models/addressRule';
import { createSecretBox } from '../../server/models/secrets';
import { registerServerEngine, resolveModel } from '../../server/models/service';
import type { ChatRequest, LlmProvider } from '../../server/providers/types';
import { startFakeOllama, startFakeOpenAi } from '../support/fakeModelServers';
import { collect, startTestServer, type TestServer } from './harness';
import { closedPort } from '../support/loopback';

const KEY = 'sk-test-Zq8uVb4Jm2Lk9Pw7Rt5Yx3N1';
/** Every user sees the server's Built-in engine connection first; these tests are about the others. */
const others = (connections: ModelConnection[]) => connections.filter((c) => c.kind !== 'builtin');

describe('model connections', () => {
  let t: TestServer;
  let openai: Awaited<ReturnType<typeof startFakeOpenAi>>;
  let ollama: Awaited<ReturnType<typeof startFakeOllama>>;
  beforeAll(async () => {
    [t, openai, ollama] = await Promise.all([
      startTestServer(),
      startFakeOpenAi({ apiKey: KEY, models: ['fake-gpt-mini', 'meta-llama/fake-70b'] }),
      startFakeOllama({
        models: ['llama3.2:1b'],
        pullable: { 'qwen2.5:0.5b': [600_000, 4_000], 'slow:7b': [50_000_000] },
        pullStepBytes: 100_000,
        pullStepMs: 10,
      }),
    ]);
  });
  afterAll(() => Promise.all([t.close(), openai.close(), ollama.close()]));

  const add = (token: string, body: object) => t.api('POST', '/model-connections', { token, body });

  it('adds an Ollama and an OpenAI-compatible connection, lists their models named by the connection, never the key', async () => {
    const { token } = await t.register();
    const a = await add(token, { kind: 'ollama', name: 'Home Ollama', base_url: ollama.url });
    expect(a.status).toBe(201);
    expect(modelConnection.parse(a.body)).toMatchObject({
      kind: 'ollama',
      status: { state: 'reachable' },
      read_only: false,
      api_key_hint: null,
    });
    expect(a.body.models).toEqual([
      { id: `@${a.body.id}/llama3.2:1b`, name: 'llama3.2:1b', label: 'Home Ollama · llama3.2:1b' },
    ]);

    const b = await add(token, {
      kind: 'openai',
      preset: 'groq',
      name: 'Groq',
      base_url: `${openai.url}/v1`,
      api_key: KEY,
    });
    expect(b.status).toBe(201);
    expect(b.body.api_key_hint).toBe(`••••${KEY.slice(-4)}`);
    expect(b.body.models.map((m: { label: string }) => m.label)).toEqual([
      'Groq · fake-gpt-mini',
      'Groq · meta-llama/fake-70b',
    ]);

    const list = await t.api('GET', '/model-connections', { token });
    expect(others(modelConnectionList.parse(list.body).connections).map((c) => c.name)).toEqual([
      'Home Ollama',
      'Groq',
    ]);
    expect(JSON.stringify(list.body)).not.toContain(KEY);
    expect(JSON.stringify(list.body)).not.toContain('api_key_sealed');

    // The editor's picker: the offline model, then each connection's models with ids that name the connection.
    const picker = await t.api('GET', '/models/', { token });
    expect(picker.body[0]).toMatchObject({ name: 'offline', offline: true });
    expect(picker.body.slice(1).map((m: { label: string }) => m.label)).toEqual([
      'Home Ollama · llama3.2:1b',
      'Groq · fake-gpt-mini',
      'Groq · meta-llama/fake-70b',
    ]);
    expect(picker.body[2]).toMatchObject({
      name: `@${b.body.id}/fake-gpt-mini`,
      connection_id: b.body.id,
      connection_name: 'Groq',
      reachable: true,
    });
  });

  it('Test says exactly what failed: refused, DNS, key rejected, not OpenAI-compatible, not JSON, time-out', async () => {
    const { token } = await t.register();
    const test = (body: object) => t.api('POST', '/model-connections/test', { token, body }).then((r) => r.body);
    expect(await test({ kind: 'openai', base_url: openai.url, api_key: KEY })).toEqual({
      ok: true,
      models: ['fake-gpt-mini', 'meta-llama/fake-70b'],
    });
    expect(await test({ kind: 'ollama', base_url: ollama.url })).toEqual({ ok: true, models: ['llama3.2:1b'] });

    const refused = await test({ kind: 'ollama', base_url: await closedPort() });
    expect(refused).toMatchObject({
      ok: false,
      reason: 'refused',
      detail: expect.stringContaining('connection refused'),
    });
    expect(await test({ kind: 'openai', base_url: 'http://no-such-host.invalid' })).toMatchObject({
      ok: false,
      reason: 'dns',
      detail: expect.stringContaining('no-such-host.invalid'),
    });
    const rejected = await test({ kind: 'openai', base_url: openai.url, api_key: 'sk-wrong-key-000000' });
    expect(rejected).toMatchObject({ ok: false, reason: 'key_rejected', detail: expect.stringContaining('401') });
    expect(await test({ kind: 'openai', base_url: ollama.url })).toMatchObject({
      ok: false,
      reason: 'not_compatible',
      detail: expect.stringContaining('not an OpenAI-compatible server'),
    });

    const html = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>'),
    );
    const silent = createServer(() => undefined);
    await Promise.all([
      new Promise<void>((r) => html.listen(0, '127.0.0.1', r)),
      new Promise<void>((r) => silent.listen(0, '127.0.0.1', r)),
    ]);
    try {
      const port = (s: typeof html) => (s.address() as AddressInfo).port;
      expect(await test({ kind: 'openai', base_url: `http://127.0.0.1:${port(html)}` })).toMatchObject({
        ok: false,
        reason: 'not_compatible',
        detail: expect.stringContaining('not JSON'),
      });
      expect(await test({ kind: 'ollama', base_url: `http://127.0.0.1:${port(silent)}` })).toMatchObject({
        ok: false,
        reason: 'timeout',
        detail: expect.stringContaining('within 3 s'),
      });
    } finally {
      html.closeAllConnections();
      silent.closeAllConnections();
      await Promise.all([new Promise((r) => html.close(r)), new Promise((r) => silent.close(r))]);
    }
  });

  it('refuses bad input with a clear 4xx detail and loses nothing', async () => {
    const { token } = await t.register();
    expect((await add(token, { kind: 'ollama', name: 'Mine', base_url: ollama.url })).status).toBe(201);
    const before = { connections: others((await t.api('GET', '/model-connections', { token })).body.connections) };

    const ftp = await add(token, { kind: 'ollama', name: 'Other', base_url: 'ftp://example.com' });
    expect(ftp).toMatchObject({ status: 422, body: { detail: expect.stringContaining('http:// or https://') } });
    const js = await add(token, { kind: 'openai', name: 'Other', base_url: 'javascript:alert(1)' });
    expect(js.status).toBe(422);
    const longKey = await add(token, {
      kind: 'openai',
      name: 'Other',
      base_url: openai.url,
      api_key: 'k'.repeat(4097),
    });
    expect(longKey).toMatchObject({ status: 422, body: { detail: expect.stringContaining('longer than 4 KB') } });
    const clash = await add(token, { kind: 'openai', name: 'mine', base_url: openai.url });
    expect(clash).toMatchObject({
      status: 409,
      body: { detail: expect.stringContaining('already have a connection named "mine"') },
    });

    const second = await add(token, { kind: 'openai', name: 'Second', base_url: openai.url, api_key: KEY });
    const rename = await t.api('PATCH', `/model-connections/${second.body.id}`, { token, body: { name: 'MINE' } });
    expect(rename.status).toBe(409);
    const after = { connections: others((await t.api('GET', '/model-connections', { token })).body.connections) };
    expect(after.connections.map((c: { name: string }) => c.name)).toEqual([
      ...before.connections.map((c: { name: string }) => c.name),
      'Second',
    ]);
    expect(after.connections[1].api_key_hint).toBe(`••••${KEY.slice(-4)}`);
  });

  it('edits keep the stored key unless a new one is given; Test with the id uses the stored key; delete removes it', async () => {
    const { token } = await t.register();
    const c = (await add(token, { kind: 'openai', name: 'Hosted', base_url: openai.url, api_key: KEY })).body;
    const renamed = await t.api('PATCH', `/model-connections/${c.id}`, { token, body: { name: 'Hosted 2' } });
    expect(renamed.body).toMatchObject({
      name: 'Hosted 2',
      api_key_hint: `••••${KEY.slice(-4)}`,
      status: { state: 'reachable' },
    });
    expect(
      (
        await t.api('POST', '/model-connections/test', {
          token,
          body: { kind: 'openai', base_url: openai.url, id: c.id },
        })
      ).body.ok,
    ).toBe(true);
    // The stored key goes nowhere else: a new address needs the key typed again (the same origin does not).
    const moved = await t.api('PATCH', `/model-connections/${c.id}`, { token, body: { base_url: ollama.url } });
    expect(moved).toMatchObject({ status: 422, body: { detail: expect.stringContaining('Enter the API key again') } });
    const probed = await t.api('POST', '/model-connections/test', {
      token,
      body: { kind: 'openai', base_url: ollama.url, id: c.id },
    });
    expect(probed.status).toBe(422);
    expect(
      (await t.api('PATCH', `/model-connections/${c.id}`, { token, body: { base_url: `${openai.url}/v1` } })).status,
    ).toBe(200);
    const cleared = await t.api('PATCH', `/model-connections/${c.id}`, { token, body: { api_key: '' } });
    expect(cleared.body).toMatchObject({
      api_key_hint: null,
      status: { state: 'key_rejected', reason: 'key_rejected' },
    });
    expect((await t.api('DELETE', `/model-connections/${c.id}`, { token })).status).toBe(204);
    expect(others((await t.api('GET', '/model-connections', { token })).body.connections)).toEqual([]);
  });

  it("keeps each user's connections to that user: another sees, edits, deletes, tests and uses none of them", async () => {
    const alice = await t.register();
    const bob = await t.register();
    const c = (await add(alice.token, { kind: 'openai', name: 'Alice key', base_url: openai.url, api_key: KEY })).body;
    expect(others((await t.api('GET', '/model-connections', { token: bob.token })).body.connections)).toEqual([]);
    expect(
      (await t.api('PATCH', `/model-connections/${c.id}`, { token: bob.token, body: { name: 'Mine now' } })).status,
    ).toBe(404);
    expect((await t.api('DELETE', `/model-connections/${c.id}`, { token: bob.token })).status).toBe(404);
    expect(
      (await t.api('POST', `/model-connections/${c.id}/pull`, { token: bob.token, body: { model: 'x' } })).status,
    ).toBe(404);
    // Testing with Alice's id must not lend Bob her stored key.
    expect(
      (
        await t.api('POST', '/model-connections/test', {
          token: bob.token,
          body: { kind: 'openai', base_url: openai.url, id: c.id },
        })
      ).status,
    ).toBe(404);
    const bobsPicker = (await t.api('GET', '/models/', { token: bob.token })).body as Array<{ name: string }>;
    expect(bobsPicker.some((m) => m.name.includes(c.id))).toBe(false);
    // Bob's agent naming Alice's connection does not reach it.
    await expect(resolveModel(t.server.ctx, bob.userId, `@${c.id}/fake-gpt-mini`)).rejects.toThrow(/no longer exists/);
    // The same id in Alice's hands does.
    const mine = await resolveModel(t.server.ctx, alice.userId, `@${c.id}/fake-gpt-mini`);
    const reply = await mine!.provider.chat({
      model: mine!.model,
      messages: [{ role: 'user', content: 'Bees?' }],
      jsonSchema: { type: 'object' },
    });
    expect(reply.content).toContain('fake-gpt-mini fake model says the orchard needs more bees');
    expect(openai.seen.at(-1)).toMatchObject({
      url: '/v1/chat/completions',
      body: { model: 'fake-gpt-mini', stream: true, response_format: { type: 'json_schema' } },
    });
    // A plain model name (an older agent) still goes to the server's own providers.
    expect(await resolveModel(t.server.ctx, alice.userId, 'offline')).toBeNull();
  });

  it('pulls an Ollama model as a job whose progress goes out on /ws/updates, lists it when done, and deletes it', async () => {
    const { token } = await t.register();
    const c = (await add(token, { kind: 'ollama', name: 'Puller', base_url: ollama.url })).body;
    const ws = await t.socket('/ws/updates', token);
    const frames = collect(ws);
    await frames.next('connected');

    const started = await t.api('POST', `/model-connections/${c.id}/pull`, { token, body: { model: 'qwen2.5:0.5b' } });
    expect(started.status).toBe(202);
    expect(modelJob.parse(started.body)).toMatchObject({
      model: 'qwen2.5:0.5b',
      status: 'running',
      connection_name: 'Puller',
    });
    await frames.until(() => frames.frames.some((f) => f.type === 'model_job' && f.job.status === 'done'));
    const progress = frames.frames.filter((f) => f.type === 'model_job').map((f) => f.job);
    const running = progress.filter((j) => j.status === 'running' && j.total > 0);
    expect(running.length).toBeGreaterThan(1);
    expect(running.some((j) => j.completed > 0 && j.completed < j.total)).toBe(true);
    expect(progress.at(-1)).toMatchObject({ status: 'done', completed: 604_000, total: 604_000, phase: 'success' });
    expect(frames.frames.some((f) => f.type === 'model_connections_changed')).toBe(true);
    expect(ollama.seen.find((s) => s.url === '/api/pull')?.body).toMatchObject({ model: 'qwen2.5:0.5b', stream: true });

    // A reloaded page reads the job back.
    expect((await t.api('GET', '/model-jobs', { token })).body.jobs).toEqual([
      expect.objectContaining({ id: started.body.id, status: 'done' }),
    ]);
    const listed = others((await t.api('GET', '/model-connections', { token })).body.connections)[0];
    expect(listed.models.map((m: { name: string }) => m.name)).toContain('qwen2.5:0.5b');

    // An unknown model fails with Ollama's own words.
    const bad = await t.api('POST', `/model-connections/${c.id}/pull`, { token, body: { model: 'nope:1b' } });
    await frames.until(() =>
      frames.frames.some((f) => f.type === 'model_job' && f.job.id === bad.body.id && f.job.status === 'failed'),
    );
    expect(frames.frames.findLast((f) => f.job?.id === bad.body.id).job.error).toContain('file does not exist');

    const del = await t.api('DELETE', `/model-connections/${c.id}/models/${encodeURIComponent('qwen2.5:0.5b')}`, {
      token,
    });
    expect(del.status).toBe(204);
    expect(ollama.models.has('qwen2.5:0.5b')).toBe(false);
    const again = await t.api('DELETE', `/model-connections/${c.id}/models/${encodeURIComponent('qwen2.5:0.5b')}`, {
      token,
    });
    expect(again).toMatchObject({ status: 502, body: { detail: expect.stringContaining('no model named') } });
    ws.close();
  });

  it('cancels a running pull; another user can neither see nor cancel it', async () => {
    const { token } = await t.register();
    const other = await t.register();
    const c = (await add(token, { kind: 'ollama', name: 'Slow', base_url: ollama.url })).body;
    const job = (await t.api('POST', `/model-connections/${c.id}/pull`, { token, body: { model: 'slow:7b' } })).body;
    // The same pull asked twice is the same job.
    expect(
      (await t.api('POST', `/model-connections/${c.id}/pull`, { token, body: { model: 'slow:7b' } })).body.id,
    ).toBe(job.id);
    expect((await t.api('GET', '/model-jobs', { token: other.token })).body.jobs).toEqual([]);
    expect((await t.api('DELETE', `/model-jobs/${job.id}`, { token: other.token })).status).toBe(404);
    expect((await t.api('DELETE', `/model-jobs/${job.id}`, { token })).status).toBe(200);
    const deadline = Date.now() + 5000;
    let status = 'running';
    while (status === 'running' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await t.api('GET', '/model-jobs', { token })).body.jobs[0].status;
    }
    expect(status).toBe('cancelled');
    expect(ollama.models.has('slow:7b')).toBe(false);
  });
});

describe("the server's own connections (from its environment)", () => {
  let t: TestServer;
  let ollama: Awaited<ReturnType<typeof startFakeOllama>>;
  beforeAll(async () => {
    ollama = await startFakeOllama({ models: ['env-model:1b'] });
    t = await startTestServer({ ollamaHost: ollama.url });
  });
  afterAll(() => Promise.all([t.close(), ollama.close()]));

  it('are listed read-only with their models; they cannot be edited, deleted or pulled into', async () => {
    // The first account is the operator, who may pull into the server's own Ollama (operator.test.ts).
    const operator = await t.register();
    const { token } = await t.register();
    const [server] = others((await t.api('GET', '/model-connections', { token })).body.connections);
    expect(server).toMatchObject({
      id: 'server-ollama',
      name: 'Server',
      read_only: true,
      manage_models: false,
      base_url: '',
      status: { state: 'reachable' },
      models: [{ id: '@server-ollama/env-model:1b', label: 'Server · env-model:1b' }],
    });
    const [seenByOperator] = others(
      (await t.api('GET', '/model-connections', { token: operator.token })).body.connections,
    );
    expect(seenByOperator).toMatchObject({ id: 'server-ollama', base_url: ollama.url, manage_models: true });
    expect((await t.api('PATCH', '/model-connections/server-ollama', { token, body: { name: 'x' } })).status).toBe(403);
    expect((await t.api('DELETE', '/model-connections/server-ollama', { token })).status).toBe(403);
    expect((await t.api('POST', '/model-connections/server-ollama/pull', { token, body: { model: 'x' } })).status).toBe(
      403,
    );
    const resolved = await resolveModel(t.server.ctx, 'anyone', '@server-ollama/env-model:1b');
    const reply = await resolved!.provider.chat({
      model: resolved!.model,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(reply.content).toContain('env-model:1b fake Ollama model says the vineyard wants shade');
  });

  it('an unreachable connection says why and keeps the models it listed before, marked stale', async () => {
    const { token } = await t.register();
    const mine = (
      await t.api('POST', '/model-connections', {
        token,
        body: { kind: 'ollama', name: 'Flaky', base_url: ollama.url },
      })
    ).body;
    expect(mine.status.state).toBe('reachable');
    await ollama.close();
    const again = await t.api('PATCH', `/model-connections/${mine.id}`, { token, body: {} });
    expect(again.body).toMatchObject({ status: { state: 'unreachable', reason: 'refused' } });
  });

  it('/model-connections/status checks now what the list may still cache: a server stopped a moment ago is down', async () => {
    const { token } = await t.register();
    const own = await startFakeOpenAi({ models: ['qwen3-0.6b'] });
    const mine = (
      await t.api('POST', '/model-connections', {
        token,
        body: { kind: 'openai', preset: 'openai', name: 'Loopback', base_url: `${own.url}/v1` },
      })
    ).body;
    expect(mine.status.state).toBe('reachable');
    await own.close();
    const find = (body: unknown) => modelConnectionList.parse(body).connections.find((c) => c.id === mine.id)!;
    // The list reuses what it read a moment ago (a quick open of the editor or the dialog).
    expect(find((await t.api('GET', '/model-connections', { token })).body).status.state).toBe('reachable');
    const checked = await t.api('GET', '/model-connections/status', { token });
    expect(checked.status).toBe(200);
    expect(find(checked.body)).toMatchObject({
      status: { state: 'unreachable', reason: 'refused' },
      models: [{ name: 'qwen3-0.6b' }],
      stale: true,
    });
    // Another user checks their own connections only.
    const other = await t.register();
    const theirs = await t.api('GET', '/model-connections/status', { token: other.token });
    expect(modelConnectionList.parse(theirs.body).connections.some((c) => c.id === mine.id)).toBe(false);
  });
});

describe('which addresses a connection may reach (SSRF rule)', () => {
  it('judges addresses: link-local always refused; loopback and private only when allowed', () => {
    for (const a of ['169.254.169.254', 'fe80::1', '::ffff:169.254.169.254'])
      expect(judgeAddress(a, true).ok).toBe(false);
    for (const a of [
      '127.0.0.1',
      '::1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.10',
      'fd00::5',
      '::ffff:127.0.0.1',
      '0.0.0.0',
    ]) {
      expect(judgeAddress(a, true).ok).toBe(true);
      expect(judgeAddress(a, false).ok).toBe(false);
    }
    for (const a of ['8.8.8.8', '2606:4700::1111', '172.32.0.1']) expect(judgeAddress(a, false).ok).toBe(true);
  });

  it('MODEL_CONNECTIONS_ALLOW_PRIVATE=false refuses loopback connections on Save and Test; the default allows them', {
    timeout: 60_000,
  }, async () => {
    const ollama = await startFakeOllama();
    const strict = await startTestServer({ modelConnectionsAllowPrivate: false });
    const open = await startTestServer();
    try {
      const s = await strict.register();
      const saved = await strict.api('POST', '/model-connections', {
        token: s.token,
        body: { kind: 'ollama', name: 'Local', base_url: ollama.url },
      });
      expect(saved).toMatchObject({
        status: 422,
        body: { detail: expect.stringContaining('MODEL_CONNECTIONS_ALLOW_PRIVATE=false') },
      });
      const tested = await strict.api('POST', '/model-connections/test', {
        token: s.token,
        body: { kind: 'ollama', base_url: 'http://localhost:11434' },
      });
      expect(tested.body).toMatchObject({ ok: false, reason: 'blocked' });
      expect(ollama.seen).toEqual([]);

      const o = await open.register();
      expect(
        (
          await open.api('POST', '/model-connections', {
            token: o.token,
            body: { kind: 'ollama', name: 'Local', base_url: ollama.url },
          })
        ).status,
      ).toBe(201);
      const metadata = await open.api('POST', '/model-connections', {
        token: o.token,
        body: { kind: 'openai', name: 'Meta', base_url: 'http://169.254.169.254/latest' },
      });
      expect(metadata).toMatchObject({ status: 422, body: { detail: expect.stringContaining('link-local') } });
    } finally {
      await Promise.all([strict.close(), open.close(), ollama.close()]);
    }
  });
});

describe('an engine inside the server (the plug for the built-in llama.cpp engine)', () => {
  it('is listed read-only as a built-in connection; its model ids reach its provider; a failing listing says why', async () => {
    const t = await startTestServer();
    try {
      const asked: ChatRequest[] = [];
      const provider: LlmProvider = {
        id: 'builtin',
        label: 'Built-in',
        owns: () => false,
        listModels: async () => [],
        probe: async () => ({ status: 'ok' }),
        chat: async (req) => {
          asked.push(req);
          return { content: 'local words', model: req.model, provider: 'builtin', durationMs: 1 };
        },
      };
      const engine = { id: 'server-builtin', name: 'Built-in', location: 'GGUF files in DATA_DIR/models', provider };
      registerServerEngine(t.server.ctx, { ...engine, listModels: async () => ['qwen2.5-0.5b-instruct-q4_k_m.gguf'] });
      const { token, userId } = await t.register();
      const [listed] = (await t.api('GET', '/model-connections', { token })).body.connections;
      expect(listed).toMatchObject({
        id: 'server-builtin',
        kind: 'builtin',
        read_only: true,
        status: { state: 'reachable' },
        models: [
          {
            id: '@server-builtin/qwen2.5-0.5b-instruct-q4_k_m.gguf',
            label: 'Built-in · qwen2.5-0.5b-instruct-q4_k_m.gguf',
          },
        ],
      });
      expect((await t.api('DELETE', '/model-connections/server-builtin', { token })).status).toBe(403);
      const r = await resolveModel(t.server.ctx, userId, '@server-builtin/qwen2.5-0.5b-instruct-q4_k_m.gguf');
      expect((await r!.provider.chat({ model: r!.model, messages: [] })).content).toBe('local words');
      expect(asked[0].model).toBe('qwen2.5-0.5b-instruct-q4_k_m.gguf');
      registerServerEngine(t.server.ctx, {
        ...engine,
        listModels: () => Promise.reject(new Error('node-llama-cpp could not load its binary')),
      });
      const [down] = (await t.api('GET', '/model-connections', { token })).body.connections;
      expect(down.status).toEqual({
        state: 'unreachable',
        reason: 'unreachable',
        detail: 'node-llama-cpp could not load its binary',
      });
    } finally {
      await t.close();
    }
  });
});

describe('redirects', () => {
  it('are never followed, so a connection cannot be bounced to a refused address', { timeout: 60_000 }, async () => {
    const bouncer = createServer((_req, res) =>
      res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data' }).end(),
    );
    await new Promise<void>((r) => bouncer.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(bouncer.address() as AddressInfo).port}`;
    const t = await startTestServer();
    try {
      const { token, userId } = await t.register();
      const tested = await t.api('POST', '/model-connections/test', { token, body: { kind: 'openai', base_url: url } });
      expect(tested.body).toMatchObject({
        ok: false,
        reason: 'not_compatible',
        detail: expect.stringContaining('redirect (307)'),
      });
      const c = (
        await t.api('POST', '/model-connections', { token, body: { kind: 'openai', name: 'Bouncer', base_url: url } })
      ).body;
      const resolved = await resolveModel(t.server.ctx, userId, `@${c.id}/any`);
      await expect(
        resolved!.provider.chat({ model: resolved!.model, messages: [{ role: 'user', content: 'x' }] }),
      ).rejects.toThrow(/answered 307/);
      const pull = (
        await t.api('POST', '/model-connections', {
          token,
          body: { kind: 'ollama', name: 'Bouncing Ollama', base_url: url },
        })
      ).body;
      const job = (await t.api('POST', `/model-connections/${pull.id}/pull`, { token, body: { model: 'x:1b' } })).body;
      let status = 'running';
      for (let i = 0; i < 100 && status === 'running'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        status = (await t.api('GET', '/model-jobs', { token })).body.jobs.find(
          (j: { id: string }) => j.id === job.id,
        ).status;
      }
      expect(status).toBe('failed');
    } finally {
      bouncer.closeAllConnections();
      await Promise.all([t.close(), new Promise((r) => bouncer.close(r))]);
    }
  });
});

describe('sealed keys', () => {
  it('open only with the same key and for the same row', () => {
    const key = Buffer.alloc(32, 7);
    const box = createSecretBox(key);
    const sealed = box.seal(KEY, 'row-1');
    expect(sealed).not.toContain(KEY);
    expect(box.seal(KEY, 'row-1')).not.toBe(sealed);
    expect(box.open(sealed, 'row-1')).toBe(KEY);
    expect(() => box.open(sealed, 'row-2')).toThrow();
    expect(() => createSecretBox(Buffer.alloc(32, 8)).open(sealed, 'row-1')).toThrow();
    const [v, iv, tag, data] = sealed.split('.');
    const flipped = Buffer.from(data, 'base64url');
    flipped[0] ^= 1;
    expect(() => box.open([v, iv, tag, flipped.toString('base64url')].join('.'), 'row-1')).toThrow();
  });
});
