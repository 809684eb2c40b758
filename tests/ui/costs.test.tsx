// @vitest-environment jsdom
// Costs in the panels (docs/protocol.md#costs): Analytics shows tokens per agent and per person (a person's
// estimated from the text), the header the discussion's total ('≈' when any part is estimated), and 'Stop at …
// tokens' becomes the first frame's `token_budget` on both sockets, sent only when set.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyFrame, emptyFeed, type Feed, type FeedInput } from '../../src/model/feed';
import { selectAnalytics } from '../../src/model/feedSelectors';
import { buildHybridConfig } from '../../src/model/hybridConfig';
import { startedRun } from '../../src/model/panelRun';
import { buildStandardConfig } from '../../src/model/standardConfig';
import { initialHybridContext, hybridVariant } from '../../src/model/hybridVariant';
import { initialStandardContext, standardVariant } from '../../src/model/standardVariant';
import { hybridConfig } from '../../src/schemas/hybridSocket';
import { basicConfig } from '../../src/schemas/standardSocket';
import { AnalyticsView } from '../../src/ui/discussion/common/AnalyticsView';
import { PanelHeader } from '../../src/ui/discussion/common/PanelHeader';
import { TokenBudgetField } from '../../src/ui/discussion/common/TokenBudgetField';
import { selectTokenSpend, tokenTotalText } from '../../src/model/tokenSpend';

afterEach(cleanup);

const fold = (frames: object[]): Feed => frames.reduce<Feed>((f, x) => applyFrame(f, x as FeedInput), emptyFeed);
const usage = (p: number, c: number, source = 'provider') => ({ prompt_tokens: p, completion_tokens: c, source });
const feed = fold([
  { type: 'agent_message', id: 'm1', agent_id: 'a1', agent_name: 'Ada', content: 'One.', usage: usage(1000, 200) },
  {
    type: 'agent_message',
    id: 'm2',
    agent_id: 'a2',
    agent_name: 'Bo',
    content: 'Two.',
    usage: usage(800, 100, 'estimate'),
  },
  { type: 'human_message_local', id: 'h1', text: 'What about the winter months?', timestamp: 't' },
]);
const connection = { status: 'disconnected', endpoint: 'Hybrid', sessionId: null };

describe('Analytics', () => {
  it('shows the total, tokens per agent and the person’s messages as estimated', () => {
    render(<AnalyticsView analytics={selectAnalytics(feed)} connection={connection} />);
    expect(screen.getByText('Tokens').nextElementSibling?.textContent).toBe('≈ 2,100');
    const chart = screen.getAllByText('Tokens per agent and person')[0].closest('figure')!;
    const rows = within(chart)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(rows.join('|')).toMatch(/Ada.*1,200/);
    expect(rows.join('|')).toMatch(/Bo.*≈ 900/);
    expect(rows.join('|')).toMatch(/You.*≈ 8/);
    expect(screen.getByText(/estimated from the text/)).toBeTruthy();
  });

  it('says nothing of tokens a discussion never counted', () => {
    const old = fold([{ type: 'agent_message', id: 'm1', agent_id: 'a1', agent_name: 'Ada', content: 'One.' }]);
    render(<AnalyticsView analytics={selectAnalytics(old)} connection={connection} />);
    expect(screen.getByText('Tokens').nextElementSibling?.textContent).toBe('—');
    expect(screen.queryByText('Tokens per agent and person')).toBeNull();
  });
});

describe('the header', () => {
  const header = (tokens: string | null) => (
    <PanelHeader
      title="Hybrid Discussion"
      live={false}
      starting={false}
      hasMessages
      expanded={false}
      onToggleExpanded={() => {}}
      tokens={tokens}
    />
  );
  it("shows the discussion's total, marked ≈ when any part is estimated", () => {
    const { rerender } = render(header(tokenTotalText(selectTokenSpend(feed))));
    expect(screen.getByTestId('panel-tokens').textContent).toBe('≈ 2,100 tokens');
    rerender(header(tokenTotalText(selectTokenSpend(emptyFeed))));
    expect(screen.queryByTestId('panel-tokens')).toBeNull();
  });
});

describe("'Stop at … tokens'", () => {
  it('takes a whole number in bounds or nothing', () => {
    const seen: Array<number | null> = [];
    render(<TokenBudgetField value={null} onChange={(v) => seen.push(v)} />);
    const box = screen.getByLabelText('Stop at … tokens');
    fireEvent.change(box, { target: { value: '50,000' } });
    fireEvent.change(box, { target: { value: '5' } });
    expect(box.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(box, { target: { value: '' } });
    expect(seen).toEqual([50_000, null]);
  });

  it('is sent as token_budget on the standard and hybrid sockets, only when set', () => {
    const start = { agentIds: ['a', 'b'], connections: [], endpoint: 'basic' as const };
    const std = (token_budget: number | null) =>
      buildStandardConfig(
        startedRun(
          standardVariant.newRun(
            {
              ...initialStandardContext,
              topic: 'Sundays?',
              settings: { ...initialStandardContext.settings, token_budget },
            },
            start,
          ),
        ).run!,
      );
    expect(std(50_000).token_budget).toBe(50_000);
    expect(basicConfig.safeParse(std(50_000)).success).toBe(true);
    expect(std(null)).not.toHaveProperty('token_budget');

    const hyb = (token_budget: number | null) =>
      buildHybridConfig(
        startedRun(
          hybridVariant.newRun(
            { ...initialHybridContext, topic: 'Frost', settings: { ...initialHybridContext.settings, token_budget } },
            { agentIds: ['a', 'b'], endpoint: 'hybrid' as const },
          ),
        ).run!,
      );
    expect(hyb(20_000).token_budget).toBe(20_000);
    expect(hybridConfig.safeParse(hyb(20_000)).success).toBe(true);
    expect(hyb(null)).not.toHaveProperty('token_budget');
  });
});
