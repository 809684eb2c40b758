import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askPanel } from '../../../server/integrations/askPanel';
import { tokensSpentToday } from '../../../server/engine/budget';
import { startPanelWorld, CALL_USAGE } from '../integrations/panelFixture';
import { openDiscussion, sessionId } from './helpers';

// Costs (docs/protocol.md#costs): every turn's tokens on its frame and stored; `token_budget` ends a run cleanly with
// a notice; USER_DAILY_TOKENS refuses a run before it starts (socket and asked panels) and stops one that crosses it.
// The loopback model reports 100 prompt + 20 completion tokens for every call.

const PER_CALL = CALL_USAGE.prompt_tokens + CALL_USAGE.completion_tokens;
const silent = { error() {}, warn() {}, info() {} } as never;

describe('tokens per turn and the discussion budget', () => {
  let w: Awaited<ReturnType<typeof startPanelWorld>>;
  let agents: string[];
  beforeAll(async () => {
    w = await startPanelWorld();
    agents = (await w.t.api('GET', '/agents/', { token: w.ada.token })).body.map((a: { id: string }) => a.id);
  });
  afterAll(() => w?.close());

  const hybrid = (tag: string, over: object = {}) =>
    openDiscussion(
      w.t,
      '/ws/hybrid',
      w.ada.token,
      {
        session_id: sessionId(tag),
        agent_ids: agents,
        topic: 'Should the library open on Sundays?',
        max_rounds: 2,
        pause_between_turns: 0,
        ...over,
      },
      'hybrid',
    );

  it("carries each turn's tokens on its frame, as the model's server counted them, and stores them", async () => {
    const c = await hybrid('usage');
    await c.waitClose(30_000);
    const turns = c.kept.filter((f) => f.type === 'agent_message');
    expect(turns.length).toBe(4);
    for (const t of turns) expect(t.usage).toEqual({ ...CALL_USAGE, source: 'provider' });
    expect(c.invalid).toEqual([]);
    // History's stored discussion has them too, and the day's sum reads them back.
    const spent = await tokensSpentToday(w.t.server.ctx.db, w.ada.userId);
    expect(spent).toBeGreaterThanOrEqual(4 * PER_CALL);
  });

  it('token_budget ends the run cleanly with a notice naming the budget', async () => {
    const sid = sessionId('budget');
    const c = await hybrid('budget', { session_id: sid, token_budget: 250 });
    await c.waitClose(30_000);
    const turns = c.kept.filter((f) => f.type === 'agent_message');
    // 120 + 120 < 250; the third turn reaches it.
    expect(turns.length).toBe(3);
    const notice = c.kept.find((f) => f.type === 'system' && f.about === 'token_budget');
    expect(notice?.content).toMatch(/budget of 250 tokens/);
    expect(c.kept.some((f) => f.type === 'discussion_summary')).toBe(false);
    expect(c.kept.at(-1)).toMatchObject({ type: 'discussion_ended', reason: 'budget' });
    expect(c.kept.some((f) => f.type === 'error' && f.fatal)).toBe(false);
    // Stored as ended, not failed.
    await new Promise((r) => setTimeout(r, 200));
    const rows = await w.t.server.ctx.db.query<{ status: string }>(
      'SELECT status FROM discussions WHERE session_id = $1',
      [sid],
    );
    expect(rows[0]?.status).toBe('ended');
  });

  it('the standard sockets say it as a notice that is not fatal', async () => {
    const c = await openDiscussion(w.t, '/ws/discuss', w.ada.token, {
      session_id: sessionId('std'),
      agent_ids: agents,
      context: 'Sundays?',
      turns: 6,
      token_budget: 130,
    });
    await c.waitClose(30_000);
    expect(c.kept.filter((f) => f.type === 'text')).toHaveLength(2);
    expect(c.kept.find((f) => f.about === 'token_budget')).toMatchObject({ type: 'error', fatal: false });
    expect(c.kept.at(-1)).toMatchObject({ type: 'discussion_ended', reason: 'budget' });
  });
});

describe('USER_DAILY_TOKENS', () => {
  let w: Awaited<ReturnType<typeof startPanelWorld>>;
  beforeAll(async () => {
    w = await startPanelWorld({ userDailyTokens: 300 });
  });
  afterAll(() => w?.close());

  it('stops a run that crosses it, then refuses the next before it starts, on the socket and the asked panels', async () => {
    const first = await askPanel(w.t.server.ctx, {
      userId: w.ada.userId,
      panel: 'Library',
      question: 'Open on Sundays?',
      origin: 'api',
      log: silent,
      maxTurns: 5,
    });
    // 300 tokens a day at 120 a turn: the third turn crosses it.
    expect(first.turns.length).toBe(3);
    expect(await tokensSpentToday(w.t.server.ctx.db, w.ada.userId)).toBe(3 * PER_CALL);
    const calls = w.chatCalls();

    const agents = (await w.t.api('GET', '/agents/', { token: w.ada.token })).body.map((a: { id: string }) => a.id);
    const c = await openDiscussion(w.t, '/ws/discuss', w.ada.token, {
      session_id: sessionId('day'),
      agent_ids: agents,
      context: 'Again?',
    });
    const closed = await c.waitClose(10_000);
    expect(closed.code).toBe(1013);
    expect(c.frames).toHaveLength(1);
    expect(c.frames[0]).toMatchObject({ type: 'error', fatal: true });
    expect(c.frames[0].message).toMatch(/daily budget of 300 tokens is spent/);

    const key = await w.ada.apiToken(['read', 'run']);
    const res = await fetch(`${w.t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'panel:Library', messages: [{ role: 'user', content: 'Once more?' }] }),
    });
    expect(res.status).toBe(429);
    const body = await res.json();
    expect(body.error).toMatchObject({ type: 'rate_limit_error' });
    expect(body.error.message).toMatch(/daily budget/);
    const mcp = new Client({ name: 'costs-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${w.t.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key.token}` } },
      }),
    );
    const asked = await mcp.callTool({ name: 'ask_panel', arguments: { panel: 'Library', question: 'And now?' } });
    await mcp.close();
    expect(asked.isError).toBe(true);
    expect(JSON.stringify(asked.content)).toMatch(/daily budget of 300 tokens is spent/);
    // Nothing ran: no model call was made for the refused ones.
    expect(w.chatCalls()).toBe(calls);

    // Another person's day is their own.
    const other = await askPanel(w.t.server.ctx, {
      userId: w.bob.userId,
      panel: 'Secret plans',
      question: 'Plans?',
      origin: 'api',
      log: silent,
    });
    expect(other.turns.length).toBeGreaterThan(0);
  });
});
