import { describe, expect, it } from 'vitest';
import { standardServerFrame } from '../../../src/schemas/standardSocket';
import { hybridServerFrame } from '../../../src/schemas/hybridSocket';
import { ENGINE_MESSAGES } from '../../../src/schemas/messages';
import { orderProblems, streamProblems, unstreamedFinals } from './frameOrder';
import { AGENTS, answer, plans, run, speakerIn, TIMING, until } from './machineKit';

const valid = (frames: any[], audience: 'standard' | 'hybrid') => {
  const schema = audience === 'standard' ? standardServerFrame : hybridServerFrame;
  return frames.filter((f) => !schema.safeParse(f).success);
};

describe('discussion machine: stages and rounds', () => {
  it('runs every stage of every round with each agent once per stage, in table order', async () => {
    const plan = plans.multi(
      {
        reasoning_config: { maxRounds: 2, stages: ['brainstorming', 'critique', 'consensus'], convergenceThreshold: 1 },
      },
      2,
    );
    // Each agent holds its own option: the leader (Ada's, the older) has 0.9 of two participants.
    const r = run(plan, (req) =>
      answer({ stance: 'oppose', argument_type: 'counter', position: `${speakerIn(req)}'s way` }),
    );
    await r.done;
    expect(valid(r.frames, 'standard')).toEqual([]);
    expect(orderProblems(r.frames)).toEqual([]);
    const stages = r.frames.filter((f) => f.type === 'reasoning_stage').map((f) => `${f.round}:${f.stage}`);
    expect(stages).toEqual([
      '1:brainstorming',
      '1:critique',
      '1:consensus',
      '2:brainstorming',
      '2:critique',
      '2:consensus',
    ]);
    expect(r.requests.map(speakerIn)).toEqual(Array(6).fill(['Ada', 'Bo']).flat());
    expect(r.requests.map((q) => q.context!.stage)).toEqual([
      'brainstorming',
      'brainstorming',
      'critique',
      'critique',
      'consensus',
      'consensus',
      'brainstorming',
      'brainstorming',
      'critique',
      'critique',
      'consensus',
      'consensus',
    ]);
    expect(r.frames.filter((f) => f.type === 'round_end').map((f) => f.round)).toEqual([1, 2]);
    const c = r.frames.find((f) => f.type === 'consensus_reached');
    expect(c).toMatchObject({ score: 0.45, reached: false, consensus: { support_level: 0.5 } });
    expect(c.consensus.dissenting_opinions).toEqual(["Bo: Bo's way"]);
    expect(r.frames.at(-1)).toMatchObject({ type: 'discussion_ended', reason: 'completed' });
  });

  it('stops early when agreement reaches the convergence threshold', async () => {
    const plan = plans.multi({ reasoning_config: { maxRounds: 5, convergenceThreshold: 0.8 } }, 3);
    const r = run(plan, () => answer({ stance: 'support', confidence: 0.9 }));
    await r.done;
    expect(r.frames.filter((f) => f.type === 'round_start')).toHaveLength(1);
    expect(r.frames.find((f) => f.type === 'round_end')).toMatchObject({ round: 1, agreement: 0.9 });
    expect(r.frames.find((f) => f.type === 'consensus_reached')).toMatchObject({
      score: 0.9,
      reached: true,
      consensus: { support_level: 1, confidence: 0.9 },
    });
    expect(r.frames.at(-1)).toMatchObject({ type: 'discussion_ended', reason: 'consensus' });
    expect(orderProblems(r.frames)).toEqual([]);
  });

  it('weighs an answer without required evidence at half its stated confidence in the consensus', async () => {
    const plan = plans.multi(
      { reasoning_config: { maxRounds: 1, stages: ['consensus'], convergenceThreshold: 1, requireEvidence: true } },
      2,
    );
    // Both hold one option; Ada gives evidence at 0.8, Bo none at 0.8, so Bo counts as 0.4: score (0.8 + 0.4) / 2.
    const script = [
      answer({ stance: 'support', confidence: 0.8, evidence: ['a trial'] }),
      answer({ stance: 'oppose', confidence: 0.8, evidence: [] }),
    ];
    let i = 0;
    const r = run(plan, () => script[i++]);
    await r.done;
    expect(r.frames.find((f) => f.type === 'consensus_reached').score).toBeCloseTo(0.6, 3);
    expect(r.frames.filter((f) => f.type === 'argument').map((f) => f.argument.confidence)).toEqual([0.8, 0.8]);
    // The frames say the rule applied, and to how many of the leader's holders: none after Ada, one after Bo.
    expect(r.frames.find((f) => f.type === 'consensus_reached').consensus_halved).toBe(1);
    expect(r.frames.filter((f) => f.type === 'argument').map((f) => f.consensus_halved)).toEqual([undefined, 1]);
    expect(valid(r.frames, 'standard')).toEqual([]);
  });

  it('says nothing of halving when evidence is not required', async () => {
    const plan = plans.multi(
      { reasoning_config: { maxRounds: 1, stages: ['consensus'], convergenceThreshold: 1, requireEvidence: false } },
      2,
    );
    const r = run(plan, () => answer({ stance: 'support', confidence: 0.8, evidence: [] }));
    await r.done;
    expect(r.frames.find((f) => f.type === 'consensus_reached')).not.toHaveProperty('consensus_halved');
    expect(r.frames.some((f) => 'consensus_halved' in f)).toBe(false);
  });

  it('builds an argument tree: proposals are roots, replies hang under the proposal or the agent addressed', async () => {
    const plan = plans.multi(
      {
        reasoning_config: { maxRounds: 1, stages: ['brainstorming', 'critique', 'synthesis'], convergenceThreshold: 1 },
      },
      2,
    );
    const script = [
      answer({ argument_type: 'proposal' }),
      answer({ argument_type: 'question', addressed_to: 'Ada' }),
      answer({ argument_type: 'counter', addressed_to: 'Bo', stance: 'oppose' }),
      answer({ argument_type: 'support' }),
      answer({ argument_type: 'synthesis' }),
      answer({ argument_type: 'support', evidence: [] }),
    ];
    let i = 0;
    const r = run(plan, () => script[i++]);
    await r.done;
    const args = r.frames.filter((f) => f.type === 'argument').map((f) => f.argument);
    expect(args.map((a) => [a.type, a.parent_id?.replace('s-msg-', '') ?? null])).toEqual([
      ['proposal', null],
      ['question', '1'],
      ['counter', '2'],
      ['support', '1'],
      ['synthesis', '1'],
      ['support', '5'],
    ]);
    expect(args[0].votes).toEqual({ support: 1, oppose: 0 });
    expect(args[2].votes).toEqual({ support: 1, oppose: 1 });
    // Evidence was required and the last argument gave none: it is shown with the confidence the agent stated;
    // only its weight in the consensus is halved (consensus.test.ts).
    expect(args[5].confidence).toBeCloseTo(0.9);
  });
});

