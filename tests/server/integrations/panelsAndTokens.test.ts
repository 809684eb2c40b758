import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness';

// Saved panels and API tokens (docs/integrations.md): a panel seats only its owner's agents and is named once per
// person; a token is shown once, stored as its hash, opens only the surfaces for other clients, and is refused
// at once when revoked or expired.

let t: TestServer;
let ada: { token: string; userId: string };
let bob: { token: string; userId: string };
const agentIds: string[] = [];

const agent = async (token: string, name: string) =>
  (await t.api('POST', '/agents/', { token, body: { name, role: 'Analyst', prompt: 'Weigh it.', model: 'offline' } }))
    .body.id as string;

beforeAll(async () => {
  t = await startTestServer({
    integrations: { panelsPerUser: 3, apiTokensPerUser: 2, apiTokenRateLimit: 1000 },
  });
  ada = await t.register();
  bob = await t.register();
  for (const name of ['Ada', 'Bo', 'Cy']) agentIds.push(await agent(ada.token, name));
});
afterAll(() => t?.close());

describe('/panels', () => {
  it('saves, lists, renames and deletes a panel of the person’s agents', async () => {
    const made = await t.api('POST', '/panels', {
      token: ada.token,
      body: { name: 'Budget review', agent_ids: agentIds.slice(0, 2), settings: { turns: 4 } },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'Budget review', agent_ids: agentIds.slice(0, 2), settings: { turns: 4 } });
    const list = await t.api('GET', '/panels', { token: ada.token });
    expect(list.body.map((p: { name: string }) => p.name)).toEqual(['Budget review']);
    const renamed = await t.api('PATCH', `/panels/${made.body.id}`, { token: ada.token, body: { name: 'Costs' } });
    expect(renamed.body).toMatchObject({ name: 'Costs', agent_ids: agentIds.slice(0, 2) });
    expect((await t.api('DELETE', `/panels/${made.body.id}`, { token: ada.token })).status).toBe(200);
    expect((await t.api('GET', `/panels/${made.body.id}`, { token: ada.token })).status).toBe(404);
  });

  it('refuses another person’s agents, a second panel of the same name, and one panel too many', async () => {
    const bobsAgent = await agent(bob.token, 'Mallory');
    const foreign = await t.api('POST', '/panels', {
      token: ada.token,
      body: { name: 'Mixed', agent_ids: [agentIds[0], bobsAgent] },
    });
    expect(foreign.status).toBe(422);
    expect(foreign.body.detail).toContain(bobsAgent);
    const one = await t.api('POST', '/panels', {
      token: ada.token,
      body: { name: 'Duo', agent_ids: agentIds.slice(0, 2) },
    });
    expect(one.status).toBe(201);
    const again = await t.api('POST', '/panels', {
      token: ada.token,
      body: { name: 'duo', agent_ids: agentIds.slice(1) },
    });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe("You already have a panel named 'duo'");
    for (const name of ['Two', 'Three'])
      expect(
        (await t.api('POST', '/panels', { token: ada.token, body: { name, agent_ids: agentIds.slice(1) } })).status,
      ).toBe(201);
    const over = await t.api('POST', '/panels', {
      token: ada.token,
      body: { name: 'Four', agent_ids: agentIds.slice(1) },
    });
    expect(over.status).toBe(409);
    expect(over.body.detail).toContain('PANELS_PER_USER');
    // Another person sees none of them, in the words of one that does not exist.
    expect((await t.api('GET', '/panels', { token: bob.token })).body).toEqual([]);
    expect((await t.api('GET', `/panels/${one.body.id}`, { token: bob.token })).body.detail).toBe('Panel not found');
    expect((await t.api('DELETE', `/panels/${one.body.id}`, { token: bob.token })).status).toBe(404);
  });

  it('refuses a one-agent panel and a name with a slash, in words', async () => {
    const solo = await t.api('POST', '/panels', { token: ada.token, body: { name: 'Solo', agent_ids: [agentIds[0]] } });
    expect(solo.status).toBe(422);
    expect(JSON.stringify(solo.body)).toContain('at least two agents');
    const slash = await t.api('POST', '/panels', { token: ada.token, body: { name: 'a/b', agent_ids: agentIds } });
    expect(slash.status).toBe(422);
  });
});

