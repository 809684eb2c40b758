// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyFrame, emptyFeed, type FeedInput } from '../../src/model/feed';
import { selectAnalytics, selectItem, selectMessageIds } from '../../src/model/feedSelectors';
import { selectPositionNow } from '../../src/model/positionSelectors';
import { evidenceNote } from '../../src/model/outcomeWords';
import { consensusReachedFrame } from '../../src/schemas/discussionFrames';
import { AnalyticsView } from '../../src/ui/discussion/common/AnalyticsView';
import { FeedNote } from '../../src/ui/discussion/common/FeedNote';

// With 'evidence required' on, a holder of the leading option that gave no evidence counts at half its confidence,
// so the figure can fall with nobody changing their mind: where the figure is shown, the panel says so in words,
// from `consensus_halved` on the wire (turn frames and consensus_reached).

afterEach(cleanup);

const reached = (halved?: number) =>
  ({
    type: 'consensus_reached',
    score: 0.3,
    reached: false,
    consensus: { solution: 'Cheaper passes first', confidence: 0.6, support_level: 0.5, dissenting_opinions: [] },
    final_vote: { option_id: 'o1', label: 'Cheaper passes first', holders: 1, of: 2, score: 0.3 },
    ...(halved ? { consensus_halved: halved } : {}),
  }) as FeedInput;

const feedOf = (...frames: FeedInput[]) => frames.reduce(applyFrame, emptyFeed);
const connection = { status: 'Finished', endpoint: 'Hybrid', sessionId: 's1' };

describe('the evidence rule in the consensus figure', () => {
  it('is said in words', () => {
    expect(evidenceNote(undefined)).toBeNull();
    expect(evidenceNote(0)).toBeNull();
    expect(evidenceNote(1)).toBe('1 answer without evidence counted at half weight');
    expect(evidenceNote(2)).toBe('2 answers without evidence counted at half weight');
  });

  it('consensus_reached carries consensus_halved; the schema refuses a count that is not one', () => {
    expect(consensusReachedFrame.safeParse(reached(2)).success).toBe(true);
    expect(consensusReachedFrame.safeParse({ ...reached(), consensus_halved: 1.5 }).success).toBe(false);
  });

  it('the panel’s outcome row says why the strength is lower, and only when the rule applied', () => {
    const withRule = feedOf(reached(2));
    render(<FeedNote item={selectItem(withRule, selectMessageIds(withRule)[0])!} />);
    expect(
      screen.getByText(
        '1 of 2 holds "Cheaper passes first" · strength 60 %, 2 answers without evidence counted at half weight.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('Not agreed yet')).toBeTruthy();
    cleanup();
    const without = feedOf(reached());
    render(<FeedNote item={selectItem(without, selectMessageIds(without)[0])!} />);
    expect(screen.getByText('1 of 2 holds "Cheaper passes first" · strength 60 %.')).toBeTruthy();
    expect(screen.queryByText(/half weight/)).toBeNull();
  });

  it('Analytics says the same words as the row', () => {
    render(<AnalyticsView analytics={selectAnalytics(feedOf(reached(1)))} connection={connection} />);
    expect(screen.getByText('Not agreed yet')).toBeTruthy();
    expect(
      screen.getByText(
        '1 of 2 holds "Cheaper passes first" · strength 60 %, 1 answer without evidence counted at half weight.',
      ),
    ).toBeTruthy();
    cleanup();
    render(<AnalyticsView analytics={selectAnalytics(feedOf(reached()))} connection={connection} />);
    expect(screen.queryByText(/half weight/)).toBeNull();
  });

  it('a turn’s consensus_halved is the figure’s at that moment (the replay header reads it)', () => {
    const turn = (id: string, halved?: number) =>
      ({
        type: 'agent_message',
        id,
        agent_id: 'a1',
        agent_name: 'Ada',
        content: 'Passes first.',
        message_type: 'statement',
        confidence: 0.6,
        position: 'Cheaper passes first',
        option_id: 'o1',
        consensus_score: 0.3,
        leader_id: 'o1',
        ...(halved ? { consensus_halved: halved } : {}),
      }) as FeedInput;
    const one = feedOf(turn('m1', 1));
    expect(selectPositionNow(one).halved).toBe(1);
    expect(selectPositionNow(applyFrame(one, turn('m2'))).halved).toBe(0);
  });
});
