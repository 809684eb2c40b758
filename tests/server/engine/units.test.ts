import { describe, expect, it } from 'vitest';
import { COMMUNICATION_PRESETS } from '../../../src/schemas/constants';
import { hybridConfig } from '../../../src/schemas/hybridSocket';
import {
  basicConfig,
  enhancedConfig,
  multiRoundConfig,
  standardHybridConfig,
} from '../../../src/schemas/standardSocket';
import { limitWords, parseTurnAnswer, UnusableAnswerError } from '../../../server/engine/answer';
import { parseConfiguration } from '../../../server/engine/configure';
import { buildPlan } from '../../../server/engine/buildPlan';
import { hearingFrom, stagesFor, type AgentRef } from '../../../server/engine/plan';
import { modelSettings } from '../../../server/engine/presets';
import { emptyRecord, heardBy } from '../../../server/engine/record';
import { findAgent, nextSpeaker } from '../../../server/engine/speakers';

const agents: AgentRef[] = ['Ada', 'Bo', 'Cy'].map((name, i) => ({
  id: `a${i + 1}`,
  name,
  role: 'Role',
  prompt: 'p',
  personality: null,
  model: 'offline',
}));
const timing = { turnTimeoutMs: 1000, ackTimeoutMs: 1000, maxConsecutiveFailures: 3 };
const ids = agents.map((a) => a.id);

describe('communication presets set the model call', () => {
  it('uses the named preset and, for custom, the free numbers', () => {
    for (const k of ['concise', 'normal', 'detailed', 'comprehensive'] as const) {
      expect(modelSettings({ responseLength: k, minTokens: 1, maxTokens: 2, temperature: 1.9 })).toEqual({
        minTokens: COMMUNICATION_PRESETS[k].min_tokens,
        maxTokens: COMMUNICATION_PRESETS[k].max_tokens,
        temperature: COMMUNICATION_PRESETS[k].temperature,
      });
    }
    expect(modelSettings({ responseLength: 'custom', minTokens: 40, maxTokens: 900, temperature: 1.2 })).toEqual({
      minTokens: 40,
      maxTokens: 900,
      temperature: 1.2,
    });
    expect(modelSettings({ responseLength: 'custom', minTokens: 900, maxTokens: 40, temperature: 0 }).minTokens).toBe(
      40,
    );
  });
});

describe('reading a model answer', () => {
  it('reads clean JSON, fenced JSON and JSON after thinking aloud', () => {
    const json = JSON.stringify({
      content: 'Yes.',
      stance: 'support',
      confidence: 0.8,
      argument_type: 'support',
      performative: 'agree',
    });
    expect(parseTurnAnswer(json)).toMatchObject({ content: 'Yes.', stance: 'support', confidence: 0.8 });
    expect(parseTurnAnswer('```json\n' + json + '\n```').stance).toBe('support');
    expect(parseTurnAnswer('<think>hmm</think> Sure: ' + json).performative).toBe('agree');
  });
  it('turns prose into a neutral turn typed by the stage, and repairs odd fields', () => {
    expect(parseTurnAnswer('I think we should wait.', 'critique')).toMatchObject({
      content: 'I think we should wait.',
      stance: 'neutral',
      confidence: 0.5,
      argument_type: 'counter',
    });
    expect(
      parseTurnAnswer(
        JSON.stringify({ text: 'Hi', stance: 'SUPPORT', confidence: 85, argument_type: 'rant' }),
        'brainstorming',
      ),
    ).toMatchObject({ content: 'Hi', stance: 'support', confidence: 0.85, argument_type: 'proposal' });
  });
  it('fails only on an empty answer', () => {
    expect(() => parseTurnAnswer('   ')).toThrow(UnusableAnswerError);
    expect(() => parseTurnAnswer(JSON.stringify({ stance: 'support' }))).toThrow(UnusableAnswerError);
  });
  it('limits words', () => {
    expect(limitWords('one two three four', 2)).toBe('one two…');
    expect(limitWords('one two', 5)).toBe('one two');
  });
});

