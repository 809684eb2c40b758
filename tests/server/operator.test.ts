import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { user } from '../../src/schemas/auth';
import { builtinModelsList } from '../../src/schemas/builtinModels';
import { modelConnectionList } from '../../src/schemas/modelConnections';
import { builtinConfigFrom } from '../../server/providers/llm/builtin/config';
import { startFakeOllama } from '../support/fakeModelServers';
import { startTestServer, type TestServer } from './harness';

// The operator role (README 'Operator'): the first account, or ADMIN_EMAILS, manages what every user shares; every
// other account reads it, and the API says why it refuses.

const sentence = { detail: expect.stringMatching(/^Only the server's operator may .+\.( .+)?$/) };

describe('the operator role (first account)', () => {
  let s: TestServer;
  let ollama: Awaited<ReturnType<typeof startFakeOllama>>;
  let dataDir: string;
  let importDir: string;
  let operator: { token: string };
  let member: { token: string };
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'agora-operator-'));
    importDir = path.join(dataDir, 'import');
    ollama = await startFakeOllama({ models: ['env-model:1b'], pullable: { 'tiny:1b': [10_000] } });
    s = await startTestServer({
      dataDir,
      ollamaHost: ollama.url,
      builtin: {
        ...builtinConfigFrom({}, dataDir),
        importDirs: [importDir],
        threads: 1,
        contextSize: 512,
        parallel: 1,
        idleUnloadMs: 0,
      },
    });
    operator = await s.register('first@example.org');
    member = await s.register('second@example.org');
  });
  afterAll(async () => {
    await Promise.all([s.close(), ollama.close()]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('tells each account its role on register, login and /auth/me', async () => {
    const me = async (token: string) => user.parse((await s.api('GET', '/auth/me', { token })).body).role;
    expect(await me(operator.token)).toBe('operator');
    expect(await me(member.token)).toBe('user');
    const login = await s.api('POST', '/auth/login', {
      body: { email: 'second@example.org', password: 'secret-pass' },
    });
    expect(login.body.user.role).toBe('user');
    const third = await s.api('POST', '/auth/register', {
      body: { email: 'third@example.org', password: 'secret-pass' },
    });
    expect(third.body.user.role).toBe('user');
  });

  it('lets only the operator manage the built-in model files; others read the list without paths', async () => {
    const seen = builtinModelsList.parse((await s.api('GET', '/api/builtin-models', { token: member.token })).body);
    expect(seen).toMatchObject({ dir: null, import_dirs: [], can_manage: false });
    const mine = builtinModelsList.parse((await s.api('GET', '/api/builtin-models', { token: operator.token })).body);
    expect(mine).toMatchObject({ dir: path.join(dataDir, 'models'), import_dirs: [importDir], can_manage: true });

    const attempts: Array<[string, string, object?]> = [
      ['POST', '/api/builtin-models/downloads', { url: 'http://127.0.0.1:9/m.gguf' }],
      ['DELETE', '/api/builtin-models/downloads/m.gguf'],
      ['POST', '/api/builtin-models/files', { path: path.join(importDir, 'm.gguf') }],
      ['DELETE', '/api/builtin-models/files/m.gguf'],
    ];
    for (const [method, p, body] of attempts) {
      expect(await s.api(method, p, { token: member.token, body }), `${method} ${p}`).toMatchObject({
        status: 403,
        body: sentence,
      });
      // The operator gets past the role check to the route's own answer.
      expect((await s.api(method, p, { token: operator.token, body })).status, `${method} ${p}`).not.toBe(403);
    }
  });

  it("lets only the operator pull into and delete from the server's own Ollama, and see its address", async () => {
    const list = async (token: string) =>
      modelConnectionList
        .parse((await s.api('GET', '/model-connections', { token })).body)
        .connections.find((c) => c.id === 'server-ollama')!;
    expect(await list(member.token)).toMatchObject({ base_url: '', manage_models: false, read_only: true });
    expect(await list(operator.token)).toMatchObject({ base_url: ollama.url, manage_models: true, read_only: true });

    expect(
      await s.api('POST', '/model-connections/server-ollama/pull', { token: member.token, body: { model: 'tiny:1b' } }),
    ).toMatchObject({ status: 403, body: sentence });
    expect(
      await s.api('DELETE', '/model-connections/server-ollama/models/env-model:1b', { token: member.token }),
    ).toMatchObject({ status: 403, body: sentence });
    const pull = await s.api('POST', '/model-connections/server-ollama/pull', {
      token: operator.token,
      body: { model: 'tiny:1b' },
    });
    expect(pull).toMatchObject({ status: 202, body: { connection_id: 'server-ollama', model: 'tiny:1b' } });
    // Still read-only as a connection: nobody edits what the environment set.
    expect(
      (await s.api('PATCH', '/model-connections/server-ollama', { token: operator.token, body: { name: 'x' } })).status,
    ).toBe(403);
  });

  it('keeps /debug/info and provider paths to the operator', async () => {
    expect(await s.api('GET', '/debug/info', { token: member.token })).toMatchObject({ status: 403, body: sentence });
    expect((await s.api('GET', '/debug/info', { token: operator.token })).status).toBe(200);
  });
});

describe('the operator role (ADMIN_EMAILS)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ adminEmails: ['boss@example.org'] });
  });
  afterAll(() => s.close());

  it('makes the named accounts operators, whichever registered first', async () => {
    const first = await s.register('first@example.org');
    const boss = await s.register('Boss@Example.org');
    expect((await s.api('GET', '/auth/me', { token: first.token })).body.role).toBe('user');
    expect((await s.api('GET', '/auth/me', { token: boss.token })).body.role).toBe('operator');
    expect((await s.api('GET', '/debug/info', { token: first.token })).status).toBe(403);
    expect((await s.api('GET', '/debug/info', { token: boss.token })).status).toBe(200);
  });
});

describe('engine paths in /api/tts/status', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ espeakPath: process.execPath });
  });
  afterAll(() => s.close());

  it("are the operator's", async () => {
    const operator = await s.register();
    const member = await s.register();
    const status = async (token: string) => (await s.api('GET', '/api/tts/status', { token })).body;
    const forMember = await status(member.token);
    expect(JSON.stringify(forMember)).not.toContain(process.execPath);
    const forOperator = await status(operator.token);
    if (forOperator.status === 'ok') expect(forOperator.detail).toContain(process.execPath);
  });
});
