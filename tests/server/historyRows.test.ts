import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_FIRST_LINE_MAX, historyPage } from '../../src/schemas/history';
import { startTestServer, type TestServer } from './harness';
import { startFakeOpenAi } from '../support/fakeModelServers';
import { makeAgents, offlineLlm, openDiscussion, sessionId, testProviders } from './engine/helpers';

// A History row tells discussions apart: who took part (as they looked when it started, with their models) and
// the first line said, so four rows on one topic are not four identical lines.

let s: TestServer;
let token: string;
let agentIds: string[];
beforeAll(async () => {
  s = await startTestServer({}, { providers: testProviders({ llm: offlineLlm() }) });
  ({ token } = await s.register());
  agentIds = await makeAgents(s, token, 2);
  await restyle('#047857', '🦉');
});
afterAll(() => s.close());

async function restyle(color: string, avatar: string) {
  const r = await s.api('PATCH', `/agents/${agentIds[0]}`, { token, body: { color, avatar } });
  expect(r.status).toBe(200);
}

describe('History rows', () => {
  it('carry the participants (look and model) and the first line of the first turn', async () => {
    const sid = sessionId('rows');
    const c = await openDiscussion(s, '/ws/discuss', token, {
      agent_ids: agentIds,
      session_id: sid,
      context: 'Should our city make public transport free?',
      legacy_config: { turns: 2 },
    });
    await c.waitClose();
    const agents = (await s.api('GET', '/agents/', { token })).body as { id: string; name: string; model: string }[];
    // A later change of look does not rewrite how the past discussion is drawn.
    await restyle('#b91c1c', '🦉');
    const page = historyPage.parse((await s.api('GET', '/discussion/history/page', { token })).body);
    const row = page.items.find((d) => d.session_id === sid)!;
    expect(row.participants?.map((p) => p.id)).toEqual(agentIds);
    expect(row.participants?.[0]).toMatchObject({
      color: '#047857',
      avatar: '🦉',
      name: agents.find((a) => a.id === agentIds[0])!.name,
    });
    expect(row.participants?.[1].model).toBe(agents.find((a) => a.id === agentIds[1])!.model);
    expect(row.first_line).toBeTruthy();
    // Started from the app's socket: its origin is 'app' (a panel asked via /mcp or /v1 says so; integrations tests).
    expect(row.origin).toBe('app');
    expect(row.first_line!.length).toBeLessThanOrEqual(HISTORY_FIRST_LINE_MAX);
    expect(row.first_line).not.toContain('\n');
  });

  it("store each model as its owner reads it ('<connection name> · <model>'), which outlives the connection", async () => {
    const fake = await startFakeOpenAi({ models: ['walk-sim-7b'] });
    try {
      const conn = await s.api('POST', '/model-connections', {
        token,
        body: { kind: 'openai', name: 'Loopback sim', base_url: `${fake.url}/v1` },
      });
      expect(conn.status).toBe(201);
      const model = String(conn.body.models[0].id);
      expect(model).toMatch(/^@.+\/walk-sim-7b$/);
      await s.api('PATCH', `/agents/${agentIds[1]}`, { token, body: { model } });
      const sid = sessionId('labels');
      const c = await openDiscussion(s, '/ws/discuss', token, {
        agent_ids: agentIds,
        session_id: sid,
        context: 'Should the park open at night?',
        legacy_config: { turns: 2 },
      });
      await c.waitClose();
      await s.api('DELETE', `/model-connections/${conn.body.id}`, { token });
      const page = historyPage.parse((await s.api('GET', '/discussion/history/page', { token })).body);
      const row = page.items.find((d) => d.session_id === sid)!;
      expect(row.participants?.[1]).toMatchObject({ model, model_label: 'Loopback sim · walk-sim-7b' });
      // A plain name (the offline model) is named by the client, not stored.
      expect(row.participants?.[0].model_label ?? null).toBeNull();
    } finally {
      await fake.close();
    }
  });
});
