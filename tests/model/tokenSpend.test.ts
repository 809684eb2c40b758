import { describe, expect, it } from 'vitest';
import { applyFrame, emptyFeed, type Feed, type FeedInput } from '../../src/model/feed';
import { selectTokenSpend, tokenTotalText } from '../../src/model/tokenSpend';
import { bannerAfter } from '../../src/model/discussionSocket';
import { selectItem, selectMessageIds } from '../../src/model/feedSelectors';
import { endedStatusLine } from '../../src/model/runEnd';
import { isAuthErrorFrame } from '../../src/model/connectionProblems';

// Tokens per agent, per person and the discussion's total, read from the turns' `usage` (src/model/tokenSpend.ts).

const fold = (frames: object[]): Feed => frames.reduce<Feed>((f, x) => applyFrame(f, x as FeedInput), emptyFeed);
const turn = (id: string, agent: string, usage?: object) => ({
  type: 'agent_message',
  id,
  agent_id: agent,
  agent_name: agent === 'a1' ? 'Ada' : 'Bo',
  content: `Turn ${id}`,
  ...(usage ? { usage } : {}),
});
const counted = (p: number, c: number, source = 'provider') => ({ prompt_tokens: p, completion_tokens: c, source });

describe('selectTokenSpend', () => {
  it('sums each agent’s turns and the summary into the total, exact when every count was', () => {
    const feed = fold([
      turn('m1', 'a1', counted(100, 20)),
      turn('m2', 'a2', counted(200, 30)),
      turn('m3', 'a1', counted(50, 10)),
      { type: 'discussion_summary', id: 's1', summary: { text: 'Done.' }, usage: counted(300, 40) },
    ]);
    const s = selectTokenSpend(feed);
    expect(s.perAgent).toEqual([
      { agentId: 'a2', name: 'Bo', tokens: 230, estimated: false },
      { agentId: 'a1', name: 'Ada', tokens: 180, estimated: false },
    ]);
    expect(s.total).toBe(750);
    expect(tokenTotalText(s)).toBe('750 tokens');
  });

  it('marks the total ≈ when any turn was estimated, and estimates a person’s messages from their text', () => {
    const feed = fold([
      turn('m1', 'a1', counted(100, 20)),
      turn('m2', 'a2', counted(1000, 234, 'estimate')),
      { type: 'human_message_local', id: 'h1', text: 'x'.repeat(40), timestamp: 't' },
    ]);
    const s = selectTokenSpend(feed);
    expect(s.estimated).toBe(true);
    expect(s.perAgent.find((a) => a.agentId === 'a2')?.estimated).toBe(true);
    expect(tokenTotalText(s)).toBe('≈ 1,354 tokens');
    expect(s.people).toEqual([{ name: 'You', tokens: 10 }]);
  });

  it('says nothing before anything was counted (an older stored discussion)', () => {
    const s = selectTokenSpend(fold([turn('m1', 'a1')]));
    expect(s.total).toBe(0);
    expect(tokenTotalText(s)).toBeNull();
  });
});

describe('the budget’s notice', () => {
  const notice = {
    type: 'error',
    message: "Stopped at this discussion's budget of 100 tokens: its turns spent 381.",
    fatal: false,
    about: 'token_budget',
  };
  it('is a system line in the feed, not a problem, and raises no banner', () => {
    const feed = fold([notice]);
    expect(selectItem(feed, selectMessageIds(feed)[0])).toMatchObject({ kind: 'system', content: notice.message });
    expect(bannerAfter(null, notice as never)).toBeNull();
    expect(endedStatusLine('budget')).toBe('Discussion ended: its token budget was reached');
  });

  it('does not end the standard session as a sign-in problem would; the day’s refusal neither', () => {
    expect(isAuthErrorFrame(notice as never)).toBe(false);
    const refusal = {
      type: 'error',
      fatal: true,
      message: 'Your daily budget of 300 tokens is spent (USER_DAILY_TOKENS).',
    };
    expect(isAuthErrorFrame(refusal as never)).toBe(false);
    expect(isAuthErrorFrame({ type: 'error', fatal: true, message: 'Token invalid or expired' } as never)).toBe(true);
    expect(
      isAuthErrorFrame({ type: 'error', message: 'Authentication token missing. Please login again.' } as never),
    ).toBe(true);
  });
});
