import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tuneEngine } from '../../../server/engine/hooks';
import { startTestServer, type TestServer } from '../harness';
import { orderProblems } from './frameOrder';
import { makeAgents, offlineLlm, openDiscussion, sessionId, testProviders } from './helpers';

// A dropped socket (1006) does not lose the discussion: it runs on for the grace period, and a reconnect with
// the same session_id receives every frame it missed, in order, then the live ones.

// The model waits at the gate from turn `fromTurn` on, so a test can drop the socket at a known point.
let gate: { promise: Promise<void>; open: () => void; fromTurn: number } | null = null;
const hold = (fromTurn = 1) => {
  let open!: () => void;
  gate = { promise: new Promise<void>((r) => (open = r)), open: () => open(), fromTurn };
  return gate;
};
const llm = offlineLlm(async (req, next) => {
  if (gate && (req.context?.turn ?? 0) >= gate.fromTurn) await gate.promise;
  return next(req);
});

let s: TestServer;
let token: string;
let agentIds: string[];
beforeAll(async () => {
  s = await startTestServer({}, { providers: testProviders({ llm }) });
  tuneEngine(s.server.ctx, { graceMs: 400 });
  ({ token } = await s.register());
  agentIds = await makeAgents(s, token, 2);
});
afterAll(() => s.close());

const stored = async (sid: string, t = token) => (await s.api('GET', `/discussion/${sid}`, { token: t })).body;
const until = async (pred: () => Promise<boolean> | boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('reconnect and resume', () => {
  it('replays every missed frame in order after a 1006 drop, then continues live', async () => {
    const config = { agent_ids: agentIds, session_id: sessionId('resume'), context: 'Drop me and come back', turns: 6 };
    const g = hold(3);
    const first = await openDiscussion(s, '/ws/discuss', token, config);
    await first.waitFor(
      () => first.frames.filter((f) => f.type === 'agent_status' && f.status === 'thinking').length === 3,
    );
    expect(first.frames.filter((f) => f.type === 'text')).toHaveLength(2);
    // The server's delivery ping gets its pong before the drop, so the replay starts exactly here.
    await first.delivered();
    first.ws.terminate();
    await first.waitClose();
    // The model answers while nobody is connected: these frames must wait for the reconnect.
    g.open();
    gate = null;
    await until(async () => (await stored(config.session_id)).frame_count > first.kept.length + 3);

    const second = await openDiscussion(s, '/ws/discuss', token, config);
    expect((await second.waitClose()).code).toBe(1000);
    const all = [...first.kept, ...second.kept];
    expect(orderProblems(all)).toEqual([]);
    expect(all.filter((f) => f.type === 'text').map((f) => f.turn)).toEqual([1, 2, 3, 4, 5, 6]);
    const d = await stored(config.session_id);
    expect(d.status).toBe('ended');
    expect(all).toEqual(d.frames.map((f: { data: unknown }) => f.data));
    expect(second.invalid).toEqual([]);
  });

  it('starts the replay where resume_from says', async () => {
    const config = { agent_ids: agentIds, session_id: sessionId('resume-from'), context: 'Exact replay', turns: 4 };
    const g = hold();
    const first = await openDiscussion(s, '/ws/discuss', token, config);
    await first.waitFor((f) => f.type === 'agent_status' && f.status === 'thinking');
    first.ws.terminate();
    await first.waitClose();
    g.open();
    gate = null;
    await until(async () => (await stored(config.session_id)).status === 'ended');
    const again = await openDiscussion(s, '/ws/discuss', token, { ...config, resume_from: 1 });
    await again.waitClose();
    const d = await stored(config.session_id);
    expect(again.kept).toEqual(d.frames.slice(1).map((f: { data: unknown }) => f.data));
  });

  it('stops the discussion and stores it as abandoned when nobody comes back within the grace period', async () => {
    const config = { agent_ids: agentIds, session_id: sessionId('abandon'), context: 'Nobody returns', turns: 10 };
    hold();
    const c = await openDiscussion(s, '/ws/discuss', token, config);
    await c.waitFor((f) => f.type === 'agent_status' && f.status === 'thinking');
    c.ws.terminate();
    await until(async () => (await stored(config.session_id)).status === 'abandoned', 3_000);
    gate!.open();
    gate = null;
    const d = await stored(config.session_id);
    expect(d.frames.at(-1).data).toMatchObject({ type: 'discussion_ended', reason: 'abandoned' });
    expect(d.ended_at).toBeTruthy();
  });

  it('a clean close without stop ends the discussion at once', async () => {
    const config = { agent_ids: agentIds, session_id: sessionId('clean'), context: 'Bye', turns: 10 };
    hold();
    const c = await openDiscussion(s, '/ws/discuss', token, config);
    await c.waitFor((f) => f.type === 'agent_status' && f.status === 'thinking');
    c.ws.close(1000);
    await until(async () => (await stored(config.session_id)).status === 'ended', 2_000);
    gate!.open();
    gate = null;
    expect((await stored(config.session_id)).frames.at(-1).data).toMatchObject({ reason: 'client_closed' });
  });

  it('refuses to resume a session id on another endpoint, and replays a long-finished one from storage', async () => {
    const config = { agent_ids: agentIds, session_id: sessionId('other-endpoint'), context: 'Short', turns: 2 };
    const c = await openDiscussion(s, '/ws/discuss', token, config);
    await c.waitClose();
    const wrong = await openDiscussion(s, '/ws/enhanced', token, config);
    expect((await wrong.waitClose()).code).toBe(1003);
    expect(wrong.frames[0].message).toMatch(/another endpoint/);
    // After the grace period only the database has it: a reconnect gets the stored frames and a clean close.
    await until(() => ![...s.server.ctx.discussions.sessions.keys()].some((k) => k.includes(config.session_id)));
    const late = await openDiscussion(s, '/ws/discuss', token, { ...config, resume_from: 0 });
    expect((await late.waitClose()).code).toBe(1000);
    expect(late.frames).toEqual(c.kept);
  });
});
