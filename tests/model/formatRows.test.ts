import { describe, expect, it } from 'vitest';
import { formatRowText } from '../../src/model/feed/formatRows';

// A vote's row says the vote; a vote without a reason ends there, never with placeholder words such as
// 'the person's vote' (issue 47).
const vote = (over: object) =>
  ({
    type: 'vote',
    voter_id: 'human',
    side: 'for',
    confidence: 0.7,
    phase: 'before',
    reason: '',
    ...over,
  }) as Parameters<typeof formatRowText>[0];

describe('a vote row', () => {
  it("says the person's vote without a reason as the vote alone", () => {
    expect(formatRowText(vote({}))).toBe('You vote For (70%) before the debate.');
  });
  it("an agent's reason follows its vote", () => {
    expect(
      formatRowText(vote({ voter_id: 'a1', voter_name: 'Ada', side: 'against', phase: 'after', reason: 'Costs.' })),
    ).toBe('Ada votes Against (70%) after the debate: Costs.');
  });
});
