// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyFrame, emptyFeed, type FeedInput } from '../../src/model/feed';
import { selectAnalytics, selectItem, selectMessageIds } from '../../src/model/feedSelectors';
import { selectPositionNow } from '../../src/model/positionSelectors';
import { agreementLine, halvedNote } from '../../src/model/consensusNote';
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
    ...(halved ? { consensus_halved: halved } : {}),
  }) as FeedInput;

const feedOf = (...frames: FeedInput[]) => frames.reduce(applyFrame, emptyFeed);
const connection = { status: 'Finished', endpoint: 'Hybrid', sessionId: 's1' };

describe('the evidence rule in the consensus figure', () => {
  it('is said in words', () => {
    expect(halvedNote(undefined)).toBeNull();
    expect(halvedNote(0)).toBeNull();
    expect(halvedNote(1)).toBe('confidence halved for 1 answer without evidence');
    expect(agreementLine(0.3, 2)).toBe('Agreement 30% — confidence halved for 2 answers without evidence');
    expect(agreementLine(0.57, 0)).toBe('Agreement 57%');
  });

  it('consensus_reached carries consensus_halved; the schema refuses a count that is not one', () => {
    expect(consensusReachedFrame.safeParse(reached(2)).success).toBe(true);
    expect(consensusReachedFrame.safeParse({ ...reached(), consensus_halved: 1.5 }).success).toBe(false);
  });

  it('the panel’s consensus row says why the figure is lower, and only when the rule applied', () => {
    const withRule = feedOf(reached(2));
    render(<FeedNote item={selectItem(withRule, selectMessageIds(withRule)[0])!} />);
    expect(screen.getByText('30% agreement — confidence halved for 2 answers without evidence')).toBeTruthy();
    cleanup();
    const without = feedOf(reached());
    render(<FeedNote item={selectItem(without, selectMessageIds(without)[0])!} />);
    expect(screen.getByText('30% agreement')).toBeTruthy();
    expect(screen.queryByText(/halved/)).toBeNull();
  });

  it('Analytics says it beside the consensus', () => {
    render(<AnalyticsView analytics={selectAnalytics(feedOf(reached(1)))} connection={connection} />);
    expect(screen.getByText('Agreement 30% — confidence halved for 1 answer without evidence')).toBeTruthy();
    cleanup();
    render(<AnalyticsView analytics={selectAnalytics(feedOf(reached()))} connection={connection} />);
    expect(screen.queryByText(/halved/)).toBeNull();
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
