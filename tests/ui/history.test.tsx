// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_MESSAGES } from '../../src/schemas/messages';
import { tokenExpiringIn } from '../support/tokens';
import { healthy, json, renderApp, type Route, warmLazyChunks } from './appHarness';

// The History dialog over the standard panel, in the whole app over a fake server.

beforeAll(warmLazyChunks, 60_000);
afterEach(cleanup);

const row = (id: string, topic: string, over: object = {}) => ({
  id,
  session_id: `session_${id}`,
  endpoint: '/ws/discuss',
  topic,
  status: 'ended',
  frame_count: 6,
  message_count: 3,
  created_at: '2026-01-02T10:00:00.000Z',
  ended_at: '2026-01-02T10:05:00.000Z',
  ...over,
});
/** One (last) page of GET /discussion/history/page. */
const page = (items: object[]) => ({ items, next_cursor: null });
const text = (id: string, from: string, body: string, at: string) => ({
  type: 'text',
  id,
  from_id: 'a1',
  from,
  text: body,
  turn: 1,
  timestamp: at,
});
const stored = {
  ...row('d1', 'Drip irrigation?'),
  config: { panel: 'standard', agent_ids: ['a1', 'a2'] },
  frames: [
    {
      seq: 1,
      data: { type: 'discussion_started', session_id: 'session_d1', participants: [] },
      at: '2026-01-02T10:00:01.000Z',
    },
    {
      seq: 2,
      data: text('m1', 'Ada', 'Drip saves water.', '2026-01-02T10:00:02.000Z'),
      at: '2026-01-02T10:00:02.000Z',
    },
    {
      seq: 3,
      data: text('m2', 'Bo', 'It costs more up front.', '2026-01-02T10:00:04.000Z'),
      at: '2026-01-02T10:00:04.000Z',
    },
  ],
  human_messages: [
    { text: 'What about the slope?', at: '2026-01-02T10:00:03.000Z', timestamp: '2026-01-02T10:00:03.000Z' },
  ],
};

function signedIn(over: Record<string, Route> = {}) {
  const token = tokenExpiringIn(Date.now(), 60 * 60_000, 'user-0123456789abcdef');
  return renderApp({
    token,
    routes: {
      'GET /health': () => json(200, healthy),
      'GET /auth/me': () => json(200, { email: 'ada@example.com' }),
      'GET /agents/': () => json(200, []),
      'GET /connections/': () => json(200, []),
      'GET /monitor/stats': () => json(200, {}),
      ...over,
    },
  });
}

async function openHistory() {
  const button = await screen.findByRole('button', { name: 'History' }, { timeout: 15_000 });
  await userEvent.click(button);
  return screen.getByRole('dialog', { name: 'Past discussions' });
}

