import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OFFLINE_MODEL, OFFLINE_MODEL_LABEL } from '../../../src/schemas/constants';
import { turnAnswer, type TurnContext } from '../../../server/engine/turnAnswer';
import { createOfflineProvider } from '../../../server/providers/llm/offline';

const schema = z.toJSONSchema(turnAnswer) as Record<string, unknown>;
const model = createOfflineProvider();

const agents = [
  {
    id: 'a1',
    name: 'Alice',
    role: 'Agronomist',
    prompt: 'You focus on soil health and drainage.',
    personality: 'assertive',
  },
  { id: 'a2', name: 'Bob', role: 'Economist', prompt: 'You weigh costs and farm income.', personality: 'patient' },
  { id: 'a3', name: 'Carol', role: 'Data scientist', prompt: 'You read sensor data.', personality: 'analytical' },
];
const TOPIC = 'How should a mid-sized vineyard reduce irrigation water use during droughts?';

const ctxFor = (agent: TurnContext['agent'], over: Partial<TurnContext> = {}): TurnContext => ({
  agent,
  others: agents.filter((a) => a.id !== agent.id),
  topic: TOPIC,
  turn: 1,
  round: 1,
  history: [],
  ...over,
});

async function answer(context: TurnContext, extra: { maxTokens?: number } = {}) {
  const r = await model.chat({ model: OFFLINE_MODEL, messages: [], jsonSchema: schema, context, ...extra });
  return turnAnswer.parse(JSON.parse(r.content));
}

/** Runs a whole discussion: every agent speaks once per round; returns confidence-weighted support per round. */
async function discuss(team: TurnContext['agent'][], topic: string, rounds: number) {
  const history: TurnContext['history'] = [];
  const stages = ['brainstorming', 'analysis', 'critique', 'synthesis', 'consensus'];
  const perRound: number[] = [];
  let turn = 0;
  for (let round = 1; round <= rounds; round++) {
    let num = 0;
    let den = 0;
    for (const agent of team) {
      const a = await answer({
        agent,
        others: team.filter((o) => o !== agent),
        topic,
        stage: stages[round - 1],
        round,
        turn: ++turn,
        history: [...history],
      });
      history.push({ speaker: agent.name, content: a.content, stance: a.stance, confidence: a.confidence });
      den += a.confidence;
      if (a.stance === 'support') num += a.confidence;
    }
    perRound.push(num / den);
  }
  return { perRound, history };
}

