import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../server/providers/errors';
import WebSocket from 'ws';
import { storedDiscussion, discussionHistory } from '../../../src/schemas/history';
import { ENGINE_MESSAGES } from '../../../src/schemas/messages';
import { tuneEngine } from '../../../server/engine/hooks';
import type { ChatRequest } from '../../../server/providers/types';
import { collect, startTestServer, type TestServer } from '../harness';
import { orderProblems, streamProblems } from './frameOrder';
import {
  fakeSpeech,
  humanMessagesStored,
  makeAgents,
  offlineLlm,
  openDiscussion,
  recordedResearch,
  sessionId,
  testProviders,
} from './helpers';

// The discussion sockets against the real server, the real offline model and an in-memory PGlite.

const requests: ChatRequest[] = [];
let failFor: string | null = null;
let holdFirst: { gate: Promise<void>; open: () => void } | null = null;
const watched = offlineLlm(async (req, next) => {
  requests.push(req);
  // As a real provider fails (providers/errors.ts); any other exception reaches the client only as a reference.
  if (failFor && req.context?.agent.name === failFor)
    throw new ProviderError('the model server answered 500: out of memory', 'offline', 'http', 500);
  if (holdFirst && req.context?.turn === 1) await holdFirst.gate;
  return next(req);
});

let s: TestServer;
let token: string;
let agentIds: string[];
beforeAll(async () => {
  s = await startTestServer(
    {},
    { providers: testProviders({ llm: watched, speech: fakeSpeech(), research: recordedResearch() }) },
  );
  tuneEngine(s.server.ctx, { ackTimeoutMs: 50 });
  ({ token } = await s.register());
  agentIds = await makeAgents(s, token);
});
afterAll(() => s.close());

const base = (tag: string) => ({ agent_ids: agentIds, session_id: sessionId(tag) });

async function runToEnd(path: string, config: object, panel: 'standard' | 'hybrid' = 'standard') {
  const c = await openDiscussion(s, path, token, config, panel);
  const closed = await c.waitClose(30_000);
  return { c, closed };
}