describe('plans per endpoint', () => {
  it('basic: turns in one stage, delegation and reactivity by mode, connections restrict hearing', () => {
    const cfg = basicConfig.parse({
      agent_ids: ids,
      session_id: 's',
      context: 'x',
      turns: 4,
      mode: 'smart_delegation',
      connections: [{ source: 'a1', target: 'a2' }],
    });
    const plan = buildPlan({ endpoint: 'basic', config: cfg }, agents, timing);
    expect(plan).toMatchObject({
      rounds: 1,
      stages: [null],
      turnsPerStage: 4,
      delegation: true,
      reactive: false,
      announceRounds: false,
      audience: 'standard',
    });
    expect(plan.hearing).toEqual({ a1: ['a2'], a2: ['a1'], a3: [] });
  });

  it('every endpoint honours the evidence rule the person set (on or off)', () => {
    for (const requireEvidence of [true, false]) {
      const cfg = basicConfig.parse({
        agent_ids: ids,
        session_id: 's',
        context: 'x',
        reasoning_config: { requireEvidence },
      });
      expect(buildPlan({ endpoint: 'basic', config: cfg }, agents, timing).requireEvidence).toBe(requireEvidence);
    }
  });
  it('multi-round: canonical stage order, implementation only when enabled', () => {
    expect(stagesFor(['consensus', 'brainstorming'], false)).toEqual(['brainstorming', 'consensus']);
    expect(stagesFor(['brainstorming'], true)).toEqual(['brainstorming', 'implementation']);
    const cfg = multiRoundConfig.parse({
      agent_ids: ids,
      session_id: 's',
      context: 'x',
      reasoning_config: { maxRounds: 3 },
    });
    expect(buildPlan({ endpoint: 'multi_round', config: cfg }, agents, timing)).toMatchObject({
      rounds: 3,
      turnsPerStage: 3,
      argumentTree: true,
      consensus: { stopEarly: true, threshold: 0.8 },
    });
  });
  it('enhanced: ACL, interrupts at the threshold, consensus announced', () => {
    const cfg = enhancedConfig.parse({
      agent_ids: ids,
      session_id: 's',
      context: 'x',
      communication_config: { interruptThreshold: 0.6 },
    });
    expect(buildPlan({ endpoint: 'enhanced', config: cfg }, agents, timing)).toMatchObject({
      acl: true,
      interrupts: { threshold: 0.6 },
      turnsPerStage: 6,
      consensus: { announce: true },
    });
  });
  it('hybrid: the panel decides the audience; turns per round × agents', () => {
    const rich = hybridConfig.parse({
      agent_ids: ids,
      session_id: 's',
      topic: 't',
      turns_per_round: 2,
      mode: 'natural',
    });
    expect(buildPlan({ endpoint: 'hybrid', config: rich, panel: 'hybrid' }, agents, timing)).toMatchObject({
      audience: 'hybrid',
      turnsPerStage: 6,
      acl: false,
      pauseMs: 1000,
    });
    const std = standardHybridConfig.parse({ agent_ids: ids, session_id: 's', topic: 't' });
    expect(buildPlan({ endpoint: 'hybrid', config: std, panel: 'standard' }, agents, timing)).toMatchObject({
      audience: 'standard',
      turnsPerStage: 3,
      pauseMs: 0,
    });
  });
  it('tells the two /ws/hybrid configurations apart and refuses bad ones clearly', () => {
    const std = parseConfiguration('hybrid', JSON.stringify({ agent_ids: ids, session_id: 's', topic: 't' }));
    expect(std.ok && 'panel' in std.input && std.input.panel).toBe('standard');
    const rich = parseConfiguration(
      'hybrid',
      JSON.stringify({ agent_ids: ids, session_id: 's', topic: 't', turns_per_round: 1, tts_config: null }),
    );
    expect(rich.ok && 'panel' in rich.input && rich.input.panel).toBe('hybrid');
    const bad = parseConfiguration('basic', JSON.stringify({ agent_ids: ['a1'], session_id: 's', context: '' }));
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.why).toMatch(/^Invalid discussion configuration: .*agent_ids/);
    expect(parseConfiguration('basic', '{nope').ok).toBe(false);
    const first = parseConfiguration('basic', JSON.stringify({ type: 'stop' }));
    expect(!first.ok && first.why).toMatch(/must be the discussion configuration/);
    const resumed = parseConfiguration(
      'basic',
      JSON.stringify({ agent_ids: ids, session_id: 's', context: 'c', resume_from: 7 }),
    );
    expect(resumed.ok && resumed.resumeFrom).toBe(7);
  });
});