describe('discussion machine: every turn and the summary stream', () => {
  // A model that writes its reply in pieces, as a provider streams it.
  const writing = (text: string) => (_req: unknown, _signal: AbortSignal, write: (raw: string) => void) => {
    for (const piece of text.match(/\S+\s*/g) ?? []) write(piece);
    return answer({ content: text, argument_type: 'support' });
  };

  it('multi-round: each argument closes the stream of its own id; the summary streams and closes with discussion_summary', async () => {
    const plan = plans.multi(
      { reasoning_config: { maxRounds: 1, stages: ['brainstorming', 'critique'], convergenceThreshold: 1 } },
      2,
    );
    const r = run(plan, writing('Drip lines save water, but the pumps need checking first.'), {
      summary: 'Ada and Bo agreed on drip lines after a pump check.',
    });
    await r.done;
    expect(valid(r.frames, 'standard')).toEqual([]);
    expect(unstreamedFinals(r.frames)).toEqual([]);
    expect(streamProblems(r.frames)).toEqual([]);
    expect(orderProblems(r.frames)).toEqual([]);
    const args = r.frames.filter((f) => f.type === 'argument');
    expect(args).toHaveLength(4);
    for (const a of args) {
      const start = r.frames.findIndex((f) => f.type === 'agent_message_start' && f.id === a.argument.id);
      expect(r.frames[start]).toMatchObject({ agent_id: a.argument.agent_id, stage: a.argument.stage });
      expect(start).toBeLessThan(r.frames.indexOf(a));
    }
    const summary = r.frames.find((f) => f.type === 'discussion_summary');
    const start = r.frames.find((f) => f.type === 'agent_message_start' && f.id === summary.id);
    expect(start).toMatchObject({ kind: 'summary', agent_name: 'Ada' });
    const deltas = r.frames
      .filter((f) => f.type === 'agent_message_delta' && f.id === summary.id)
      .map((f) => f.delta)
      .join('');
    expect(deltas).toBe('Ada and Bo agreed on drip lines after a pump check.');
    expect(summary.summary.text).toBe(deltas);
  });

  it('hybrid: the closing summary streams to the hybrid panel too, in frames its schema accepts', async () => {
    const r = run(plans.hybrid({ max_rounds: 1 }, 2), writing('Pumps first, then drip lines.'), {
      summary: 'A short summary.',
    });
    await r.done;
    expect(valid(r.frames, 'hybrid')).toEqual([]);
    expect(unstreamedFinals(r.frames)).toEqual([]);
    expect(streamProblems(r.frames)).toEqual([]);
  });
});