describe('each endpoint with the offline model', () => {
  const cases: Array<[string, string, object, 'standard' | 'hybrid', string[]]> = [
    [
      'basic',
      '/ws/discuss',
      { context: 'Should our vineyard switch to drip irrigation?', turns: 5, mode: 'sequential' },
      'standard',
      ['discussion_started', 'text'],
    ],
    [
      'basic smart_delegation',
      '/discussion/ws/discuss',
      { context: 'Plan the harvest logistics.', turns: 6, mode: 'smart_delegation' },
      'standard',
      ['text'],
    ],
    [
      'basic natural',
      '/ws/discuss',
      { context: 'Pick a cover crop.', turns: 4, mode: 'natural' },
      'standard',
      ['text'],
    ],
    [
      'enhanced',
      '/ws/enhanced',
      {
        context: 'Should we certify organic?',
        communication_config: { useACL: true, interruptThreshold: 0.5 },
        legacy_config: { turns: 6, mode: 'enhanced' },
      },
      'standard',
      ['acl_message', 'agent_message', 'consensus_reached', 'discussion_summary'],
    ],
    [
      'multi-round',
      '/ws/multi_round_reasoning',
      {
        context: 'How do we reduce powdery mildew?',
        reasoning_config: { maxRounds: 2 },
        research_config: { enableResearch: true },
      },
      'standard',
      ['reasoning_stage', 'round_start', 'argument', 'round_end', 'consensus_reached', 'research_result'],
    ],
    [
      'hybrid (standard panel)',
      '/ws/hybrid',
      { topic: 'Is precision viticulture worth it for small estates?', max_rounds: 2 },
      'standard',
      ['discussion_initialized', 'round_start', 'agent_message', 'round_end', 'consensus_reached'],
    ],
    ...(['natural', 'structured', 'hybrid', 'adaptive'] as const).map(
      (mode): [string, string, object, 'standard' | 'hybrid', string[]] => [
        `hybrid panel, ${mode}`,
        mode === 'hybrid' ? '/hybrid-discussion/ws' : '/ws/hybrid',
        {
          topic: 'How should estates adapt to hotter summers?',
          mode,
          max_rounds: 3,
          turns_per_round: 1,
          pause_between_turns: 0,
          tts: false,
          tts_config: null,
          auto_stop_on_consensus: true,
          response_format: 'bullet',
          citation_style: 'inline',
        },
        'hybrid',
        [
          'discussion_initialized',
          'round_start',
          'agent_message',
          'performance_metric',
          'discussion_summary',
          'system',
        ],
      ],
    ),
  ];

  for (const [name, path, config, panel, expected] of cases) {
    it(`${name}: only schema-valid frames, in order, ending with discussion_ended and close 1000`, async () => {
      const sid = sessionId(name.replace(/\W+/g, '-'));
      const { c, closed } = await runToEnd(path, { ...config, agent_ids: agentIds, session_id: sid }, panel);
      expect(c.invalid).toEqual([]);
      expect(orderProblems(c.frames)).toEqual([]);
      expect(streamProblems(c.frames)).toEqual([]);
      expect(closed.code).toBe(1000);
      expect(c.frames.at(-1)).toMatchObject({ type: 'discussion_ended', session_id: sid });
      const types = new Set(c.frames.map((f) => f.type));
      for (const t of expected) expect(types, t).toContain(t);
      if (panel === 'hybrid')
        expect(c.frames.find((f) => f.type === 'discussion_summary').summary.performance_metrics).toMatchObject({
          messageCount: expect.any(Number),
          avgResponseTime: expect.any(Number),
        });

      // Stored whole, in order, exactly as sent.
      const stored = await s.api('GET', `/discussion/${sid}`, { token });
      expect(stored.status).toBe(200);
      const d = storedDiscussion.parse(stored.body);
      expect(d.status).toBe('ended');
      expect(d.frames.map((f) => f.seq)).toEqual(c.kept.map((_, i) => i + 1));
      expect(d.frames.map((f) => f.data)).toEqual(c.kept);
    });
  }

  it('basic with speech sends audio the client can fetch, and paces on the played status', async () => {
    const c = await openDiscussion(s, '/ws/discuss', token, {
      ...base('tts'),
      context: 'Name the estate wine.',
      turns: 2,
      tts: true,
    });
    const audio = await c.waitType('audio');
    expect(audio.audio_url).toMatch(/^\/media\/tts\//);
    c.send({ type: 'status', status: 'played', audio_id: audio.audio_id });
    await c.waitClose();
    expect(c.frames.filter((f) => f.type === 'audio')).toHaveLength(2);
    expect(c.invalid).toEqual([]);
  });

  it('hybrid panel with research feeds the papers to the agents as evidence', async () => {
    requests.length = 0;
    const { c } = await runToEnd(
      '/ws/hybrid',
      {
        ...base('research'),
        topic: 'Deficit irrigation in vineyards',
        max_rounds: 1,
        allow_research: true,
        pause_between_turns: 0,
        tts_config: null,
      },
      'hybrid',
    );
    expect(c.frames.find((f) => f.type === 'system' && f.content.startsWith('Research (arxiv)'))).toBeTruthy();
    expect(requests[0].context?.evidence).toContain('Deficit irrigation strategies in grapevines (2021)');
    expect(requests[0].messages[1].content).toContain('Evidence you may cite');
  });
});

describe('protocol edges', () => {
  it('answers probes on every path within 2 s, without a token, even while discussions run', async () => {
    const busy = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        openDiscussion(s, '/ws/multi_round_reasoning', token, {
          ...base(`load${i}`),
          context: 'Load',
          reasoning_config: { maxRounds: 3, convergenceThreshold: 1 },
        }),
      ),
    );
    for (const path of [
      '/ws/discuss',
      '/ws/enhanced',
      '/ws/multi_round_reasoning',
      '/ws/hybrid',
      '/discussion/ws/discuss',
      '/discussion/ws/enhanced',
      '/hybrid-discussion/ws',
    ]) {
      const started = Date.now();
      // Listen before the socket opens: the probe frame may arrive in the same packet as the upgrade.
      const c = collect(new WebSocket(`${s.wsUrl}${path}?test=true`));
      const closed = await c.closedWith(2_000);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(closed.code).toBe(1000);
      expect(c.frames).toEqual([{ type: 'probe', endpoint: path, ok: true }]);
    }
    await Promise.all(busy.map((b) => b.waitClose(30_000)));
  });

  it('closes 1008 without a valid token', async () => {
    for (const t of [undefined, 'garbage']) {
      const ws = await s.socket('/ws/hybrid', t);
      const c = collect(ws);
      expect((await c.closedWith()).code).toBe(1008);
      expect(c.frames).toEqual([]);
    }
  });

  it('answers a bad configuration with one clear error frame and close 1003', async () => {
    const bad = [
      [{ agent_ids: agentIds, session_id: 's1' }, /context/],
      [{ agent_ids: [agentIds[0]], session_id: 's2', context: 'x' }, /agent_ids/],
      [{ agent_ids: agentIds, session_id: 's3', context: 'x', turns: 99 }, /turns/],
      [{ type: 'stop' }, /must be the discussion configuration/],
    ] as const;
    for (const [config, why] of bad) {
      const c = await openDiscussion(s, '/ws/discuss', token, config);
      expect((await c.waitClose()).code).toBe(1003);
      expect(c.frames).toHaveLength(1);
      expect(c.frames[0]).toMatchObject({ type: 'error', fatal: true });
      expect(c.frames[0].message).toMatch(/^Invalid discussion configuration: /);
      expect(c.frames[0].message).toMatch(why);
    }
    const ws = await s.socket('/ws/enhanced', token);
    const raw = collect(ws);
    ws.send('not json at all');
    expect((await raw.closedWith()).code).toBe(1003);
    expect(raw.frames[0].message).toBe(ENGINE_MESSAGES.badConfig('the first message is not JSON'));
  });

  it("refuses another user's agents", async () => {
    const other = await s.register();
    const theirs = await makeAgents(s, other.token, 2);
    const c = await openDiscussion(s, '/ws/discuss', token, {
      agent_ids: [agentIds[0], theirs[0]],
      session_id: sessionId('theirs'),
      context: 'x',
    });
    expect((await c.waitClose()).code).toBe(1003);
    expect(c.frames).toEqual([expect.objectContaining({ type: 'error', message: ENGINE_MESSAGES.unknownAgents })]);
  });

  it('answers a malformed client frame with an error frame and carries on', async () => {
    let open!: () => void;
    holdFirst = { gate: new Promise<void>((r) => (open = r)), open: () => open() };
    try {
      const c = await openDiscussion(s, '/ws/discuss', token, {
        ...base('malformed'),
        context: 'Irrigation schedules',
        turns: 4,
      });
      await c.waitFor((f) => f.type === 'agent_status' && f.status === 'thinking');
      c.ws.send('{"type":"human_message"}');
      c.ws.send('{"type":"dance"}');
      c.ws.send('}{');
      await c.waitFor(() => c.frames.filter((f) => f.type === 'error').length === 3);
      holdFirst.open();
      await c.waitClose();
      return check(c);
    } finally {
      holdFirst = null;
    }
  });

  function check(c: Awaited<ReturnType<typeof openDiscussion>>) {
    const errors = c.frames.filter((f) => f.type === 'error').map((f) => f.message);
    expect(errors).toEqual([
      expect.stringMatching(/^Ignored a malformed "human_message" message/),
      'Ignored a message of unknown type "dance".',
      expect.stringMatching(/^Ignored a malformed "\(not JSON\)" message/),
    ]);
    expect(c.frames.at(-1)).toMatchObject({ type: 'discussion_ended', reason: 'completed' });
    expect(c.frames.filter((f) => f.type === 'text')).toHaveLength(4);
    expect(c.invalid).toEqual([]);
  }

  it('a human message reaches the next prompt of every agent', async () => {
    let open!: () => void;
    holdFirst = { gate: new Promise<void>((r) => (open = r)), open: () => open() };
    requests.length = 0;
    try {
      const config = { ...base('human'), context: 'Should we plant more Syrah?', turns: 3 };
      const sid = config.session_id;
      const c = await openDiscussion(s, '/ws/discuss', token, config);
      await c.waitFor((f) => f.type === 'agent_status' && f.status === 'thinking');
      c.send({ type: 'human_message', text: 'Remember the frost risk in April.', timestamp: new Date().toISOString() });
      await humanMessagesStored(s, token, sid);
      holdFirst.open();
      await c.waitClose();
      const later = requests.filter((r) => (r.context?.turn ?? 0) > 1);
      expect(later).toHaveLength(2);
      for (const r of later) {
        expect(r.context?.history.find((h) => h.human)?.content).toBe('Remember the frost risk in April.');
        expect(r.messages.at(-1)?.content).toContain('Human participant: Remember the frost risk in April.');
      }
      // The stored discussion keeps what the human said beside what the server sent.
      const stored = storedDiscussion.parse((await s.api('GET', `/discussion/${sid}`, { token })).body);
      expect(stored.human_messages.map((m) => m.text)).toEqual(['Remember the frost risk in April.']);
      expect(stored.frames.some((f) => f.data.type === 'human_message')).toBe(false);
    } finally {
      holdFirst = null;
    }
  });

  it('a model failure is an error frame, the agent goes idle and the discussion continues', async () => {
    failFor = 'Bo';
    try {
      const c = await openDiscussion(s, '/ws/enhanced', token, {
        ...base('fail'),
        context: 'Barrel or tank?',
        legacy_config: { turns: 5 },
      });
      await c.waitClose();
      const err = c.frames.find((f) => f.type === 'error');
      expect(err.message).toBe(ENGINE_MESSAGES.llmFailed('Bo', 'the model server answered 500: out of memory'));
      const i = c.frames.indexOf(err);
      expect(c.frames[i + 1]).toMatchObject({ type: 'agent_status', agent_name: 'Bo', status: 'idle' });
      expect(c.frames.filter((f) => f.type === 'agent_message').map((f) => f.agent_name)).not.toContain('Bo');
      expect(c.frames.at(-1)).toMatchObject({ type: 'discussion_ended', reason: 'completed' });
      expect(c.invalid).toEqual([]);
    } finally {
      failFor = null;
    }
  });

  it('tells the canvas about agent status changes on /ws/updates', async () => {
    const updates = collect(await s.socket('/ws/updates', token));
    await updates.next('connected');
    const { c } = await runToEnd('/ws/discuss', { ...base('canvas'), context: 'Canvas', turns: 2 });
    await updates.until(() => updates.frames.filter((f) => f.type === 'agent_status_update').length >= 6);
    const statuses = updates.frames
      .filter((f) => f.type === 'agent_status_update')
      .map((f) => `${f.agent_name}:${f.status}`);
    expect(statuses.slice(0, 3)).toEqual(['Ada:thinking', 'Ada:speaking', 'Ada:idle']);
    expect(c.frames.filter((f) => f.type === 'agent_status')).toHaveLength(statuses.length);
    updates.frames.length = 0;
  });
});

