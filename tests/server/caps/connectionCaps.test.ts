import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveModel } from '../../../server/models/service';
import { maskSecrets } from '../../../server/providers/mask';
import { sendJson, startLoopback } from '../../support/loopback';
import { startTestServer, type TestServer } from '../harness';

// What a user's model server can send, and what a user can ask of the server, through one test server with low
// caps: model lists (count, name length, bytes), connections per user, Test/Save rate limits, pulls (idle time-out,
// per user), and keys quoted back by the model server.

const KEY = 'sk-proj-Q9x8W7v6U5t4S3r2P1o0NmLk';
let t: TestServer;
let models: Awaited<ReturnType<typeof startLoopback>>;

beforeAll(async () => {
  models = await startLoopback(async (req, res) => {
    const path = req.url.split('?')[0];
    if (path === '/many/v1/models')
      return sendJson(res, 200, { data: Array.from({ length: 3_000 }, (_, i) => ({ id: `m${i}` })) });
    if (path === '/100k/v1/models')
      return sendJson(res, 200, { data: Array.from({ length: 100_000 }, (_, i) => ({ id: `model-${i}` })) });
    if (path === '/long/v1/models')
      return sendJson(res, 200, { data: [{ id: 'ok-model' }, { id: 'n'.repeat(5_000) }] });
    if (path === '/huge/v1/models') return sendJson(res, 200, { data: [{ id: 'x', blurb: 'b'.repeat(300_000) }] });
    if (path === '/quote/v1/models') return sendJson(res, 200, { data: [{ id: 'gpt-x' }] });
    if (path === '/quote/v1/chat/completions') {
      return sendJson(res, 401, {
        error: {
          message: `Incorrect API key provided: ${req.headers.authorization?.slice(7)}. Also Bearer abcdefghijklmnop123`,
        },
      });
    }
    if (path === '/stream-quote/v1/chat/completions') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      return res.end(`data: ${JSON.stringify({ error: { message: `key ${KEY} is over quota` } })}\n\n`);
    }
    if (path === '/ollama/api/tags') return sendJson(res, 200, { models: [{ name: 'a:1b' }] });
    if (path === '/ollama/api/pull') {
      // One line, then silence: the pull must end at PULL_IDLE_TIMEOUT_MS.
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(`${JSON.stringify({ status: 'pulling manifest' })}\n`);
      return;
    }
    sendJson(res, 404, { error: 'no' });
  });
  t = await startTestServer({
    modelListMaxModels: 1_000,
    modelListMaxNameLength: 100,
    modelListMaxBytes: 100_000,
    maxConnectionsPerUser: 3,
    modelTestRateLimit: 6,
    modelSaveRateLimit: 1000,
    pullIdleTimeoutMs: 300,
    maxPullsPerUser: 1,
  });
}, 120_000);
afterAll(() => Promise.all([t.close(), models.close()]));

describe('model lists', () => {
  it('refuses a list of more names or bytes than the caps, and leaves out names longer than the cap', async () => {
    const { token } = await t.register();
    const test = (base: string) =>
      t
        .api('POST', '/model-connections/test', { token, body: { kind: 'openai', base_url: `${models.url}${base}` } })
        .then((r) => r.body);
    expect(await test('/many')).toMatchObject({
      ok: false,
      reason: 'not_compatible',
      detail: expect.stringContaining('lists 3000 models, more than this server accepts (MODEL_LIST_MAX_MODELS=1000)'),
    });
    expect(await test('/100k')).toMatchObject({
      ok: false,
      reason: 'not_compatible',
      detail: expect.stringContaining('MODEL_LIST_MAX_BYTES=100000'),
    });
    expect(await test('/huge')).toMatchObject({ ok: false, detail: expect.stringContaining('MODEL_LIST_MAX_BYTES') });
    expect(await test('/long')).toEqual({ ok: true, models: ['ok-model'] });
  });
});