describe('the built-in offline model', () => {
  it('lists itself as offline, labelled as such', async () => {
    expect(await model.listModels()).toEqual([
      { name: OFFLINE_MODEL, provider: 'offline', label: OFFLINE_MODEL_LABEL, offline: true },
    ]);
    expect(model.label).toMatch(/offline/i);
    expect(model.owns('offline')).toBe(true);
    expect(model.owns('llama3')).toBe(false);
    expect((await model.probe()).status).toBe('ok');
  });

  it('is deterministic: the same turn gives the same answer, another turn another one', async () => {
    const ctx = ctxFor(agents[1], {
      turn: 2,
      history: [
        {
          speaker: 'Alice',
          content: 'We should start with drip irrigation on the driest blocks.',
          stance: 'support',
          confidence: 0.7,
        },
      ],
    });
    const one = await model.chat({ model: OFFLINE_MODEL, messages: [], context: ctx });
    const two = await model.chat({ model: OFFLINE_MODEL, messages: [], context: structuredClone(ctx) });
    expect(two.content).toBe(one.content);
    const other = await model.chat({
      model: OFFLINE_MODEL,
      messages: [],
      context: { ...ctx, topic: 'Should the cooperative buy a shared harvester?' },
    });
    expect(other.content).not.toBe(one.content);
    expect(one.provider).toBe('offline');
    expect(one.model).toBe(OFFLINE_MODEL);
  });

  it('answers TurnAnswer JSON when a schema is given, plain text otherwise', async () => {
    const ctx = ctxFor(agents[0]);
    const json = await model.chat({ model: OFFLINE_MODEL, messages: [], jsonSchema: schema, context: ctx });
    const parsed = turnAnswer.parse(JSON.parse(json.content));
    expect(parsed.argument_type).toBe('proposal');
    expect(parsed.performative).toBe('propose');
    const text = await model.chat({ model: OFFLINE_MODEL, messages: [], context: ctx });
    expect(() => JSON.parse(text.content)).toThrow();
    expect(text.content).toBe(parsed.content);
  });

  it('answers the previous speaker by name and stays on topic', async () => {
    const a = await answer(
      ctxFor(agents[1], {
        turn: 2,
        history: [
          {
            speaker: 'Alice',
            content: 'Drip irrigation on the driest blocks first.',
            stance: 'support',
            confidence: 0.7,
          },
        ],
      }),
    );
    expect(a.content).toContain('Alice');
    expect(a.addressed_to).toBe('Alice');
    expect(a.content.toLowerCase()).toMatch(/vineyard|irrigation|droughts|mid-sized|water/);
  });

  it('varies by personality: assertive is surer and opposes more, patient supports more, analytical cites evidence', async () => {
    const stats: Record<string, { conf: number; oppose: number; support: number; cites: number }> = {};
    for (const personality of ['assertive', 'patient', 'analytical']) {
      stats[personality] = { conf: 0, oppose: 0, support: 0, cites: 0 };
      for (let k = 0; k < 60; k++) {
        const a = await answer({
          agent: { ...agents[0], id: `x${k}`, personality },
          others: agents.slice(1),
          topic: `${TOPIC} (variant ${k})`,
          turn: 3,
          round: 1,
          history: [
            {
              speaker: 'Bob',
              content: 'Mulching could cut evaporation in the vineyard.',
              stance: 'support',
              confidence: 0.6,
            },
          ],
          evidence: ['Deficit irrigation in grapevines: a review'],
        });
        stats[personality].conf += a.confidence;
        if (a.stance === 'oppose') stats[personality].oppose++;
        if (a.stance === 'support') stats[personality].support++;
        if (a.evidence.length) stats[personality].cites++;
      }
    }
    expect(stats.assertive.oppose).toBeGreaterThan(stats.patient.oppose);
    expect(stats.patient.support).toBeGreaterThan(stats.assertive.support);
    expect(stats.analytical.cites).toBe(60);
    expect(stats.patient.cites).toBeLessThan(60);
    const same = {
      agent: agents[0],
      others: agents.slice(1),
      topic: TOPIC,
      turn: 2,
      round: 1,
      history: [{ speaker: 'Bob', content: 'Mulching could cut evaporation.', stance: 'support', confidence: 0.6 }],
    };
    const assertive = await answer({ ...same, agent: { ...agents[0], personality: 'assertive' } });
    const patient = await answer({ ...same, agent: { ...agents[0], personality: 'patient' } });
    expect(assertive.content).not.toBe(patient.content);
  });

  it('converges over rounds: confidence-weighted support rises, but the first round is not already unanimous', async () => {
    const topics = [
      'reduce irrigation water use',
      'adopt drone scouting for mildew',
      'deploy soil moisture sensors',
      'switch to cover crops',
      'insure against hail',
      'start a cooperative winery',
    ];
    const first: number[] = [];
    const last: number[] = [];
    for (const topic of topics) {
      const { perRound } = await discuss(agents, topic, 5);
      first.push(perRound[0]);
      last.push(perRound[4]);
    }
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(mean(last)).toBeGreaterThan(mean(first));
    expect(mean(last)).toBeGreaterThanOrEqual(0.8);
    expect(mean(first)).toBeLessThan(0.8);
  });

  it('picks the next speaker: the one addressed, else who waited longest, never the last speaker', async () => {
    const history = [
      { speaker: 'Alice', content: 'Opening proposal.' },
      { speaker: 'Bob', content: 'Carol, what do the sensors say about this?' },
    ];
    const named = await answer(ctxFor(agents[0], { task: 'pick_next_speaker', history }));
    expect(named.next_speaker).toBe('Carol');
    const waited = await answer(
      ctxFor(agents[0], {
        task: 'pick_next_speaker',
        history: [
          { speaker: 'Carol', content: 'x' },
          { speaker: 'Alice', content: 'y' },
          { speaker: 'Carol', content: 'z' },
        ],
      }),
    );
    expect(waited.next_speaker).toBe('Bob');
    const plain = await model.chat({
      model: OFFLINE_MODEL,
      messages: [],
      context: ctxFor(agents[0], { task: 'pick_next_speaker', history }),
    });
    expect(plain.content).toBe('Carol');
  });

  it('summarises the positions and the agreement', async () => {
    const { history } = await discuss(agents, 'reduce irrigation water use', 3);
    const s = await answer(ctxFor(agents[0], { task: 'summary', history }));
    expect(s.argument_type).toBe('synthesis');
    for (const a of agents) expect(s.content).toContain(a.name);
    expect(s.content).toMatch(/support stands at \d+%/);
    // In a discussion the engine gives its one consensus figure, and the summary says that one.
    const given = await answer(ctxFor(agents[0], { task: 'summary', history, consensus: 0.4 }));
    expect(given.content).toContain('Agreement stands at 40%');
    expect(given.content).not.toMatch(/support stands at/);
    // A low figure with nobody opposed is not called disagreement: everyone leaning one way, unsurely, says so.
    const allFor = [
      { speaker: 'Alice', content: 'Drip first.', stance: 'support', confidence: 0.6 },
      { speaker: 'Bob', content: 'Agreed.', stance: 'support', confidence: 0.58 },
    ];
    const unsure = await answer(ctxFor(agents[0], { task: 'summary', history: allFor, consensus: 0.3 }));
    expect(unsure.content).toContain('Agreement stands at 30%, short of a working consensus');
    expect(unsure.content).not.toMatch(/disagreement/);
    const split = [...allFor, { speaker: 'Carol', content: 'No.', stance: 'oppose', confidence: 0.7 }];
    const opposed = await answer(ctxFor(agents[0], { task: 'summary', history: split, consensus: 0.3 }));
    expect(opposed.content).toContain('with open disagreement');
  });

  it('honours maxTokens as an approximate word budget', async () => {
    const a = await answer(
      ctxFor(agents[2], {
        turn: 2,
        history: [{ speaker: 'Alice', content: 'Drip irrigation first.', stance: 'support', confidence: 0.7 }],
      }),
      { maxTokens: 20 },
    );
    expect(a.content.split(/\s+/).length).toBeLessThanOrEqual(15);
  });

  it('follows the response format and citation style', async () => {
    const base = ctxFor(agents[2], {
      turn: 2,
      history: [{ speaker: 'Alice', content: 'Drip irrigation first.', stance: 'support', confidence: 0.7 }],
      evidence: ['Deficit irrigation in grapevines'],
    });
    const bullets = await answer({ ...base, responseFormat: 'bullet' });
    expect(bullets.content.split('\n').every((l) => l.startsWith('- ') || l.startsWith('['))).toBe(true);
    const structured = await answer({ ...base, responseFormat: 'structured' });
    expect(structured.content).toMatch(/^Position: (support|oppose|neutral)/);
    const inline = await answer({ ...base, citationStyle: 'inline' });
    expect(inline.content).toContain('(see "Deficit irrigation in grapevines")');
  });

  it('delegates now and then in smart delegation mode, to a real teammate', async () => {
    let delegations = 0;
    for (let k = 0; k < 30; k++) {
      const a = await answer(
        ctxFor(agents[0], {
          mode: 'smart_delegation',
          turn: k + 2,
          history: [{ speaker: 'Bob', content: `Point ${k} on irrigation.` }],
        }),
      );
      if (a.delegate_to) {
        delegations++;
        expect(['Bob', 'Carol']).toContain(a.delegate_to);
        expect(a.delegation_task).toBeTruthy();
        expect(a.performative).toBe('request');
      }
    }
    expect(delegations).toBeGreaterThan(0);
    expect(delegations).toBeLessThan(30);
  });

  it('streams the answer in a few pieces', async () => {
    const pieces: string[] = [];
    const r = await model.chat({
      model: OFFLINE_MODEL,
      messages: [],
      context: ctxFor(agents[0]),
      onToken: (p) => pieces.push(p),
    });
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(r.content);
  });

  it('stops when aborted, before or during the call', async () => {
    const before = new AbortController();
    before.abort();
    await expect(
      model.chat({ model: OFFLINE_MODEL, messages: [], context: ctxFor(agents[0]), signal: before.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });

    const slow = createOfflineProvider({ tokensPerSecond: 20, thinkMs: 0 });
    const during = new AbortController();
    const pieces: string[] = [];
    const call = slow.chat({
      model: OFFLINE_MODEL,
      messages: [],
      context: ctxFor(agents[0]),
      signal: during.signal,
      onToken: (p) => pieces.push(p),
    });
    setTimeout(() => during.abort(), 70);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(pieces.length).toBeLessThan(4);
  });

  it('never says the same sentence twice in a discussion, answers the last speaker by name, and the human first', async () => {
    const history: TurnContext['history'] = [];
    const said: string[] = [];
    for (let turn = 1; turn <= 24; turn++) {
      if (turn === 7)
        history.push({
          speaker: 'Human',
          content: 'What about frost risk in April? Drip lines can freeze.',
          human: true,
        });
      const agent = agents[(turn - 1) % 3];
      const last = history.filter((h) => h.speaker !== agent.name).at(-1);
      const a = await answer(
        ctxFor(agent, {
          turn,
          round: Math.ceil(turn / 3),
          history: history.slice(-12),
          earlier: history.slice(0, -12).map((h) => h.content),
        }),
      );
      if (last && !last.human) expect(a.content, a.content).toContain(last.speaker);
      if (last?.human) expect(a.content).toMatch(/frost risk in April/);
      said.push(...a.content.split(/(?<=[.?!])\s+/).filter((x) => x.split(' ').length > 3));
      history.push({ speaker: agent.name, content: a.content, stance: a.stance, confidence: a.confidence });
    }
    const repeated = said.filter((x, i) => said.indexOf(x) !== i);
    expect(repeated).toEqual([]);
  });

  it('thinks, then streams word by word at its pace, the same reply every time', async () => {
    const paced = createOfflineProvider({ tokensPerSecond: 200, thinkMs: 100 });
    const at: number[] = [];
    const started = performance.now();
    const r = await paced.chat({
      model: OFFLINE_MODEL,
      messages: [],
      context: ctxFor(agents[1]),
      onToken: () => at.push(performance.now() - started),
    });
    expect(at[0]).toBeGreaterThanOrEqual(35); // a seeded pause of 40–100 % of 100 ms first
    expect(at.length).toBeGreaterThan(10);
    expect((at.at(-1)! - at[0]) / (at.length - 1)).toBeGreaterThanOrEqual(4); // ~5 ms a token at 200/s
    expect((await model.chat({ model: OFFLINE_MODEL, messages: [], context: ctxFor(agents[1]) })).content).toBe(
      r.content,
    );
  });

  it('answers a plain chat without turn facts', async () => {
    const r = await model.chat({
      model: OFFLINE_MODEL,
      messages: [
        { role: 'system', content: 'You are a soil scientist.' },
        { role: 'user', content: 'How do we keep vines alive in a drought?' },
      ],
    });
    expect(r.content.length).toBeGreaterThan(10);
  });
});