describe('/api-tokens', () => {
  it('shows a token once, keeps only its hash, lists it with its hint, and lets it list the panels as models', async () => {
    const made = await t.api('POST', '/api-tokens', { token: ada.token, body: { name: 'Cursor', scopes: ['read'] } });
    expect(made.status).toBe(201);
    expect(made.headers.get('cache-control')).toBe('no-store');
    const { token, id, hint } = made.body;
    expect(token).toMatch(/^agora_[\w-]{43}$/);
    expect(hint).toBe(`${token.slice(0, 10)}…`);
    const stored = await t.server.ctx.db.query<{ token_hash: string }>(
      'SELECT token_hash FROM api_tokens WHERE id = $1',
      [id],
    );
    expect(stored[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(token.slice(6));
    const listed = await t.api('GET', '/api-tokens', { token: ada.token });
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0]).toMatchObject({ id, name: 'Cursor', scopes: ['read'], hint, last_used_at: null });
    expect(JSON.stringify(listed.body)).not.toContain(token);

    const models = await t.api('GET', '/v1/models', { token });
    expect(models.status).toBe(200);
    expect(models.body.object).toBe('list');
    expect(models.body.data.map((m: { id: string }) => m.id)).toEqual(['panel:Duo', 'panel:Three', 'panel:Two']);
    expect((await t.api('GET', '/api-tokens', { token: ada.token })).body[0].last_used_at).not.toBeNull();
  });

  it('opens only the surfaces for other clients: an API token is not a session', async () => {
    const { token } = (await t.api('POST', '/api-tokens', { token: bob.token, body: { name: 's', scopes: ['run'] } }))
      .body;
    expect((await t.api('GET', '/agents/', { token })).status).toBe(401);
    expect((await t.api('POST', '/api-tokens', { token, body: { name: 'more', scopes: ['run'] } })).status).toBe(401);
    // And a session token is not an API token.
    const v1 = await t.api('GET', '/v1/models', { token: bob.token });
    expect(v1.status).toBe(401);
    expect(v1.body.error).toMatchObject({ type: 'authentication_error' });
    // Bob's token lists Bob's panels (none), never Ada's.
    expect((await t.api('GET', '/v1/models', { token })).body.data).toEqual([]);
  });

  it('refuses a revoked token at once and an expired one, in OpenAI’s error shape', async () => {
    const made = await t.api('POST', '/api-tokens', { token: bob.token, body: { name: 'x', scopes: ['read'] } });
    expect((await t.api('GET', '/v1/models', { token: made.body.token })).status).toBe(200);
    expect((await t.api('DELETE', `/api-tokens/${made.body.id}`, { token: bob.token })).status).toBe(200);
    const revoked = await t.api('GET', '/v1/models', { token: made.body.token });
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.message).toBe('This API token is not valid (unknown, revoked or expired)');

    const soon = new Date(Date.now() + 60_000).toISOString();
    const expiring = await t.api('POST', '/api-tokens', {
      token: bob.token,
      body: { name: 'y', scopes: ['read'], expires_at: soon },
    });
    expect(expiring.status).toBe(201);
    await t.server.ctx.db.query("UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = $1", [
      expiring.body.id,
    ]);
    expect((await t.api('GET', '/v1/models', { token: expiring.body.token })).status).toBe(401);
    const past = await t.api('POST', '/api-tokens', {
      token: bob.token,
      body: { name: 'z', scopes: ['read'], expires_at: '2020-01-01T00:00:00Z' },
    });
    expect(past.status).toBe(422);
  });

  it('caps the tokens a person holds, and another person cannot revoke them', async () => {
    const own = (await t.api('GET', '/api-tokens', { token: ada.token })).body;
    expect((await t.api('DELETE', `/api-tokens/${own[0].id}`, { token: bob.token })).status).toBe(404);
    await t.api('POST', '/api-tokens', { token: ada.token, body: { name: 'second', scopes: ['run', 'run'] } });
    const third = await t.api('POST', '/api-tokens', { token: ada.token, body: { name: 'third', scopes: ['read'] } });
    expect(third.status).toBe(409);
    expect(third.body.detail).toContain('API_TOKENS_PER_USER');
    const listed = (await t.api('GET', '/api-tokens', { token: ada.token })).body;
    expect(listed.find((x: { name: string }) => x.name === 'second').scopes).toEqual(['run']);
  });
});