describe('what one user may ask for', () => {
  it('caps connections per user and rate-limits Test per user', async () => {
    const a = await t.register();
    const b = await t.register();
    const add = (token: string, i: number) =>
      t.api('POST', '/model-connections', {
        token,
        body: { kind: 'openai', name: `C${i}`, base_url: `${models.url}/long` },
      });
    for (let i = 0; i < 3; i++) expect((await add(a.token, i)).status).toBe(201);
    const fourth = await add(a.token, 3);
    expect(fourth).toMatchObject({
      status: 409,
      body: { detail: expect.stringContaining('MAX_CONNECTIONS_PER_USER=3') },
    });
    expect((await add(b.token, 0)).status).toBe(201);

    const test = (token: string) =>
      t.api('POST', '/model-connections/test', { token, body: { kind: 'openai', base_url: `${models.url}/long` } });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await test(a.token)).status);
    expect(statuses.slice(0, 6)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(statuses[6]).toBe(429);
    const limited = await test(a.token);
    expect(limited.body.detail).toMatch(/Too many connection tests in a minute/);
    // Another user has a counter of their own.
    expect((await test(b.token)).status).toBe(200);
  });

  it('ends a silent pull at PULL_IDLE_TIMEOUT_MS and runs one pull per user at a time', async () => {
    const { token } = await t.register();
    const c = (
      await t.api('POST', '/model-connections', {
        token,
        body: { kind: 'ollama', name: 'Silent', base_url: `${models.url}/ollama` },
      })
    ).body;
    const first = await t.api('POST', `/model-connections/${c.id}/pull`, { token, body: { model: 'big:70b' } });
    expect(first.status).toBe(202);
    const second = await t.api('POST', `/model-connections/${c.id}/pull`, { token, body: { model: 'other:7b' } });
    expect(second).toMatchObject({ status: 429, body: { detail: expect.stringContaining('MAX_PULLS_PER_USER') } });
    await expect
      .poll(async () => (await t.api('GET', '/model-jobs', { token })).body.jobs[0].status, { timeout: 10_000 })
      .toBe('failed');
    expect((await t.api('GET', '/model-jobs', { token })).body.jobs[0].error).toMatch(
      /Ollama sent nothing for 0.3 s \(PULL_IDLE_TIMEOUT_MS\)/,
    );
    expect(
      (await t.api('POST', `/model-connections/${c.id}/pull`, { token, body: { model: 'other:7b' } })).status,
    ).toBe(202);
  });
});

describe('keys quoted back by a model server', () => {
  it('are masked in the error a chat ends with, whether in an HTTP answer or mid-stream', async () => {
    const { token, userId } = await t.register();
    for (const [name, base] of [
      ['Quoter', '/quote'],
      ['Streamer', '/stream-quote'],
    ]) {
      const c = (
        await t.api('POST', '/model-connections', {
          token,
          body: { kind: 'openai', name, base_url: `${models.url}${base}`, api_key: KEY },
        })
      ).body;
      const resolved = await resolveModel(t.server.ctx, userId, `@${c.id}/gpt-x`);
      const err = (await resolved!.provider.chat({ model: resolved!.model, messages: [] }).catch((e) => e)) as Error;
      expect(err.message).toMatch(/••••/);
      expect(err.message).not.toContain(KEY);
      expect(err.message).not.toContain('abcdefghijklmnop123');
    }
  });

  it('masks credential shapes in any text', () => {
    const text = `Bearer ${KEY} api_key=${KEY.slice(3)} gsk_abcdefghijklmnopqrstu and xai-ABCDEFGHIJKLMNOPQR, secret hunter2-key`;
    const masked = maskSecrets(text, ['hunter2-key']);
    expect(masked).not.toMatch(/Q9x8W7|abcdefghijkl|ABCDEFGHIJ|hunter2/);
    expect(maskSecrets('model "llama3.2:1b" not found, try pulling it first')).toBe(
      'model "llama3.2:1b" not found, try pulling it first',
    );
  });
});
