import { describe, expect, it } from 'vitest';
import type { TurnRequest } from '../../../server/engine/prompt';
import { answer, plans, run, speakerIn, until } from './machineKit';

// The formats on the pure machine with a scripted model: every prompt it receives is kept and inspected.

const text = (r: TurnRequest) => r.messages.map((m) => m.content).join('\n');
const taskOf = (r: TurnRequest) => r.context?.task;
const NAMES = ['Ada', 'Bo', 'Cy'];

describe('formats on the engine machine', () => {
  it('no format: no floor frames (today’s behaviour)', async () => {
    const r = run(plans.basic({ turns: 3 }), () => answer());
    await r.done;
    expect(r.types()).not.toContain('floor');
  });

  it('round table: a floor frame before every turn; a person’s @mention speaks next with the message first', async () => {
    let gate!: () => void;
    const opened = new Promise<void>((res) => (gate = res));
    const r = run(plans.basic({ turns: 4, format: { kind: 'round_table' } }), async (req) => {
      if (req.context?.turn === 1) await opened;
      return answer({ content: `Point from ${speakerIn(req)}.` });
    });
    await until(() => r.requests.length === 1);
    r.actor.send({ type: 'human.message', text: 'What about water, @cy?' });
    gate();
    await r.done;
    const floors = r.frames.filter((f) => f.type === 'floor');
    const messages = r.frames.filter((f) => f.type === 'text');
    expect(floors.length).toBe(messages.length);
    expect(speakerIn(r.requests[1])).toBe('Cy');
    expect(floors[1]).toMatchObject({ agent_name: 'Cy', by: 'mention', reason: 'mentioned by you' });
    const user = r.requests[1].messages.find((m) => m.role === 'user')!.content;
    expect(user.startsWith('A person asked you directly')).toBe(true);
    expect(user).toContain('What about water, @cy?');
  });

  it('round table: an agent’s @mention hands the floor, at most three times in a row', async () => {
    const r = run(plans.basic({ turns: 8, format: { kind: 'round_table' } }), (req) => {
      const me = speakerIn(req);
      const next = me === 'Ada' ? 'Bo' : 'Ada';
      return answer({ content: `I hand over to @${next}.` });
    });
    await r.done;
    const floors = r.frames.filter((f) => f.type === 'floor');
    expect(floors.slice(1, 4).map((f) => f.by)).toEqual(['mention', 'mention', 'mention']);
    expect(floors[4].by).toBe('order');
    expect(floors[5].by).toBe('mention');
  });

  it('moderated by the person: no model call until the floor is given; End discussion writes the summary', async () => {
    const r = run(plans.basic({ turns: 6, format: { kind: 'moderated', moderator: 'human' } }), () => answer());
    await until(() => r.types().includes('format_note'));
    expect(r.requests).toHaveLength(0);
    r.actor.send({ type: 'floor.give', agentId: 'a2' });
    await until(() => r.types().filter((t) => t === 'format_note').length === 2);
    expect(r.requests.map(speakerIn)).toEqual(['Bo']);
    expect(r.frames.find((f) => f.type === 'floor')).toMatchObject({ agent_id: 'a2', by: 'human' });
    r.actor.send({ type: 'discussion.end' });
    await r.done;
    expect(r.requests).toHaveLength(1);
    expect(r.types()).toContain('discussion_summary');
    expect(r.frames[r.frames.length - 1]).toMatchObject({ type: 'discussion_ended' });
  });

  it('moderated by an agent: its pick gives the floor with a reason; a bad pick is asked again once, then next in order', async () => {
    let picks = 0;
    const r = run(plans.basic({ turns: 3, format: { kind: 'moderated', moderator: 'a1' } }), (req) => {
      if (taskOf(req) !== 'moderate') return answer({ content: `${speakerIn(req)} speaks.` });
      picks++;
      if (picks === 1) return answer({ next_speaker: 'Cy', content: 'Cy knows the vines.' });
      if (picks === 2 || picks === 3) return answer({ next_speaker: 'Zed', content: 'Someone else.' });
      return answer({ next_speaker: 'close', content: 'Enough.' });
    });
    await r.done;
    const floors = r.frames.filter((f) => f.type === 'floor');
    expect(floors[0]).toMatchObject({ agent_name: 'Cy', by: 'moderator', reason: 'Cy knows the vines.' });
    const repair = r.requests.filter((q) => taskOf(q) === 'moderate')[2];
    expect(text(repair)).toContain('could not be used');
    expect(r.frames.some((f) => f.type === 'error' && /could not be used/.test(f.message) && !f.fatal)).toBe(true);
    expect(floors[1]).toMatchObject({ by: 'order' });
    expect(r.requests.filter((q) => taskOf(q) === 'turn').map(speakerIn)).not.toContain('Ada');
    expect(r.types()).toContain('discussion_summary');
  });

  it('council: stage 1 hears only the question, stage 2 names no agent, the summary names the chair’s answer', async () => {
    const r = run(plans.basic({ format: { kind: 'council', chair: 'a3' } }), (req) => {
      if (taskOf(req) === 'rank') return answer({ content: 'B, A' });
      return answer({ content: `${speakerIn(req)} answers: Bo thinks drip irrigation wins.` });
    });
    await r.done;
    const [s1, s2, s3] = [r.requests.slice(0, 3), r.requests.slice(3, 6), r.requests.slice(6)];
    for (const q of s1)
      for (const other of r.requests.slice(0, 3))
        if (other !== q) expect(text(q)).not.toContain(`${speakerIn(other)} answers`);
    for (const q of s2) for (const n of NAMES) expect(text(q)).not.toMatch(new RegExp(`\\b${n}\\b`));
    expect(s2.every((q) => /Answer A/.test(text(q)) && /Answer B/.test(text(q)))).toBe(true);
    expect(s3.map(speakerIn)).toEqual(['Cy']);
    expect(r.frames.filter((f) => f.type === 'format_stage').map((f) => f.stage)).toEqual([
      'answers',
      'ranking',
      'synthesis',
    ]);
    const ranking = r.frames.find((f) => f.type === 'ranking');
    expect(ranking.rows).toHaveLength(3);
    expect(ranking.rows.every((x: any) => x.mean_rank !== null)).toBe(true);
    const summary = r.frames.find((f) => f.type === 'discussion_summary');
    expect(summary.summary.text).toBe(
      "Cy, as chair, weighed the council's 3 answers and their ranking and gave the council's answer above.",
    );
  });

  it('debate: an agent judge votes before and after, sides argue in phases, the result names the side that grew', async () => {
    const r = run(
      plans.basic({ format: { kind: 'debate', judge: 'a3', sides: { for: ['a1'], against: ['a2'] } } }),
      (req) => {
        if (taskOf(req) === 'vote')
          return req.context?.stage === 'before'
            ? answer({ stance: 'oppose', confidence: 0.6, content: 'Doubtful.' })
            : answer({ stance: 'support', confidence: 0.7, content: 'Convinced.' });
        return answer({ content: `${speakerIn(req)} argues.` });
      },
    );
    await r.done;
    const votes = r.frames.filter((f) => f.type === 'vote');
    expect(votes.map((v) => [v.phase, v.side])).toEqual([
      ['before', 'against'],
      ['after', 'for'],
    ]);
    expect(r.requests.filter((q) => taskOf(q) === 'turn').map(speakerIn)).toEqual([
      'Ada',
      'Bo',
      'Ada',
      'Bo',
      'Ada',
      'Bo',
    ]);
    expect(text(r.requests[1])).toContain('You argue FOR the motion');
    expect(r.frames.find((f) => f.type === 'debate_result')).toMatchObject({ side: 'for', change: 30 });
    expect(text(r.requests[0])).not.toContain('argues');
  });

  it('debate with a human judge: waits for the vote before the opening and after the closing', async () => {
    const r = run(plans.basic({ format: { kind: 'debate', sides: { for: ['a1'], against: ['a2', 'a3'] } } }), () =>
      answer(),
    );
    await until(() => r.types().includes('format_note'));
    expect(r.requests).toHaveLength(0);
    r.actor.send({ type: 'judge.vote', side: 'for', confidence: 0.5 });
    await until(() => r.types().filter((t) => t === 'format_note').length === 2);
    expect(r.requests.length).toBe(9);
    r.actor.send({ type: 'judge.vote', side: 'against', confidence: 0.8 });
    await r.done;
    expect(r.frames.find((f) => f.type === 'debate_result')).toMatchObject({ side: 'against', change: -30 });
    // The person's buttons give no reason: the vote carries none, never placeholder words ('the person's vote').
    const votes = r.frames.filter((f) => f.type === 'vote') as { voter_id: string; reason: string }[];
    expect(votes.map((v) => [v.voter_id, v.reason])).toEqual([
      ['human', ''],
      ['human', ''],
    ]);
  });
});