describe('discussion machine: failures, stop and speech', () => {
  it('reports a failed model call, puts the agent back to idle and goes on to the next speaker', async () => {
    const r = run(plans.basic({ turns: 4 }), (req) => {
      if (speakerIn(req) === 'Bo') throw new Error('connection refused');
      return answer();
    });
    await r.done;
    const err = r.frames.find((f) => f.type === 'error');
    expect(err).toMatchObject({ message: ENGINE_MESSAGES.llmFailed('Bo', 'connection refused'), fatal: false });
    const after = r.frames.slice(r.frames.indexOf(err));
    expect(after[1]).toMatchObject({ type: 'agent_status', agent_id: 'a2', status: 'idle' });
    expect(after[2]).toMatchObject({ type: 'agent_status', agent_id: 'a3', status: 'thinking' });
    expect(r.frames.filter((f) => f.type === 'text').map((f) => f.from)).toEqual(['Ada', 'Cy', 'Ada']);
    expect(r.frames.at(-1)).toMatchObject({ type: 'discussion_ended', reason: 'completed' });
    expect(orderProblems(r.frames)).toEqual([]);
  });

  it('ends cleanly after repeated failures, and counts a time-out as a failure', async () => {
    const r = run(plans.basic({ turns: 10 }, 3, { ...TIMING, turnTimeoutMs: 30 }), () => new Promise(() => {}));
    await r.done;
    expect(r.frames.filter((f) => f.type === 'error' && !f.fatal).map((f) => f.message)).toEqual(
      ['Ada', 'Bo', 'Cy'].map((n) => ENGINE_MESSAGES.llmFailed(n, 'no answer within 30 ms')),
    );
    expect(r.frames.at(-2)).toMatchObject({ type: 'error', fatal: true });
    expect(r.frames.at(-1)).toMatchObject({ type: 'discussion_ended', reason: 'failed' });
  });

  it('stop mid-call aborts the model call and ends the discussion', async () => {
    let aborted = false;
    const r = run(
      plans.enhanced(),
      (_req, signal) =>
        new Promise((_, reject) =>
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          }),
        ),
    );
    await until(() => r.frames.some((f) => f.type === 'agent_status' && f.status === 'thinking'));
    r.actor.send({ type: 'stop', reason: 'stopped' });
    await r.done;
    expect(aborted).toBe(true);
    expect(r.frames.slice(-2)).toMatchObject([
      { type: 'agent_status', agent_id: 'a1', status: 'idle' },
      { type: 'discussion_ended', reason: 'stopped' },
    ]);
    expect(r.frames.some((f) => f.type === 'error')).toBe(false);
  });

  it('with speech: sends the audio after the message and waits for its acknowledgment before the next speaker', async () => {
    const r = run(plans.hybrid({ tts: true, max_rounds: 1 }, 2), () => answer(), { speechAvailable: true });
    await until(() => r.frames.some((f) => f.type === 'audio_message'));
    await new Promise((res) => setTimeout(res, 40));
    const audio = r.frames.find((f) => f.type === 'audio_message');
    expect(r.frames.filter((f) => f.type === 'agent_status' && f.status === 'thinking')).toHaveLength(1);
    const types = r.types();
    expect(types.slice(types.indexOf('agent_message'))).toEqual([
      'agent_message',
      'acl_message',
      'performance_metric',
      'agent_status',
      'tts_streaming_start',
      'audio_message',
      'tts_streaming_end',
      'performance_metric',
    ]);
    r.actor.send({ type: 'audio.ack', audioId: 'someone-else' });
    await new Promise((res) => setTimeout(res, 20));
    expect(r.frames.filter((f) => f.type === 'agent_status' && f.status === 'thinking')).toHaveLength(1);
    r.actor.send({ type: 'audio.ack', audioId: audio.audio_id });
    await until(() => r.frames.filter((f) => f.type === 'audio_message').length === 2);
    r.actor.send({ type: 'audio.ack' });
    await r.done;
    expect(valid(r.frames, 'hybrid')).toEqual([]);
    expect(r.frames.find((f) => f.type === 'discussion_summary').summary.performance_metrics).toMatchObject({
      totalAudioGenerated: 2,
      messageCount: 2,
    });
  });

  it('a lost acknowledgment never stalls: the next speaker goes after the time-out', async () => {
    const r = run(plans.basic({ turns: 2, tts: true }, 2, { ...TIMING, ackTimeoutMs: 30 }), () => answer(), {
      speechAvailable: true,
    });
    await r.done;
    expect(r.frames.filter((f) => f.type === 'audio')).toHaveLength(2);
    expect(valid(r.frames, 'standard')).toEqual([]);
  });

  it('a speech failure is a tts_error and the discussion goes on; no engine is said once', async () => {
    const failing = run(plans.hybrid({ tts: true, max_rounds: 1 }, 2), () => answer(), {
      speechAvailable: true,
      speak: async () => {
        throw new Error('engine down');
      },
    });
    await failing.done;
    expect(failing.frames.filter((f) => f.type === 'tts_error').map((f) => f.error)).toEqual([
      'engine down',
      'engine down',
    ]);
    const none = run(plans.hybrid({ tts: true, max_rounds: 1 }, 2), () => answer(), { speechAvailable: false });
    await none.done;
    expect(none.frames.filter((f) => f.type === 'tts_error')).toEqual([
      expect.objectContaining({ error: ENGINE_MESSAGES.noSpeechEngine }),
    ]);
    expect(none.frames.some((f) => f.type === 'audio_message')).toBe(false);
  });

  it('a human message is in the next prompt of every agent', async () => {
    let gate!: () => void;
    const first = new Promise<void>((r) => (gate = r));
    const r = run(plans.basic({ turns: 3 }), async (req) => {
      if (req.context!.turn === 1) await first;
      return answer();
    });
    await until(() => r.requests.length === 1);
    r.actor.send({ type: 'human.message', text: 'Please consider the cost of water, Cy.' });
    gate();
    await r.done;
    for (const req of r.requests.slice(1)) {
      expect(req.context!.history.some((h) => h.human && h.content.includes('cost of water'))).toBe(true);
      expect(req.messages[1].content).toContain('Human participant: Please consider the cost of water');
    }
    // Reactive modes would answer the agent named; sequential keeps the table order.
    expect(r.requests.map(speakerIn)).toEqual(['Ada', 'Bo', 'Cy']);
  });

  it('adaptive mode moves to structured ACL when the agents disagree and back when they converge', async () => {
    // Round 1: each on its own option (0.45, they disagree); then both on one (0.9, they converge).
    const r = run(plans.hybrid({ mode: 'adaptive', max_rounds: 3, auto_stop_on_consensus: false }, 2), (req) =>
      answer({
        stance: req.context!.round === 1 ? 'oppose' : 'support',
        performative: 'propose',
        position: req.context!.round === 1 ? speakerIn(req) : 'Together',
      }),
    );
    await r.done;
    const systems = r.frames.filter((f) => f.type === 'system').map((f) => f.content);
    expect(systems.some((s) => s.includes('switching to structured'))).toBe(true);
    expect(systems.some((s) => s.includes('back to natural'))).toBe(true);
    const types = r.frames.filter((f) => f.type === 'agent_message').map((f) => f.message_type);
    expect(types).toEqual(['natural', 'natural', 'structured', 'structured', 'natural', 'natural']);
    // The bubble says the sentence, as in every mode; the ACL expression goes with it in the acl_message frame.
    const at = r.frames.findIndex((f) => f.type === 'agent_message' && f.message_type === 'structured');
    expect(r.frames[at].content).not.toMatch(/^\(|:sender/);
    const acl = r.frames.slice(at).find((f) => f.type === 'acl_message');
    expect(acl).toMatchObject({ performative: 'propose', natural_language: r.frames[at].content });
    // It says what it answers: the turn before it, by its speaker and first words.
    const before = r.frames
      .slice(0, at)
      .filter((f) => f.type === 'agent_message')
      .at(-1);
    // Its first words only: the card never repeats the answered turn whole (each turn's text is in the feed once).
    const words = String(before.content).replace(/\s+/g, ' ').trim();
    const excerpt = words.length > 60 ? `${words.slice(0, 59).trimEnd()}…` : words;
    expect(acl.reply_to).toEqual({ sender: before.agent_name, excerpt });
  });

  it('enhanced: a confident opponent interrupts and takes the floor next', async () => {
    // Ada supports (0.8), Cy opposes (0.9), both above 0.7: once each has a position, whoever disagrees with the
    // last speaker takes the floor next, unless it spoke just before (no ping-pong).
    const stances: Record<string, ['support' | 'oppose', number]> = {
      Ada: ['support', 0.8],
      Bo: ['support', 0.5],
      Cy: ['oppose', 0.9],
    };
    const r = run(
      plans.enhanced({
        communication_config: { interruptThreshold: 0.7 },
        legacy_config: { turns: 6, mode: 'sequential' },
      }),
      (req) => {
        const [stance, confidence] = stances[speakerIn(req)];
        return answer({ stance, confidence, performative: stance === 'support' ? 'agree' : 'reject-proposal' });
      },
    );
    await r.done;
    const messages = r.frames.filter((f) => f.type === 'agent_message');
    expect(messages.map((m) => `${m.agent_name}:${m.turn_reason}`)).toEqual([
      'Ada:turn',
      'Bo:turn',
      'Cy:turn',
      'Ada:interrupt',
      'Bo:turn',
      'Cy:interrupt',
    ]);
    expect(r.frames.filter((f) => f.type === 'acl_message').map((f) => f.performative)).toContain('reject-proposal');
    expect(r.frames.find((f) => f.type === 'consensus_reached')).toMatchObject({ reached: false });
    expect(valid(r.frames, 'standard')).toEqual([]);
  });

  it('hybrid auto-stops on consensus at the threshold, once every agent has spoken after hearing another', async () => {
    const r = run(plans.hybrid({ max_rounds: 10, consensus_threshold: 0.7 }, 3), () => answer());
    await r.done;
    // Round 1 is the independent first answers: agreement there is a vote, not the discussion's consensus.
    expect(r.frames.filter((f) => f.type === 'round_start')).toHaveLength(2);
    expect(r.frames.at(-1)).toMatchObject({ reason: 'consensus' });
    expect(AGENTS).toHaveLength(3);
  });

  it('scores two agents on one option at 0.49 and 0.66 as 0.575, which does not stop a run at 0.7', async () => {
    const r = run(plans.hybrid({ max_rounds: 3, consensus_threshold: 0.7 }, 2), (req) =>
      answer({ confidence: speakerIn(req) === 'Ada' ? 0.49 : 0.66, position: 'Fare-free for residents' }),
    );
    await r.done;
    expect(r.frames.filter((f) => f.type === 'round_start')).toHaveLength(3);
    expect(r.frames.find((f) => f.type === 'consensus_reached')).toMatchObject({
      score: 0.575,
      reached: false,
      consensus: { support_level: 1 },
    });
    expect(r.frames.at(-1)).toMatchObject({ reason: 'completed' });
  });
});