describe('a discussion still running at start', () => {
  it('is offered at once in the panel (no History needed); Dismiss hides the offer', async () => {
    signedIn({
      'GET /discussion/history': () =>
        json(200, [row('d2', 'Still going', { status: 'running', endpoint: '/ws/enhanced' }), row('d1', 'Old one')]),
    });
    const offer = await screen.findByText('A discussion is still running', undefined, { timeout: 15_000 });
    const box = offer.closest('.running-offer') as HTMLElement;
    expect(box.closest('aside')).toBeTruthy();
    expect(within(box).getByText('Still going')).toBeTruthy();
    expect(within(box).getByRole('button', { name: 'Re-attach' })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Past discussions' })).toBeNull();
    await userEvent.click(within(box).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('A discussion is still running')).toBeNull();
  });
});

describe('History dialog', () => {
  it('lists past discussions newest first with format, status, message count and date; empty and error states', async () => {
    let answer: Route = () =>
      json(
        200,
        page([
          row('d2', 'Newest topic', { status: 'running', endpoint: '/ws/enhanced' }),
          row('d1', 'Drip irrigation?', { end_reason: 'completed' }),
          row('d0', 'Cut short', { end_reason: 'stopped', endpoint: '/ws/hybrid', format: 'debate' }),
        ]),
      );
    const { calls } = signedIn({
      'GET /discussion/history/page': (init) => answer(init),
      'GET /discussion/history': () => json(200, []),
    });
    const dialog = await openHistory();
    const list = await within(dialog).findByRole('list', { name: 'Past discussions' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((i) => i.getAttribute('aria-label'))).toEqual(['Newest topic', 'Drip irrigation?', 'Cut short']);
    // A run that finished and one that was stopped read differently.
    expect(items[1].textContent).toContain('Completed');
    expect(items[2].textContent).toContain('Stopped');
    // Tagged by format, never by the socket it ran on ('Enhanced', 'Basic', 'Hybrid NLP/ACL').
    expect(items[0].textContent).toContain('Round table');
    expect(items[0].textContent).not.toContain('Enhanced');
    expect(items[0].textContent).toContain('Running');
    expect(items[1].textContent).not.toContain('Basic');
    expect(items[2].textContent).toContain('Debate');
    expect(items[2].textContent).not.toContain('Hybrid NLP/ACL');
    expect(items[1].textContent).toContain('3 messages');
    expect(within(items[1]).getByText(new Date('2026-01-02T10:00:00.000Z').toLocaleString())).toBeTruthy();

    answer = () => json(500, { detail: 'database down' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Refresh' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('database down');

    answer = () => json(200, page([]));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByText(HISTORY_MESSAGES.empty)).toBeTruthy();
    expect(calls.filter((c) => c === 'GET /discussion/history/page')).toHaveLength(3);
    // …and one at start: the check for a discussion still running (offered in the panel).
    expect(calls.filter((c) => c === 'GET /discussion/history')).toHaveLength(1);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Close history' }));
    expect(screen.queryByRole('dialog', { name: 'Past discussions' })).toBeNull();
  });

  it('opens one read-only with the panel tabs and its messages (the human one at its place)', async () => {
    signedIn({
      'GET /discussion/history/page': () => json(200, page([row('d1', 'Drip irrigation?')])),
      'GET /discussion/d1': () => json(200, stored),
    });
    const dialog = await openHistory();
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Open Drip irrigation?' }));
    expect(await within(dialog).findByRole('heading', { name: 'Drip irrigation?' })).toBeTruthy();
    expect(within(dialog).getByText('Read-only')).toBeTruthy();
    // No way to write into it: no message box, no Start, no Stop.
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    expect(within(dialog).queryByRole('button', { name: /start|stop/i })).toBeNull();

    const tabs = within(within(dialog).getByRole('tablist')).getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Discussion', 'Reasoning Tree', 'Research', 'Analytics']);
    const log = within(dialog).getByRole('log', { name: 'Stored messages' });
    await waitFor(() => expect(log.textContent).toContain('Drip saves water.'));
    const text = log.textContent!;
    expect(text.indexOf('Drip saves water.')).toBeLessThan(text.indexOf('What about the slope?'));
    expect(text.indexOf('What about the slope?')).toBeLessThan(text.indexOf('It costs more up front.'));
    expect(within(dialog).getByText('3 messages')).toBeTruthy();

    await userEvent.click(within(dialog).getByRole('tab', { name: 'Analytics' }));
    expect(within(dialog).getByRole('tab', { name: 'Analytics' }).getAttribute('aria-selected')).toBe('true');
    expect(within(dialog).getByRole('tabpanel').textContent).toContain('Discussion kind: Basic'); // the session id is no longer in the main view

    expect(within(dialog).getByRole('button', { name: 'Export JSON' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Export PDF' })).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: '← All discussions' }));
    expect(await within(dialog).findByRole('list', { name: 'Past discussions' })).toBeTruthy();
  });

  it('deletes only after the confirmation', async () => {
    let deleted = 0;
    const { calls } = signedIn({
      'GET /discussion/history/page': () => json(200, page([row('d1', 'Drip irrigation?'), row('d0', 'Older one')])),
      'DELETE /discussion/d1': () => {
        deleted++;
        return new Response(null, { status: 204 });
      },
    });
    const dialog = await openHistory();
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Delete Drip irrigation?' }));
    const confirm = screen.getByRole('alertdialog');
    // The confirmation names the discussion it deletes: its topic and its date.
    expect(confirm.textContent).toContain('“Drip irrigation?”');
    expect(confirm.textContent).toContain(new Date('2026-01-02T10:00:00.000Z').toLocaleString());
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(deleted).toBe(0);
    // The dialog is still there after cancelling.
    expect(screen.getByRole('dialog', { name: 'Past discussions' })).toBeTruthy();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete Drip irrigation?' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete discussion' }));
    await waitFor(() => expect(within(dialog).queryByRole('listitem', { name: 'Drip irrigation?' })).toBeNull());
    expect(deleted).toBe(1);
    expect(calls).toContain('DELETE /discussion/d1');
    expect(within(dialog).getByRole('listitem', { name: 'Older one' })).toBeTruthy();
  });

  it('rows tell discussions apart: participants, first line and models; a running row offers Re-attach', async () => {
    const people = [
      { id: 'a1', name: 'Ada', model: 'offline', color: '#047857', avatar: 'A!' },
      { id: 'a2', name: 'Bo', model: 'groq:llama' },
    ];
    const running = row('d2', 'Free buses?', {
      status: 'running',
      endpoint: '/ws/enhanced',
      participants: people,
      first_line: 'Fares are 38 million a year.',
    });
    signedIn({
      'GET /discussion/history/page': () =>
        json(200, page([running, row('d1', 'Free buses?', { participants: people.slice(0, 1) })])),
      'GET /discussion/d2': () =>
        json(200, {
          ...running,
          config: { panel: 'standard', agent_ids: ['a1', 'a2'] },
          frames: [],
          human_messages: [],
        }),
    });
    const dialog = await openHistory();
    const items = within(await within(dialog).findByRole('list', { name: 'Past discussions' })).getAllByRole(
      'listitem',
    );
    expect(within(items[0]).getByRole('img', { name: 'With Ada and Bo' })).toBeTruthy();
    expect(within(items[1]).getByRole('img', { name: 'With Ada' })).toBeTruthy();
    expect(items[0].textContent).toContain('Fares are 38 million a year.');
    expect(items[0].textContent).toContain('demo model, groq:llama');
    // The stored look: Ada's own colour and avatar, not re-derived ones.
    const avatar = items[0].querySelector('.history-avatar') as HTMLElement;
    expect(avatar.textContent).toBe('A!');
    expect(avatar.style.background).toMatch(/rgb\(4, 120, 87\)|#047857/);
    expect(within(items[1]).queryByRole('button', { name: /Re-attach/ })).toBeNull();
    await userEvent.click(within(items[0]).getByRole('button', { name: 'Re-attach Free buses?' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Past discussions' })).toBeNull());
  });

  it('past the first page: Show more appends the next page, the end says all are listed, and the filter asks the server', async () => {
    const { calls } = signedIn({
      'GET /discussion/history/page': () =>
        json(200, { items: [row('d3', 'Newest topic'), row('d2', 'Drip irrigation?')], next_cursor: 'c1' }),
      'GET /discussion/history/page?cursor=c1': () => json(200, page([row('d1', 'Oldest topic')])),
      'GET /discussion/history/page?q=drip': () => json(200, page([row('d2', 'Drip irrigation?')])),
    });
    const dialog = await openHistory();
    const list = await within(dialog).findByRole('list', { name: 'Past discussions' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Show more' }));
    await within(dialog).findByText('All 3 discussions listed.');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((i) => i.getAttribute('aria-label')),
    ).toEqual(['Newest topic', 'Drip irrigation?', 'Oldest topic']);

    // Pasted, so the word arrives as one change however slow the machine is (typing is the machine test's part).
    await userEvent.click(within(dialog).getByRole('searchbox', { name: 'Filter past discussions by topic' }));
    await userEvent.paste('drip');
    await waitFor(() =>
      expect(
        within(dialog)
          .getAllByRole('listitem')
          .map((i) => i.getAttribute('aria-label')),
      ).toEqual(['Drip irrigation?']),
    );
    expect(calls.filter((c) => c.startsWith('GET /discussion/history/page?q='))).toEqual([
      'GET /discussion/history/page?q=drip',
    ]);
  });

  it('the Format filter asks the server for one format; the rows show their format; none matching says so', async () => {
    const { calls } = signedIn({
      'GET /discussion/history/page': () =>
        json(200, page([row('d2', 'A council', { format: 'council' }), row('d1', 'A plain one')])),
      'GET /discussion/history/page?format=council': () =>
        json(200, page([row('d2', 'A council', { format: 'council' })])),
      'GET /discussion/history/page?format=debate': () => json(200, page([])),
    });
    const dialog = await openHistory();
    const list = await within(dialog).findByRole('list', { name: 'Past discussions' });
    expect(within(list).getByText('Council')).toBeTruthy();
    expect(within(list).getByText('Round table')).toBeTruthy();
    await userEvent.selectOptions(within(dialog).getByLabelText('Format'), 'Council');
    await waitFor(() => expect(within(dialog).getAllByRole('listitem')).toHaveLength(1));
    expect(calls).toContain('GET /discussion/history/page?format=council');
    await userEvent.selectOptions(within(dialog).getByLabelText('Format'), 'Debate');
    await within(dialog).findByText('No past discussion in the Debate format.');
  });
});
