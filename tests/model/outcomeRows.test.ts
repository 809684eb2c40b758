import { describe, expect, it } from 'vitest';
import { applyFrame, emptyFeed, type Feed, type FeedInput } from '../../src/model/feed';
import { selectItem, selectMessageIds } from '../../src/model/feedSelectors';

// The outcome in the room (issue 43): the feed's closing rows say what the discussion did to the first vote, in
// both panels and the stored viewer (they fold the same feed): the consensus row carries the sentence; without one,
// the summary row does, once.

const fold = (frames: object[]): Feed => frames.reduce<Feed>((f, x) => applyFrame(f, x as FeedInput), emptyFeed);
const rows = (feed: Feed) => selectMessageIds(feed).map((id) => selectItem(feed, id)!);
const vote = { option_id: 'o1', label: 'Open on Sundays', holders: 2, of: 2, score: 0.9 };
const kept = 'The discussion did not change the first vote';

describe('the closing rows', () => {
  it('the consensus row says the first vote was kept, the summary does not repeat it', () => {
    const feed = fold([
      {
        type: 'consensus_reached',
        score: 0.9,
        reached: true,
        consensus: { solution: 'Open', confidence: 0.9, support_level: 1, dissenting_opinions: [] },
        final_vote: vote,
        outcome: kept,
      },
      { type: 'discussion_summary', id: 's', summary: { text: 'They agreed.', outcome: kept } },
    ]);
    const [consensus, summary] = rows(feed);
    expect(consensus.content).toMatch(/did not change the first vote\.$/);
    expect(summary.content).toBe('They agreed.');
  });

  it('without a consensus row the summary says what moved', () => {
    const moved = 'Moved by the discussion: from "Close" (1 of 2) to "Open on Sundays" (2 of 2)';
    const feed = fold([{ type: 'discussion_summary', id: 's', summary: { text: 'They moved.', outcome: moved } }]);
    expect(rows(feed)[0].content).toBe(`They moved.\n\n${moved}.`);
  });
});
