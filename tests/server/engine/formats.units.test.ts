import { describe, expect, it } from 'vitest';
import { formatPlanOf, formatProblem, withFormat } from '../../../server/engine/formats';
import { readPick, readRanking, readVote } from '../../../server/engine/formats/answers';
import { mentionsIn } from '../../../server/engine/formats/mentions';
import { completeMention, mentionCandidates, mentionQuery } from '../../../src/model/mentionCompletion';
import { formatOf } from '../../../src/model/discussionFormat';
import { AGENTS } from './machineKit';

// The formats' pure pieces: mentions, the constrained answers' readers, the server's format checks, the panel's
// completion and the format it sends.

const withLind = [...AGENTS, { ...AGENTS[0], id: 'a4', name: 'Vera Lind' }];

describe('mentions', () => {
  it('finds @Name, @"Two Words" and a bare two-word name, any case, in order; not an e-mail address', () => {
    expect(mentionsIn('@bo and @"vera lind"', withLind).map((a) => a.name)).toEqual(['Bo', 'Vera Lind']);
    expect(mentionsIn('over to @Vera Lind now', withLind).map((a) => a.name)).toEqual(['Vera Lind']);
    expect(mentionsIn('mail cy@bo.org or ask Bo', withLind)).toEqual([]);
  });
});

describe('constrained answers', () => {
  it('a pick: a name, ask or close; anything else is unreadable', () => {
    expect(readPick('{"next_speaker":"bo","content":"fresh eyes"}', ['Bo', 'Cy', 'ask', 'close'])).toEqual({
      ok: true,
      value: { choice: 'Bo', reason: 'fresh eyes' },
    });
    expect(readPick('Close.\nWe are done.', ['Bo', 'ask', 'close'])).toMatchObject({
      ok: true,
      value: { choice: 'close' },
    });
    expect(readPick('{"next_speaker":"Zed"}', ['Bo', 'ask', 'close']).ok).toBe(false);
  });
  it('a ranking: JSON items or letters in prose; none is unreadable; missing labels follow', () => {
    expect(readRanking('{"ranking":[{"answer":"B","reason":"clear"}]}', ['A', 'B', 'C'])).toEqual({
      ok: true,
      value: { order: ['B', 'A', 'C'], reasons: { B: 'clear' } },
    });
    expect(readRanking('Answer C, then A, then B', ['A', 'B', 'C'])).toMatchObject({
      ok: true,
      value: { order: ['C', 'A', 'B'] },
    });
    expect(readRanking('they are all fine', ['A', 'B']).ok).toBe(false);
  });
  it('a vote: for/against or support/oppose, confidence bounded', () => {
    expect(readVote('{"side":"against","confidence":70,"content":"x"}')).toEqual({
      ok: true,
      value: { side: 'against', confidence: 0.7, reason: 'x' },
    });
    expect(readVote('{"stance":"support","confidence":0.9}')).toMatchObject({ ok: true, value: { side: 'for' } });
    expect(readVote('maybe').ok).toBe(false);
  });
});

describe('format checks', () => {
  const ids = ['a1', 'a2', 'a3'];
  it('accepts what fits and says what does not', () => {
    expect(formatProblem({ kind: 'debate', judge: 'a3' }, ids)).toBeNull();
    expect(formatProblem({ kind: 'debate', judge: 'a1', sides: { for: ['a2'], against: ['a3'] } }, ids)).toBeNull();
    expect(formatProblem({ kind: 'debate', sides: { for: ['a1'], against: ['a9'] } }, ids)).toMatch(/a9/);
    expect(formatProblem({ kind: 'debate', judge: 'a1', sides: { for: ['a1'], against: ['a2'] } }, ids)).toMatch(
      /judge is also a debater/,
    );
    expect(formatProblem({ kind: 'council', chair: 'a7' }, ids)).toMatch(/chair/);
  });
});

describe('the panel', () => {
  it('completes @names, quoting a name with a space', () => {
    const q = mentionQuery('hello @ve', 9)!;
    expect(mentionCandidates(['Vera Lind', 'Bo'], q)).toEqual(['Vera Lind']);
    expect(completeMention('hello @ve', 9, q, 'Vera Lind')).toEqual({ text: 'hello @"Vera Lind" ', caret: 19 });
    expect(mentionQuery('mail a@b', 8)).toBeNull();
  });
  it('sends no format for the round table, and a debate with the judge out of the sides', () => {
    expect(
      formatOf({ kind: 'round_table', moderator: 'human', chair: '', judge: 'human' }, ['a', 'b']),
    ).toBeUndefined();
    expect(formatOf({ kind: 'debate', moderator: 'human', chair: '', judge: 'c' }, ['a', 'b', 'c'])).toEqual({
      kind: 'debate',
      judge: 'c',
      sides: { for: ['a'], against: ['b'] },
    });
  });
});

describe('a format’s plan', () => {
  it('runs one stage that keeps the whole turn budget; the round table keeps the plan as it is', () => {
    const plan = { rounds: 10, stages: [null], turnsPerStage: 3 };
    const moderated = withFormat(plan, formatPlanOf({ kind: 'moderated' }, AGENTS));
    expect(moderated).toMatchObject({ rounds: 1, stages: [null], turnsPerStage: 30 });
    const round = withFormat(plan, formatPlanOf({ kind: 'round_table' }, AGENTS));
    expect(round).toMatchObject({ rounds: 10, turnsPerStage: 3 });
  });
});