describe('who speaks and who hears', () => {
  const plan = (over: object) => ({
    ...buildPlan(
      { endpoint: 'basic', config: basicConfig.parse({ agent_ids: ids, session_id: 's', context: 'x' }) },
      agents,
      timing,
    ),
    ...over,
  });
  const state = {
    turnInStage: 0,
    lastSpeakerId: 'a1',
    prevSpeakerId: null,
    delegateId: null,
    lastAddressedTo: null,
    lastPicked: null,
  };
  it('goes round the table, and follows delegation, addressing, picks and interrupts in that order', () => {
    const rec = emptyRecord();
    expect(nextSpeaker(plan({}), rec, state).agent.id).toBe('a2');
    expect(nextSpeaker(plan({}), rec, { ...state, lastSpeakerId: 'a3' }).agent.id).toBe('a1');
    expect(nextSpeaker(plan({ reactive: true }), rec, { ...state, lastAddressedTo: 'cy' })).toMatchObject({
      agent: { id: 'a3' },
      reason: 'addressed',
    });
    expect(nextSpeaker(plan({ naturalPick: true }), rec, { ...state, lastPicked: 'Cy' })).toMatchObject({
      agent: { id: 'a3' },
      reason: 'picked',
    });
    expect(
      nextSpeaker(plan({ reactive: true }), rec, { ...state, lastAddressedTo: 'Cy', delegateId: 'a2' }),
    ).toMatchObject({ agent: { id: 'a2' }, reason: 'delegation' });
    const positions = {
      a1: { agentId: 'a1', agentName: 'Ada', stance: 'support' as const, confidence: 0.9, content: '' },
      a3: { agentId: 'a3', agentName: 'Cy', stance: 'oppose' as const, confidence: 0.85, content: '' },
    };
    const interrupting = nextSpeaker(plan({ interrupts: { threshold: 0.7 } }), { ...rec, positions }, state);
    expect(interrupting).toMatchObject({ agent: { id: 'a3' }, reason: 'interrupt' });
    expect(nextSpeaker(plan({ interrupts: { threshold: 0.9 } }), { ...rec, positions }, state).reason).toBe('turn');
    expect(
      nextSpeaker(plan({ interrupts: { threshold: 0.7 } }), { ...rec, positions }, { ...state, prevSpeakerId: 'a3' })
        .reason,
    ).toBe('turn');
  });
  it('finds agents by name or id', () => {
    expect(findAgent(agents, '@bo')?.id).toBe('a2');
    expect(findAgent(agents, 'a3')?.name).toBe('Cy');
    expect(findAgent(agents, 'nobody')).toBeUndefined();
  });
  it('hears neighbours only when canvas connections are given, and every human message', () => {
    expect(hearingFrom(ids, [])).toBeNull();
    expect(hearingFrom(ids, [{ source: 'a1', target: 'zz' }])).toBeNull();
    const p = plan({ hearing: hearingFrom(ids, [{ source: 'a1', target: 'a2' }]) });
    const rec = emptyRecord();
    rec.turns.push(
      { speakerId: 'a2', speaker: 'Bo', content: 'b' },
      { speakerId: 'a3', speaker: 'Cy', content: 'c' },
      { speakerId: null, speaker: 'Human', content: 'h', human: true },
    );
    expect(heardBy(p, rec, 'a1').map((t) => t.content)).toEqual(['b', 'h']);
    expect(heardBy(p, rec, 'a3').map((t) => t.content)).toEqual(['c', 'h']);
  });
});