describe('stop', () => {
  it('stop mid-call aborts the model call, sends discussion_ended and closes 1000', async () => {
    let aborted = false;
    const slow = await startTestServer(
      {},
      {
        providers: testProviders({
          llm: offlineLlm(
            (req) =>
              new Promise((_, reject) =>
                req.signal?.addEventListener('abort', () => {
                  aborted = true;
                  reject(new Error('aborted'));
                }),
              ),
          ),
        }),
      },
    );
    try {
      const u = await slow.register();
      const ids = await makeAgents(slow, u.token, 2);
      const sid = sessionId('stop');
      const c = await openDiscussion(slow, '/ws/discuss', u.token, {
        agent_ids: ids,
        session_id: sid,
        context: 'Stop me',
      });
      await c.waitFor((f) => f.type === 'agent_status' && f.status === 'thinking');
      c.send({ type: 'stop' });
      expect((await c.waitClose()).code).toBe(1000);
      expect(aborted).toBe(true);
      expect(c.frames.slice(-2)).toMatchObject([
        { type: 'agent_status', status: 'idle' },
        { type: 'discussion_ended', reason: 'stopped' },
      ]);
      const d = (await slow.api('GET', `/discussion/${sid}`, { token: u.token })).body;
      expect(d.status).toBe('ended');
    } finally {
      await slow.close();
    }
  });
});

