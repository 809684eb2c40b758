import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi } from '../../support/fakeModelServers';
import { startTestServer, type TestServer } from '../harness';
import { openDiscussion, sessionId } from './helpers';

// Positions end to end: a scripted model behind a loopback OpenAI-compatible server changes Ada's option after an
// argument and Bo's towards the majority without one; the frames carry the options, each turn's option and the
// classification, the first vote and what the discussion did to it.

type Msg = { role: string; content: string };
const FARE_FREE = 'Fare-free for residents';
const CHEAPER = 'Cheaper passes first';

/** Per agent, per turn: the option named (id or 'new'), the words and what moved it. */
const SCRIPT: Record<string, Array<{ option: string; position: string; moved_by?: string }>> = {
  Ada: [
    { option: 'new', position: FARE_FREE },
    { option: 'o2', position: CHEAPER, moved_by: "Cy's point that passes cost less to run" },
    { option: 'o2', position: CHEAPER },
  ],
  // Bo's first words differ from Ada's only in case and punctuation: the same option.
  Bo: [
    { option: 'new', position: 'fare-free, for residents!' },
    { option: 'o1', position: FARE_FREE },
    { option: 'o2', position: CHEAPER },
  ],
  Cy: [
    { option: 'new', position: CHEAPER },
    { option: 'o2', position: CHEAPER },
    { option: 'o2', position: CHEAPER },
  ],
};

let s: TestServer;
let fake: Awaited<ReturnType<typeof startFakeOpenAi>>;
let token: string;
let agentIds: string[];
const calls: Record<string, number> = {};

beforeAll(async () => {
  fake = await startFakeOpenAi({
    models: ['fake-gpt-mini'],
    answer: (messages: Msg[]) => {
      const name = /You are (\w+)/.exec(messages[0]?.content ?? '')?.[1] ?? 'Ada';
      const n = calls[name] ?? 0;
      calls[name] = n + 1;
      const step = SCRIPT[name]?.[Math.min(n, 2)] ?? SCRIPT.Ada[0];
      return {
        content: `${name} on the fares, turn ${n + 1}.`,
        stance: 'support',
        confidence: 0.8,
        argument_type: 'support',
        reasoning: ['It follows.'],
        evidence: [],
        position: step.position,
        option_id: step.option,
        moved_by: step.moved_by ?? null,
      };
    },
  });
  s = await startTestServer();
  ({ token } = await s.register());
  const conn = await s.api('POST', '/model-connections', {
    token,
    body: { kind: 'openai', name: 'Scripted', base_url: `${fake.url}/v1` },
  });
  expect(conn.status).toBe(201);
  const model = conn.body.models[0].id;
  agentIds = [];
  for (const name of ['Ada', 'Bo', 'Cy']) {
    const r = await s.api('POST', '/agents/', {
      token,
      body: { name, role: 'Planner', prompt: 'You plan city transport.', model },
    });
    agentIds.push(String(r.body.id));
  }
});
afterAll(() => Promise.all([s?.close(), fake?.close()]));

describe('positions, first vote and changes of mind', () => {
  it('classifies a change after an argument and a change towards the majority, and says what moved the first vote', async () => {
    const c = await openDiscussion(
      s,
      '/ws/hybrid',
      token,
      {
        agent_ids: agentIds,
        session_id: sessionId('positions'),
        topic: 'How should the city make buses affordable?',
        max_rounds: 3,
        pause_between_turns: 0,
        tts_config: null,
        auto_stop_on_consensus: false,
        consensus_threshold: 0.9,
        allow_research: false,
        evidence_required: false,
      },
      'hybrid',
    );
    await c.waitClose(30_000);
    expect(c.invalid).toEqual([]);

    const turns = c.frames.filter((f) => f.type === 'agent_message');
    expect(turns.map((f) => `${f.agent_name}:${f.option_id}:${f.changed ?? '-'}`)).toEqual([
      'Ada:o1:-',
      'Bo:o1:-',
      'Cy:o2:-',
      'Ada:o2:argument',
      'Bo:o1:-',
      'Cy:o2:-',
      'Ada:o2:-',
      'Bo:o2:majority',
      'Cy:o2:-',
    ]);
    expect(turns[0].position).toBe(FARE_FREE);
    // The consensus figure after each turn: the leader's Σ confidence over the three participants.
    expect(turns.map((f) => f.consensus_score)).toEqual([0.267, 0.533, 0.533, 0.533, 0.533, 0.533, 0.533, 0.8, 0.8]);

    const lists = c.frames.filter((f) => f.type === 'positions');
    expect(lists.at(-1)).toMatchObject({
      options: [
        { id: 'o1', label: FARE_FREE },
        { id: 'o2', label: CHEAPER },
      ],
      first_vote: { option_id: 'o1', label: FARE_FREE, holders: 2, of: 3 },
    });

    const end = c.frames.find((f) => f.type === 'consensus_reached');
    expect(end).toMatchObject({
      score: 0.8,
      reached: false,
      first_vote: { option_id: 'o1', holders: 2, of: 3 },
      final_vote: { option_id: 'o2', holders: 3, of: 3 },
      outcome: `Moved by the discussion: from "${FARE_FREE}" (2 of 3) to "${CHEAPER}" (3 of 3)`,
      changes: { argument: 1, majority: 1 },
    });

    // Independent first answers: the first round's prompts hold the question only, and the schema lists no option.
    const turnCalls = fake.seen.filter((r) => r.url === '/v1/chat/completions' && r.body.response_format);
    const firstUser = turnCalls.slice(0, 3).map((r) => r.body.messages.at(-1).content as string);
    for (const u of firstUser) expect(u).not.toContain('on the fares');
    expect(turnCalls[0].body.response_format.json_schema.schema.properties.option_id.enum).toEqual(['new']);
    // Later turns see the options on the table and may name only those ids (or a new one).
    expect(turnCalls[3].body.messages.at(-1).content).toContain(`o2: ${CHEAPER}`);
    expect(turnCalls[3].body.response_format.json_schema.schema.properties.option_id.enum).toEqual(['o1', 'o2', 'new']);
  });

  it('says the discussion did not change the first vote when it did not', async () => {
    for (const k of Object.keys(calls)) delete calls[k];
    const keep = { ...SCRIPT };
    SCRIPT.Ada = [
      { option: 'new', position: CHEAPER },
      { option: 'o1', position: CHEAPER },
      { option: 'o1', position: CHEAPER },
    ];
    SCRIPT.Bo = SCRIPT.Ada;
    SCRIPT.Cy = SCRIPT.Ada;
    try {
      const c = await openDiscussion(
        s,
        '/ws/hybrid',
        token,
        {
          agent_ids: agentIds,
          session_id: sessionId('unchanged'),
          topic: 'Buses?',
          max_rounds: 2,
          pause_between_turns: 0,
          tts_config: null,
          auto_stop_on_consensus: false,
          allow_research: false,
          evidence_required: false,
        },
        'hybrid',
      );
      await c.waitClose(30_000);
      expect(c.frames.find((f) => f.type === 'consensus_reached')).toMatchObject({
        outcome: 'The discussion did not change the first vote',
        changes: { argument: 0, majority: 0 },
      });
    } finally {
      Object.assign(SCRIPT, keep);
    }
  });
});
