import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askPanel } from '../../../server/integrations/askPanel';
import { panelDraftOf } from '../../../src/model/savedPanel';
import { defaults } from '../../../src/schemas/settings';
import { startTestServer, type TestServer } from '../harness';

// Asking a saved panel with no socket (server/integrations/askPanel.ts): the discussion runs to its end through the
// socket's entrance, is stored in History with its origin, reports each turn, and stops when cancelled.

let t: TestServer;
let ada: { token: string; userId: string };
const silent = { error() {}, warn() {}, info() {} } as never;

const agent = async (token: string, name: string) =>
  (await t.api('POST', '/agents/', { token, body: { name, role: 'Analyst', prompt: 'Weigh it.', model: 'offline' } }))
    .body.id as string;

beforeAll(async () => {
  t = await startTestServer();
  ada = await t.register();
  const ids = [await agent(ada.token, 'Ada'), await agent(ada.token, 'Bo')];
  await t.api('POST', '/panels', {
    token: ada.token,
    body: { name: 'Pair', agent_ids: ids, settings: { max_rounds: 1 } },
  });
  // Saved as the app's 'Save as panel' saves them: the standard panel's Advanced Settings sections and its format.
  const saved = await t.api('POST', '/panels', {
    token: ada.token,
    body: { name: 'From the app', ...panelDraftOf(ids, defaults.standardPanel) },
  });
  expect(saved.status).toBe(201);
  const judged = { ...defaults.standardPanel, format: { ...defaults.standardPanel.format, kind: 'debate' as const } };
  await t.api('POST', '/panels', { token: ada.token, body: { name: 'Judged by me', ...panelDraftOf(ids, judged) } });
});
afterAll(() => t?.close());

describe('askPanel', () => {
  it('runs the panel to its end, reports each turn and is in History as asked via MCP', async () => {
    const seen: string[] = [];
    const answer = await askPanel(t.server.ctx, {
      userId: ada.userId,
      panel: 'pair',
      question: 'Should the library open on Sundays?',
      earlier: [{ role: 'user', content: 'We run a small town library.' }],
      origin: 'mcp',
      log: silent,
      onTurn: (turn, n) => seen.push(`${n}:${turn.agent_name}`),
    });
    expect(seen).toEqual(['1:Ada', '2:Bo']);
    expect(answer.turns.map((x) => x.agent_name)).toEqual(['Ada', 'Bo']);
    expect(answer.answer.length).toBeGreaterThan(0);
    expect(answer.address).toBe(`/discussions/${answer.discussion_id}`);
    expect(answer.usage.total_tokens).toBeGreaterThan(0);
    // The offline model counts nothing: the figure is an estimate, and says so.
    expect(answer.usage.estimated).toBe(true);
    const history = await t.api('GET', '/discussion/history', { token: ada.token });
    const row = history.body.find((r: { id: string }) => r.id === answer.discussion_id);
    expect(row).toMatchObject({ origin: 'mcp', topic: 'Should the library open on Sundays?', status: 'ended' });
  });

  it("runs a panel saved by the app (its settings sections become the endpoint's fields)", async () => {
    const answer = await askPanel(t.server.ctx, {
      userId: ada.userId,
      panel: 'From the app',
      question: 'Should the pool open at six?',
      maxTurns: 1,
      origin: 'api',
      log: silent,
    });
    expect(answer.turns.length).toBeGreaterThan(0);
    expect(answer.answer.length).toBeGreaterThan(0);
  });

  it('refuses a panel that seats the person (a debate they judge): nobody could vote', async () => {
    const asked = askPanel(t.server.ctx, {
      userId: ada.userId,
      panel: 'Judged by me',
      question: 'Should the pool open at six?',
      origin: 'mcp',
      log: silent,
    });
    await expect(asked).rejects.toMatchObject({ status: 422, message: expect.stringMatching(/seats you/) });
  });

  it('stops the discussion when the caller cancels', async () => {
    const abort = new AbortController();
    const answer = await askPanel(t.server.ctx, {
      userId: ada.userId,
      panel: 'Pair',
      question: 'Cancel me',
      maxTurns: 20,
      origin: 'api',
      log: silent,
      onTurn: () => abort.abort(),
      signal: abort.signal,
    });
    expect(answer.end_reason).toBe('cancelled');
    expect(answer.turns.length).toBeLessThan(20);
    const history = await t.api('GET', '/discussion/history', { token: ada.token });
    expect(history.body.find((r: { id: string }) => r.id === answer.discussion_id)).toMatchObject({ origin: 'api' });
  });
});
