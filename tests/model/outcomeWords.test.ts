import { describe, expect, it } from 'vitest';
import { applyFrame, emptyFeed, type FeedInput } from '../../src/model/feed';
import { selectItem, selectMessageIds } from '../../src/model/feedSelectors';
import { outcomeFactsOf, outcomeWords, type OutcomeFacts } from '../../src/model/outcomeWords';

// The outcome row says one thing (issue 47): the leading option by its label, how many hold it, the holders'
// strength and the evidence rule's effect, and dissent only by those who hold another option.

const facts = (f: Partial<OutcomeFacts>): OutcomeFacts => ({
  leader: null,
  strength: 0,
  halved: 0,
  reached: false,
  dissent: [],
  ...f,
});

describe('the outcome in words', () => {
  it('unanimous but unsure: agreed, not yet sure — never "Not agreed yet"', () => {
    const w = outcomeWords(
      facts({ leader: { label: 'Adopt the four-day week', holders: 2, of: 2 }, strength: 0.28, halved: 2 }),
    );
    expect(w.headline).toBe('Agreed, not yet sure (28 %)');
    expect(w.body).toBe(
      'Both hold "Adopt the four-day week" · strength 28 %, 2 answers without evidence counted at half weight.',
    );
    expect(w.text).not.toMatch(/Not agreed|Dissent/);
  });

  it('split: how many hold the leading option, and each dissenter with their own option', () => {
    const w = outcomeWords(
      facts({
        leader: { label: 'pilot in support first', holders: 2, of: 3 },
        strength: 0.62,
        dissent: [{ agent: 'Tomas', option: 'fund route 12' }],
      }),
    );
    expect(w.headline).toBe('Not agreed yet');
    expect(w.body).toBe('2 of 3 hold "pilot in support first" · strength 62 %. Dissent: Tomas holds "fund route 12".');
  });

  it('the evidence rule is said only when it applied', () => {
    const base = { leader: { label: 'Free fares', holders: 3, of: 3 }, strength: 0.85, reached: true };
    expect(outcomeWords(facts({ ...base, halved: 1 })).body).toBe(
      'All 3 hold "Free fares" · strength 85 %, 1 answer without evidence counted at half weight.',
    );
    const off = outcomeWords(facts({ ...base, halved: 0 }));
    expect(off.headline).toBe('Agreed (85 %)');
    expect(off.body).toBe('All 3 hold "Free fares" · strength 85 %.');
  });

  it('one agent: one voice, not a table that agreed', () => {
    const w = outcomeWords(facts({ leader: { label: 'Keep the budget', holders: 1, of: 1 }, strength: 0.7 }));
    expect(w.headline).toBe('One voice (70 %)');
    expect(w.body).toBe('The only participant holds "Keep the budget" · strength 70 %.');
  });

  it('the first vote’s fate follows the words, once with its full stop', () => {
    const w = outcomeWords(
      facts({
        leader: { label: 'A', holders: 2, of: 2 },
        strength: 0.9,
        reached: true,
        firstVote: 'The discussion did not change the first vote',
      }),
    );
    expect(w.firstVote).toBe('The discussion did not change the first vote.');
    expect(w.text).toBe('Agreed (90 %). Both hold "A" · strength 90 %. The discussion did not change the first vote.');
  });
});

describe('the closing row of the feed', () => {
  const frame = (extra: Record<string, unknown>) =>
    ({
      type: 'consensus_reached',
      score: 0.42,
      reached: false,
      consensus: {
        solution: 'Adopt the four-day week company-wide',
        confidence: 0.63,
        support_level: 0.67,
        dissenting_opinions: ['Ada: Adopt the four-day week company-wide', 'Bo: Keep five days'],
      },
      final_vote: { option_id: 'o2', label: 'Pilot in support first', holders: 2, of: 3, score: 0.42 },
      outcome:
        'Moved by the discussion: from "Adopt the four-day week company-wide" (2 of 3) to "Pilot in support first" (2 of 3)',
      ...extra,
    }) as FeedInput;

  const rowOf = (f: FeedInput) => {
    const feed = applyFrame(emptyFeed, f);
    return selectItem(feed, selectMessageIds(feed)[0])!.content;
  };

  it('names the option, never a turn, and lists only holders of another option as dissent', () => {
    const text = rowOf(frame({ dissent: [{ agent_name: 'Bo', label: 'Keep five days' }] }));
    expect(text).toBe(
      '2 of 3 hold "Pilot in support first" · strength 63 %. Dissent: Bo holds "Keep five days". ' +
        'Moved by the discussion: from "Adopt the four-day week company-wide" (2 of 3) to "Pilot in support first" (2 of 3).',
    );
    expect(text).not.toMatch(/Ada|'s point/);
  });

  it('a stored frame without a final vote says its figures, never the solution (a turn’s own words) again', () => {
    const text = rowOf(frame({ final_vote: undefined, outcome: undefined }));
    expect(text).toBe('Support 67 % · strength 63 %.');
  });

  it('a stored frame without `dissent` keeps only dissent that names a known option', () => {
    const f = frame({}) as Parameters<typeof outcomeFactsOf>[0];
    expect(outcomeFactsOf(f, ['Keep five days', 'Pilot in support first']).dissent).toEqual([
      { agent: 'Bo', option: 'Keep five days' },
    ]);
  });
});
