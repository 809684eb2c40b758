import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../../server/integrations/apiTokenStore';
import { agentCard } from '../../../src/schemas/agentCard';
import { startServerProcess, type ServerProcess } from '../serverProcess';
import { startPanelWorld } from './panelFixture';

// The surfaces for other clients, from the outside: one person's token sees only that person's panels and
// discussions through /v1 and /mcp; the per-person rate limit holds across tokens; the agent card is public; and a
// server logging everything (LOG_LEVEL=trace) writes no token, whole or hashed.

describe('one person’s token, another person’s data', () => {
  let w: Awaited<ReturnType<typeof startPanelWorld>>;
  beforeAll(async () => {
    w = await startPanelWorld({ integrations: { panelsPerUser: 10, apiTokensPerUser: 10, apiTokenRateLimit: 4 } });
  });
  afterAll(() => w?.close());

  it('lists only the holder’s panels as models, and cannot ask another’s panel', async () => {
    const bob = new OpenAI({
      baseURL: `${w.t.url}/v1`,
      apiKey: (await w.bob.apiToken(['read', 'run'])).token,
      maxRetries: 0,
    });
    expect((await bob.models.list()).data.map((m) => m.id)).toEqual(['panel:Secret plans']);
    const err = await bob.chat.completions
      .create({ model: 'panel:Library', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e) => e);
    expect(err.status).toBe(404);
    expect(err.code).toBe('model_not_found');
    // By id too: Ada's panel id is not Bob's model.
    const byId = await bob.chat.completions
      .create({ model: `panel:${w.ada.panelId}`, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e) => e);
    expect(byId.status).toBe(404);
  });

  it('an API token opens no app route, and a session token opens no /v1 or /mcp', async () => {
    const api = (await w.ada.apiToken(['read', 'run'])).token;
    expect((await w.t.api('GET', '/panels', { token: api })).status).toBe(401);
    expect((await w.t.api('GET', '/discussion/history', { token: api })).status).toBe(401);
    const v1 = await w.t.api('GET', '/v1/models', { token: w.ada.token });
    expect(v1.status).toBe(401);
    expect(v1.body.error.type).toBe('authentication_error');
    expect((await w.t.api('POST', '/mcp', { token: w.ada.token, body: {} })).status).toBe(401);
  });

  it('counts one person’s calls across all their tokens, refusing in OpenAI’s shape', async () => {
    const [one, two] = [(await w.ada.apiToken(['read'])).token, (await w.ada.apiToken(['read'])).token];
    const statuses: number[] = [];
    let last: { body: any } = { body: null };
    for (const token of [one, two, one, two, one]) {
      last = await w.t.api('GET', '/v1/models', { token });
      statuses.push((last as { status: number } & typeof last).status);
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(last.body.error).toMatchObject({ type: 'rate_limit_error' });
    // Another person has their own budget.
    expect((await w.t.api('GET', '/v1/models', { token: (await w.bob.apiToken(['read'])).token })).status).toBe(200);
  });

  it('serves the agent card to anyone: the ask-a-panel skill and the bearer auth it needs', async () => {
    const res = await fetch(`${w.t.url}/.well-known/agent-card.json`);
    expect(res.status).toBe(200);
    const card = agentCard.parse(await res.json());
    expect(card.url).toBe(`${w.t.url}/mcp`);
    expect(card.skills.map((s) => s.id)).toEqual(['ask_panel']);
    expect(card.securitySchemes.apiToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(card.security).toEqual([{ apiToken: ['run'] }]);
    expect(JSON.stringify(card)).not.toMatch(/Library|Secret plans/);
  });
});

describe('logs', () => {
  let p: ServerProcess;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'agora-facade-log-'));
    p = await startServerProcess({ LOG_LEVEL: 'trace', DATABASE_URL: 'memory://', DATA_DIR: dir }, 120_000);
  }, 130_000);
  afterAll(async () => {
    await p?.kill();
    await rm(dir, { recursive: true, force: true });
  });

  it('write neither an API token nor its hash, whatever surface it was sent to', async () => {
    const post = async (url: string, body: unknown, token?: string) =>
      (
        await fetch(p.url + url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify(body),
        })
      ).json() as Promise<any>;
    const session = (await post('/auth/register', { email: 'log@example.com', password: 'secret-pass' })).access_token;
    const ids: string[] = [];
    for (const name of ['Ada', 'Bo'])
      ids.push((await post('/agents/', { name, role: 'Analyst', prompt: 'Weigh it.', model: 'offline' }, session)).id);
    await post('/panels', { name: 'Logged', agent_ids: ids, settings: { max_rounds: 1 } }, session);
    const { token } = await post('/api-tokens', { name: 'log', scopes: ['read', 'run'] }, session);
    expect(token).toMatch(/^agora_/);

    const openai = new OpenAI({ baseURL: `${p.url}/v1`, apiKey: token, maxRetries: 0 });
    await openai.models.list();
    await openai.chat.completions.create({ model: 'panel:Logged', messages: [{ role: 'user', content: 'Sundays?' }] });
    await openai.chat.completions
      .create({ model: 'panel:Nope', messages: [{ role: 'user', content: 'x' }] })
      .catch(() => null);
    const client = new Client({ name: 'log-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${p.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    await client.callTool({ name: 'list_panels', arguments: {} });
    await client.close();
    await fetch(`${p.url}/v1/models`, { headers: { authorization: `Bearer ${token}x` } });

    const out = p.output();
    expect(out).toContain('/v1/chat/completions');
    expect(out).not.toContain(token);
    expect(out).not.toContain(token.slice('agora_'.length, 'agora_'.length + 16));
    expect(out).not.toContain(hashToken(token));
  }, 120_000);
});