describe('stored discussions', () => {
  it('lists only the user’s own discussions, newest first; another user gets 404; POST /discussion is 405', async () => {
    const mine = discussionHistory.parse((await s.api('GET', '/discussion/history', { token })).body);
    expect(mine.length).toBeGreaterThan(5);
    const times = mine.map((d) => d.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(mine.every((d) => d.frame_count > 0)).toBe(true);

    const other = await s.register();
    expect((await s.api('GET', '/discussion/history', { token: other.token })).body).toEqual([]);
    expect((await s.api('GET', `/discussion/${mine[0].session_id}`, { token: other.token })).status).toBe(404);
    expect((await s.api('GET', `/discussion/${mine[0].id}`, { token })).status).toBe(200);
    expect((await s.api('GET', '/discussion/history')).status).toBe(401);
    const post = await s.api('POST', '/discussion', { token, body: {} });
    expect(post.status).toBe(405);
    expect(post.body.detail).toMatch(/socket/);
  });

  it('two users with the same session id run two separate discussions', async () => {
    const other = await s.register();
    const theirAgents = await makeAgents(s, other.token, 2);
    const sid = sessionId('shared');
    const [a, b] = await Promise.all([
      openDiscussion(s, '/ws/discuss', token, {
        agent_ids: agentIds.slice(0, 2),
        session_id: sid,
        context: 'Mine',
        turns: 2,
      }),
      openDiscussion(s, '/ws/discuss', other.token, {
        agent_ids: theirAgents,
        session_id: sid,
        context: 'Theirs',
        turns: 2,
      }),
    ]);
    await Promise.all([a.waitClose(), b.waitClose()]);
    const ids = (c: typeof a) =>
      new Set(c.frames.filter((f) => f.agent_id || f.from_id).map((f) => f.agent_id ?? f.from_id));
    expect([...ids(a)].every((id) => agentIds.includes(id))).toBe(true);
    expect([...ids(b)].every((id) => theirAgents.includes(id))).toBe(true);
    expect(a.frames[0].topic).toBe('Mine');
    expect(b.frames[0].topic).toBe('Theirs');
    expect((await s.api('GET', `/discussion/${sid}`, { token })).body.topic).toBe('Mine');
    expect((await s.api('GET', `/discussion/${sid}`, { token: other.token })).body.topic).toBe('Theirs');
  });
});
