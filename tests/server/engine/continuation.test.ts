import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../server/providers/types';
import { startTestServer, type TestServer } from '../harness';
import { makeAgents, offlineLlm, openDiscussion, sessionId, testProviders } from './helpers';

// 'Continue from here' through the real server and socket: the first turn of a continuation hears the source's
// transcript up to the chosen turn and nothing after it; a reference to someone else's discussion, to a missing
// one or to a turn it never reached is refused with a fatal error frame and starts nothing; History links the two
// discussions both ways.

const requests: ChatRequest[] = [];
const watched = offlineLlm(async (req, next) => {
  requests.push(req);
  return next(req);
});

let s: TestServer;
let token: string;
let agentIds: string[];
beforeAll(async () => {
  s = await startTestServer({}, { providers: testProviders({ llm: watched }) });
  ({ token } = await s.register());
  agentIds = await makeAgents(s, token, 2);
});
afterAll(() => s.close());

const TOPIC = 'Should the town make its buses fare-free for residents?';

/** A finished Basic discussion of `turns` turns, as stored: its id and each turn's words in order. */
async function finished(turns: number) {
  const sid = sessionId('source');
  const c = await openDiscussion(s, '/ws/discuss', token, {
    agent_ids: agentIds,
    session_id: sid,
    context: TOPIC,
    turns,
  });
  await c.waitClose(30_000);
  for (;;) {
    const r = await s.api('GET', `/discussion/${sid}`, { token });
    // The Basic endpoint's turns are `text` frames.
    const said = (r.body.frames as Array<{ data: any }>).filter((f) => f.data.type === 'text');
    if (r.body.status === 'ended' && said.length === turns)
      return { id: r.body.id as string, said: said.map((f) => String(f.data.text)) };
    await new Promise((done) => setTimeout(done, 20));
  }
}

const historyRows = async () => (await s.api('GET', '/discussion/history/page', { token })).body.items as any[];

describe('continue from here', () => {
  it('the first new turn hears the transcript up to turn N and not after it; History links both ways', async () => {
    const source = await finished(4);
    requests.length = 0;
    const sid = sessionId('continued');
    const c = await openDiscussion(s, '/ws/discuss', token, {
      agent_ids: agentIds,
      session_id: sid,
      context: TOPIC,
      turns: 2,
      continued_from: { discussion_id: source.id, turn: 2 },
    });
    await c.waitClose(30_000);
    expect(c.frames.filter((f) => f.type === 'error')).toEqual([]);
    const first = requests.find((r) => r.context?.task === 'turn')!;
    const prompt = first.messages.map((m) => m.content).join('\n');
    expect(prompt).toContain('The discussion so far:');
    expect(prompt).toContain(source.said[0]);
    expect(prompt).toContain(source.said[1]);
    expect(prompt).not.toContain(source.said[2]);
    expect(prompt).not.toContain(source.said[3]);
    // The offline model reads the same transcript as data: its first turn answers the last earlier speaker.
    expect(first.context!.history.map((h) => h.content)).toEqual(source.said.slice(0, 2));
    const lastEarlier = first.context!.history[1].speaker;
    const opening = c.frames.find((f) => f.type === 'text');
    expect(opening.text, 'the first new turn answers the last earlier speaker by name').toContain(lastEarlier);

    const rows = await historyRows();
    const made = rows.find((r) => r.session_id === sid);
    expect(made.continued_from).toEqual({ discussion_id: source.id, topic: TOPIC, turn: 2 });
    const src = rows.find((r) => r.id === source.id);
    expect(src.continued_in).toEqual([{ discussion_id: made.id, topic: TOPIC, turn: 2 }]);
    expect(src.continued_from).toBeNull();
    // The stored discussion says it too (GET /discussion/{id}, what History opens).
    expect((await s.api('GET', `/discussion/${made.id}`, { token })).body.continued_from.discussion_id).toBe(source.id);
  });

  it('a hybrid run continues too: its first turn hears the source up to turn N; History links it', async () => {
    const source = await finished(3);
    requests.length = 0;
    const sid = sessionId('continued-hybrid');
    const c = await openDiscussion(
      s,
      '/ws/hybrid',
      token,
      {
        agent_ids: agentIds,
        session_id: sid,
        topic: TOPIC,
        max_rounds: 1,
        pause_between_turns: 0,
        tts_config: null,
        auto_stop_on_consensus: false,
        allow_research: false,
        continued_from: { discussion_id: source.id, turn: 2 },
      },
      'hybrid',
    );
    await c.waitClose(30_000);
    expect(c.frames.filter((f) => f.type === 'error')).toEqual([]);
    const first = requests.find((r) => r.context?.task === 'turn')!;
    const prompt = first.messages.map((m) => m.content).join('\n');
    expect(prompt).toContain(source.said[0]);
    expect(prompt).toContain(source.said[1]);
    expect(prompt).not.toContain(source.said[2]);
    const made = (await historyRows()).find((r) => r.session_id === sid);
    expect(made.continued_from).toEqual({ discussion_id: source.id, topic: TOPIC, turn: 2 });
  });

  it('refuses a missing, foreign or too-far reference with a clear error and starts nothing', async () => {
    const source = await finished(2);
    const other = await s.register();
    const otherAgents = await makeAgents(s, other.token, 2);
    const before = (await historyRows()).length;
    const attempt = async (who: { token: string; agents: string[] }, ref: unknown) => {
      const c = await openDiscussion(s, '/ws/discuss', who.token, {
        agent_ids: who.agents,
        session_id: sessionId('refused'),
        context: TOPIC,
        turns: 2,
        continued_from: ref,
      });
      const error = await c.waitType('error');
      const closed = await c.waitClose();
      expect(error.fatal).toBe(true);
      expect(c.frames.some((f) => f.type === 'agent_message' || f.type === 'discussion_started')).toBe(false);
      return { message: String(error.message), closed };
    };
    const mine = { token, agents: agentIds };
    const foreign = await attempt({ token: other.token, agents: otherAgents }, { discussion_id: source.id, turn: 1 });
    expect(foreign.message).toMatch(/Cannot continue: no discussion of yours has the id/);
    expect(foreign.closed.code).toBe(1003);
    const missing = await attempt(mine, { discussion_id: 'no-such-discussion', turn: 1 });
    expect(missing.message).toMatch(/no discussion of yours has the id no-such-discussion/);
    const tooFar = await attempt(mine, { discussion_id: source.id, turn: 3 });
    expect(tooFar.message).toBe('Cannot continue from turn 3: that discussion has 2 turns. Nothing was started.');
    const malformed = await attempt(mine, { discussion_id: source.id, turn: 0 });
    expect(malformed.message).toMatch(/^Invalid discussion configuration: .*continued_from/);
    expect((await historyRows()).length).toBe(before);
    expect((await s.api('GET', '/discussion/history/page', { token: other.token })).body.items).toEqual([]);
  });
});
