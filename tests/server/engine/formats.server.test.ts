import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlmRegistry } from '../../../server/providers';
import { createOpenAiProvider } from '../../../server/providers/llm/openai';
import { FORMAT_MODEL, startFakeFormatModel } from '../../support/fakeFormatModel';
import { startTestServer, type TestServer } from '../harness';
import { openDiscussion, sessionId, testProviders, type Client } from './helpers';

// Every format through the real server and socket, its model an OpenAI-compatible server on a loopback port that
// keeps every prompt it is sent: what each agent heard is read from the prompts themselves.

const MODEL = FORMAT_MODEL;
/** The words of a speaking turn; the test may replace it. */
let say: (prompt: string) => string = () => 'Drip irrigation saves water on sandy soil.';
let hold: Promise<void> | null = null;

let lb: Awaited<ReturnType<typeof startFakeFormatModel>>;
/** Every request the model server was sent (its messages and the schema asked for). */
let seen: Awaited<ReturnType<typeof startFakeFormatModel>>['seen'] = [];
let s: TestServer;
let token: string;
let ids: string[];
const NAMES = ['Ada', 'Bo', 'Cy'];

beforeAll(async () => {
  lb = await startFakeFormatModel({
    say: (prompt) => say(prompt),
    before: async () => {
      if (hold) await hold;
    },
  });
  seen = lb.seen;
  const llm = createLlmRegistry([createOpenAiProvider({ baseUrl: lb.url })]);
  s = await startTestServer({}, { providers: testProviders({ llm }) });
  ({ token } = await s.register());
  ids = [];
  for (const [i, name] of NAMES.entries()) {
    const r = await s.api('POST', '/agents/', {
      token,
      body: { name, role: ['Agronomist', 'Economist', 'Grower'][i], prompt: 'You weigh the evidence.', model: MODEL },
    });
    ids.push(String(r.body.id));
  }
});
afterAll(async () => {
  await s.close();
  await lb.close();
});

const start = (format: object, extra: object = {}) =>
  openDiscussion(s, '/ws/discuss', token, {
    agent_ids: ids,
    session_id: sessionId('fmt'),
    context: 'Should vineyards switch to drip irrigation?',
    turns: 4,
    format,
    ...extra,
  });
const prompt = (x: (typeof seen)[number]) => x.messages.map((m) => m.content).join('\n');
const turnsOf = (c: Client) => c.frames.filter((f) => f.type === 'text' && !f.interrupted);

