// @vitest-environment jsdom
// The Analytics tab's run tile says where the run is in a person's words: a run that left messages is finished,
// one that left none has not started; never the socket's 'disconnected'.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { emptyFeed } from '../../src/model/feed';
import { selectAnalytics, type Analytics } from '../../src/model/feedSelectors';
import { AnalyticsView } from '../../src/ui/discussion/common/AnalyticsView';

afterEach(cleanup);

const runTile = () => screen.getByText('Run').nextElementSibling?.textContent;
const connection = (status: string) => ({ status, endpoint: 'Enhanced', sessionId: null });

it('says Not started before a run and Finished after one, never disconnected', () => {
  const empty = selectAnalytics(emptyFeed);
  const { rerender } = render(<AnalyticsView analytics={empty} connection={connection('disconnected')} />);
  expect(runTile()).toBe('Not started');
  const after: Analytics = { ...empty, totalMessages: 6 };
  rerender(<AnalyticsView analytics={after} connection={connection('disconnected')} />);
  expect(runTile()).toBe('Finished');
  rerender(<AnalyticsView analytics={after} connection={connection('connected')} />);
  expect(runTile()).toBe('Running');
  expect(document.body.textContent).not.toMatch(/disconnected/i);
});