describe('formats on the server', () => {
  it('council: stage-1 prompts hold no other answer, stage-2 prompts name no agent, the chair answers last', async () => {
    seen.length = 0;
    say = (p) =>
      `My own view (${/You are (\w+)/.exec(p)?.[1]}): ${p.length % 2 ? 'drip' : 'furrow'} irrigation, marker-${p.length}.`;
    const c = await start({ kind: 'council', chair: ids[2] });
    await c.waitClose(30_000);
    expect(c.invalid).toEqual([]);
    const answers = turnsOf(c)
      .slice(0, 3)
      .map((f) => f.text);
    const stage1 = seen.slice(0, 3);
    stage1.forEach((q, i) => answers.forEach((a, j) => j !== i && expect(prompt(q)).not.toContain(a)));
    const stage2 = seen.filter((q) => q.schema?.properties?.ranking);
    expect(stage2).toHaveLength(3);
    for (const q of stage2) for (const n of NAMES) expect(prompt(q)).not.toMatch(new RegExp(`\\b${n}\\b`, 'i'));
    const ranking = c.frames.find((f) => f.type === 'ranking');
    expect(ranking.rows.map((r: any) => r.agent_name).sort()).toEqual(NAMES);
    expect(c.frames.filter((f) => f.type === 'format_stage').map((f) => f.stage)).toEqual([
      'answers',
      'ranking',
      'synthesis',
    ]);
    const chair = turnsOf(c)[3];
    expect(chair.from).toBe('Cy');
    // The summary names the chair's answer; it does not print it a second time.
    const summary = c.frames.find((f) => f.type === 'discussion_summary').summary.text;
    expect(summary).toContain('Cy, as chair');
    expect(summary).not.toContain(chair.text);
  });

  it('council: the first answers are asked for at once, each streamed as its own message', async () => {
    seen.length = 0;
    say = (p) => `Answer of ${/You are (\w+)/.exec(p)?.[1]}.`;
    let open!: () => void;
    hold = new Promise<void>((r) => (open = r));
    const c = await start({ kind: 'council' });
    // All three stage-1 calls are in flight before any is answered (one at a time, only one would be).
    const deadline = Date.now() + 10_000;
    while (seen.length < 3 && Date.now() < deadline) await new Promise((r) => setImmediate(r));
    expect(seen).toHaveLength(3);
    expect(seen.every((q) => !q.schema?.properties?.ranking)).toBe(true);
    hold = null;
    open();
    await c.waitClose(30_000);
    expect(c.invalid).toEqual([]);
    const answers = turnsOf(c).slice(0, 3);
    expect(new Set(answers.map((t) => t.id)).size).toBe(3);
    expect(answers.map((t) => t.from).sort()).toEqual(NAMES);
    for (const t of answers) expect(t.text).toBe(`Answer of ${t.from}.`);
    expect(c.frames.filter((f) => f.type === 'format_stage').map((f) => f.stage)).toEqual([
      'answers',
      'ranking',
      'synthesis',
    ]);
    expect(c.frames.find((f) => f.type === 'ranking').rows).toHaveLength(3);
  });

  it('a person’s @mention makes the named agent speak next, the message first in its prompt', async () => {
    seen.length = 0;
    say = () => 'A point on cost.';
    let open!: () => void;
    hold = new Promise<void>((r) => (open = r));
    const c = await start({ kind: 'round_table' });
    await c.waitFor((f) => f.type === 'agent_status' && f.status === 'thinking');
    c.send({
      type: 'human_message',
      text: '@"cy" what does it cost per hectare?',
      timestamp: new Date().toISOString(),
    });
    await c.roundTrip();
    hold = null;
    open();
    await c.waitClose(30_000);
    const floors = c.frames.filter((f) => f.type === 'floor');
    expect(floors[1]).toMatchObject({ agent_name: 'Cy', by: 'mention', reason: 'mentioned by you' });
    expect(turnsOf(c)[1].from).toBe('Cy');
    const user = seen[1].messages.find((m) => m.role === 'user')!.content;
    expect(user.startsWith('A person asked you directly')).toBe(true);
  });

  it('with no format, a person’s @mention still gives the named agent the next turn', async () => {
    seen.length = 0;
    say = () => 'A point on water.';
    let open!: () => void;
    hold = new Promise<void>((r) => (open = r));
    const c = await start(undefined as never);
    await c.waitFor((f) => f.type === 'agent_status' && f.status === 'thinking');
    c.send({ type: 'human_message', text: 'And the pumps, @Cy?', timestamp: new Date().toISOString() });
    // Frames are handled in order: the answer to an unknown one says the message before it was delivered.
    c.send({ type: 'sync_marker' });
    await c.waitFor((f) => f.type === 'error' && /sync_marker/.test(f.message));
    hold = null;
    open();
    await c.waitClose(30_000);
    expect(turnsOf(c)[0].from).toBe('Ada');
    expect(turnsOf(c)[1].from).toBe('Cy');
    expect(c.frames.find((f) => f.type === 'floor')).toMatchObject({ agent_name: 'Cy', by: 'mention' });
    const user = seen[1].messages.find((m) => m.role === 'user')!.content;
    expect(user.startsWith('A person asked you directly')).toBe(true);
  });

  it('with no format and a message naming nobody, no floor frame and the usual order', async () => {
    seen.length = 0;
    say = () => 'A point on soil.';
    let open!: () => void;
    hold = new Promise<void>((r) => (open = r));
    const c = await start(undefined as never);
    await c.waitFor((f) => f.type === 'agent_status' && f.status === 'thinking');
    c.send({ type: 'human_message', text: 'What about Cy’s grapes? @nobody', timestamp: new Date().toISOString() });
    // Frames are handled in order: the answer to an unknown one says the message before it was delivered.
    c.send({ type: 'sync_marker' });
    await c.waitFor((f) => f.type === 'error' && /sync_marker/.test(f.message));
    hold = null;
    open();
    await c.waitClose(30_000);
    expect(c.frames.some((f) => f.type === 'floor')).toBe(false);
    expect(turnsOf(c).map((t) => t.from)).toEqual(['Ada', 'Bo', 'Cy', 'Ada']);
  });

  it('an agent’s @mention hands over the floor; the fourth hand-over in a row does not', async () => {
    seen.length = 0;
    say = (p) => (/You are Ada/.test(p) ? 'Over to @Bo.' : 'Back to @Ada.');
    const c = await start({ kind: 'round_table' }, { turns: 7 });
    await c.waitClose(30_000);
    const floors = c.frames.filter((f) => f.type === 'floor');
    expect(floors.map((f) => f.by)).toEqual(['order', 'mention', 'mention', 'mention', 'order', 'mention', 'mention']);
    expect(floors[4].agent_name).toBe('Cy');
  });

  it('a human moderator’s discussion makes no model call until the floor is given', async () => {
    seen.length = 0;
    say = () => 'Moderated point.';
    const c = await start({ kind: 'moderated', moderator: 'human' });
    await c.waitType('format_note');
    await c.roundTrip();
    expect(seen).toHaveLength(0);
    c.send({ type: 'give_floor', agent_id: ids[1] });
    await c.waitFor((f) => f.type === 'text');
    expect(seen).toHaveLength(1);
    expect(c.frames.find((f) => f.type === 'floor')).toMatchObject({ agent_name: 'Bo', by: 'human' });
    c.send({ type: 'end_discussion' });
    await c.waitClose(30_000);
    expect(c.frames.some((f) => f.type === 'discussion_summary')).toBe(true);
    expect(c.invalid).toEqual([]);
  });

  it('the floor given while an agent speaks is queued, said, honoured over an agent’s @mention, cancelled or overridden', async () => {
    seen.length = 0;
    say = (p) => (/You are Bo/.test(p) ? 'Over to @Ada.' : 'A moderated point.');
    const c = await start({ kind: 'moderated', moderator: 'human' }, { turns: 10 });
    const count = (pred: (f: any) => boolean) => c.frames.filter(pred).length;
    const waits = (n: number) => c.waitFor(() => count((f) => f.type === 'format_note' && f.kind === 'waiting') >= n);
    const thinking = (id: string, n = 1) =>
      c.waitFor(() => count((f) => f.type === 'agent_status' && f.status === 'thinking' && f.agent_id === id) >= n);
    let open!: () => void;
    const holdTurn = () => (hold = new Promise<void>((r) => (open = r)));
    const release = () => {
      hold = null;
      open();
    };
    await waits(1);

    // Cy is given the floor while Bo speaks: queued and said; Bo's @Ada does not take it.
    holdTurn();
    c.send({ type: 'give_floor', agent_id: ids[1] });
    await thinking(ids[1]);
    c.send({ type: 'give_floor', agent_id: ids[2] });
    const queued = await c.waitType('floor_queue');
    expect(queued).toMatchObject({ change: 'queued', agent_id: ids[2], agent_name: 'Cy', text: 'Cy speaks next.' });
    release();
    await waits(2);
    expect(turnsOf(c).map((t) => t.from)).toEqual(['Bo', 'Cy']);
    expect(c.frames.filter((f) => f.type === 'floor').map((f) => [f.agent_name, f.by])).toEqual([
      ['Bo', 'human'],
      ['Cy', 'human'],
    ]);

    // Given and taken back while Ada speaks: after her turn the format waits for the person again.
    holdTurn();
    c.send({ type: 'give_floor', agent_id: ids[0] });
    await thinking(ids[0]);
    c.send({ type: 'give_floor', agent_id: ids[1] });
    await c.waitFor(() => count((f) => f.type === 'floor_queue') >= 2);
    c.send({ type: 'cancel_floor' });
    await c.waitFor((f) => f.type === 'floor_queue' && f.change === 'cancelled');
    release();
    await waits(3);
    expect(turnsOf(c).map((t) => t.from)).toEqual(['Bo', 'Cy', 'Ada']);

    // The person's own @mention overrides the floor they gave, and the feed is told.
    holdTurn();
    c.send({ type: 'give_floor', agent_id: ids[0] });
    await thinking(ids[0], 2);
    c.send({ type: 'give_floor', agent_id: ids[1] });
    await c.waitFor(() => count((f) => f.type === 'floor_queue' && f.change === 'queued') >= 3);
    c.send({ type: 'human_message', text: '@Cy, your view?', timestamp: new Date().toISOString() });
    const overridden = await c.waitFor((f) => f.type === 'floor_queue' && f.change === 'overridden');
    expect(overridden.text).toBe('Your @mention gives Cy the next turn instead of Bo.');
    release();
    await waits(4);
    expect(turnsOf(c).map((t) => t.from)).toEqual(['Bo', 'Cy', 'Ada', 'Ada', 'Cy']);
    c.send({ type: 'end_discussion' });
    await c.waitClose(30_000);
    expect(c.invalid).toEqual([]);
  }, 60_000);

  it('an agent moderator gives the floor with a reason', async () => {
    seen.length = 0;
    const c = await start({ kind: 'moderated', moderator: ids[0] }, { turns: 2 });
    await c.waitClose(30_000);
    const floor = c.frames.find((f) => f.type === 'floor');
    expect(floor).toMatchObject({ agent_name: 'Cy', by: 'moderator', reason: 'They have not spoken yet.' });
    expect(turnsOf(c).map((t) => t.from)).not.toContain('Ada');
  });

  it('debate: the judge votes before and after; the result names the side that grew', async () => {
    seen.length = 0;
    const c = await start({ kind: 'debate', judge: ids[2], sides: { for: [ids[0]], against: [ids[1]] } });
    await c.waitClose(30_000);
    expect(c.frames.filter((f) => f.type === 'vote').map((v) => [v.phase, v.side])).toEqual([
      ['before', 'against'],
      ['after', 'for'],
    ]);
    expect(c.frames.find((f) => f.type === 'debate_result')).toMatchObject({ side: 'for', change: 40 });
    expect(turnsOf(c).map((t) => t.from)).toEqual(['Ada', 'Bo', 'Ada', 'Bo', 'Ada', 'Bo']);
    const firstVote = seen.find((q) => q.schema?.properties?.side)!;
    expect(prompt(firstVote)).not.toContain('Drip');
  });

  describe('bad input', () => {
    const cases: Array<[string, (ids: string[]) => object, RegExp]> = [
      ['an unknown kind', () => ({ kind: 'fishbowl' }), /format\.kind|Invalid option/i],
      [
        'a moderator not in the discussion',
        () => ({ kind: 'moderated', moderator: 'nobody' }),
        /moderator "nobody" is not an agent/,
      ],
      ['a chair not in the discussion', () => ({ kind: 'council', chair: 'ghost' }), /chair "ghost"/],
      [
        'a side with no agent',
        (a) => ({ kind: 'debate', sides: { for: [a[0], a[1]], against: [] } }),
        /'Against' side has no agent/,
      ],
      [
        'a judge who debates',
        (a) => ({ kind: 'debate', judge: a[0], sides: { for: [a[0]], against: [a[1]] } }),
        /judge is also a debater/,
      ],
      [
        'an agent on both sides',
        (a) => ({ kind: 'debate', judge: 'human', sides: { for: [a[0]], against: [a[0], a[1]] } }),
        /both sides/,
      ],
    ];
    it.each(cases)('%s: an error frame, nothing started', async (_what, make, message) => {
      seen.length = 0;
      const c = await start(make(ids));
      await c.waitClose();
      const error = c.frames.find((f) => f.type === 'error');
      expect(error?.fatal).toBe(true);
      expect(error.message).toMatch(message);
      expect(c.frames.map((f) => f.type)).toEqual(['error']);
      expect(seen).toHaveLength(0);
    });

    it('200 random format objects never crash or hang the server', async () => {
      say = () => 'Fuzzed.';
      const id = fc.oneof(fc.constantFrom(...ids, 'human', '', 'x'.repeat(300)), fc.string({ maxLength: 8 }));
      const anyFormat = fc.oneof(
        fc.record(
          {
            kind: fc.oneof(
              fc.constantFrom('round_table', 'moderated', 'council', 'debate'),
              fc.string({ maxLength: 10 }),
            ),
            moderator: fc.option(id, { nil: undefined }),
            chair: fc.option(id, { nil: undefined }),
            judge: fc.option(id, { nil: undefined }),
            sides: fc.option(
              fc.record({ for: fc.array(id, { maxLength: 4 }), against: fc.array(id, { maxLength: 4 }) }),
              { nil: undefined },
            ),
          },
          { requiredKeys: [] },
        ),
        fc.anything({ maxDepth: 2 }),
      );
      await fc.assert(
        fc.asyncProperty(anyFormat, async (format) => {
          const c = await start(format as object);
          const first = await c.waitFor(
            (f) =>
              f.type === 'error' || f.type === 'discussion_started' || f.type === 'format_note' || f.type === 'floor',
          );
          if (first.type !== 'error') c.send({ type: 'stop' });
          await c.waitClose();
          expect(c.frames.every((f) => f.type !== 'error' || typeof f.message === 'string')).toBe(true);
        }),
        { numRuns: 200 },
      );
      const health = await s.api('GET', '/health');
      expect(health.status).toBe(200);
    }, 120_000);
  });
});
