// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tokenExpiringIn } from '../support/tokens';
import { healthy, json, renderApp, type Route, warmLazyChunks } from './appHarness';

// 'Save as panel', the Panels dialog, the API tokens dialog and History's origin marks, in the whole app over a
// fake server that records what it was sent.

beforeAll(warmLazyChunks, 60_000);
afterEach(cleanup);

const agents = [
  { id: 'a1', name: 'Ada', role: 'Analyst' },
  { id: 'a2', name: 'Bo', role: 'Skeptic' },
  { id: 'a3', name: 'Cy', role: 'Moderator' },
];
const stored = (over: object = {}) => ({
  id: 'p1',
  name: 'Water board',
  agent_ids: ['a1', 'a3'],
  format: { kind: 'council', chair: 'a3' },
  settings: null,
  created_at: '2026-01-01T10:00:00.000Z',
  updated_at: '2026-01-02T10:00:00.000Z',
  ...over,
});

function signedIn(over: Record<string, Route> = {}) {
  const token = tokenExpiringIn(Date.now(), 60 * 60_000, 'user-0123456789abcdef');
  return renderApp({
    token,
    routes: {
      'GET /health': () => json(200, healthy),
      'GET /auth/me': () => json(200, { email: 'ada@example.com' }),
      'GET /agents/': () => json(200, agents),
      'GET /connections/': () => json(200, []),
      'GET /monitor/stats': () => json(200, {}),
      ...over,
    },
  });
}

async function fromMenu(item: string) {
  await userEvent.click(await screen.findByRole('button', { name: 'More actions' }, { timeout: 15_000 }));
  await userEvent.click(screen.getByRole('menuitem', { name: item }));
}

const bodyOf = (init: RequestInit) => JSON.parse(String(init.body));

describe('Save as panel', () => {
  it('is offered for two selected agents; a taken name shows the server’s words; saved, a toast says so', async () => {
    const posted: unknown[] = [];
    let taken = true;
    const { actor } = signedIn({
      'POST /panels': (init) => {
        posted.push(bodyOf(init));
        return taken
          ? json(409, { detail: 'You already have a panel named “Water board”' })
          : json(201, stored({ name: bodyOf(init).name, agent_ids: ['a1', 'a2'] }));
      },
    });
    await screen.findByRole('button', { name: /Your display name: ada\b/ }, { timeout: 10_000 });
    await waitFor(() => expect(actor.system.get('workspace')).toBeTruthy(), { timeout: 10_000 });
    act(() => actor.system.get('workspace').send({ type: 'selection.toggle', id: 'a1' }));
    expect(screen.queryByRole('button', { name: 'Save as panel…' })).toBeNull();
    act(() => actor.system.get('workspace').send({ type: 'selection.toggle', id: 'a2' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Save as panel…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save as panel' });
    expect(dialog.textContent).toContain('Ada and Bo');
    expect(dialog.textContent).toContain('Round table');
    await userEvent.type(within(dialog).getByLabelText('Name'), 'a/b');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save panel' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('A panel name is one line without slashes');
    expect(posted).toHaveLength(0);
    await userEvent.clear(within(dialog).getByLabelText('Name'));
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Water board');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save panel' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('You already have a panel named “Water board”');
    taken = false;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save panel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Save as panel' })).toBeNull());
    expect(posted[1]).toMatchObject({ name: 'Water board', agent_ids: ['a1', 'a2'], format: null });
    expect(await screen.findByText(/Saved the panel “Water board”/)).toBeTruthy();
  });
});

describe('Panels dialog', () => {
  it('says what a panel is when there is none, and offers Retry when the list fails', async () => {
    let fail = true;
    signedIn({ 'GET /panels': () => (fail ? json(503, { detail: 'Database busy' }) : json(200, [])) });
    await fromMenu('Panels');
    const dialog = await screen.findByRole('dialog', { name: 'Panels' });
    // A 5xx is tried again (500 ms, then 1 s) before the dialog says so.
    expect((await within(dialog).findByRole('alert', undefined, { timeout: 5_000 })).textContent).toContain(
      'Database busy',
    );
    fail = false;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Retry' }));
    expect(await within(dialog).findByText(/No panels yet\. A panel is a named group of your agents/)).toBeTruthy();
    expect(dialog.textContent).toContain('select two agents or more on the canvas, then press Save as panel');
  });

  it('lists, renames in place, deletes after asking, and starts a panel in the Discussion panel', async () => {
    const patched: unknown[] = [];
    const deleted: string[] = [];
    const { actor } = signedIn({
      'GET /panels': () => json(200, [stored(), stored({ id: 'p2', name: 'Jury', format: null })]),
      'PATCH /panels/p1': (init) => {
        patched.push(bodyOf(init));
        return json(200, stored({ name: bodyOf(init).name }));
      },
      'DELETE /panels/p2': () => {
        deleted.push('p2');
        return json(200, { ok: true });
      },
    });
    await fromMenu('Panels');
    const dialog = await screen.findByRole('dialog', { name: 'Panels' });
    const list = await within(dialog).findByRole('list', { name: 'Saved panels' });
    const first = within(list).getByRole('listitem', { name: 'Water board' });
    expect(first.textContent).toContain('2 agents: Ada and Cy');
    expect(first.textContent).toContain('Council');

    await userEvent.click(within(first).getByRole('button', { name: 'Rename Water board' }));
    const field = within(first).getByLabelText('New name for Water board');
    await userEvent.clear(field);
    await userEvent.type(field, 'Water council{Enter}');
    await within(list).findByRole('listitem', { name: 'Water council' });
    expect(patched).toEqual([{ name: 'Water council' }]);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete Jury' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm.textContent).toContain('Delete the panel “Jury”?');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete panel' }));
    await waitFor(() => expect(within(list).queryByRole('listitem', { name: 'Jury' })).toBeNull());
    expect(deleted).toEqual(['p2']);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Start discussion with Water council' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Panels' })).toBeNull());
    expect(actor.system.get('workspace').getSnapshot().context.selectedIds).toEqual(['a1', 'a3']);
    expect(actor.system.get('standardDiscussion').getSnapshot().context.settings.format).toMatchObject({
      kind: 'council',
      chair: 'a3',
    });
  });
});

describe('API tokens dialog', () => {
  it('creates a token shown once with words saying so, lists it without the secret, revokes after asking', async () => {
    const created: unknown[] = [];
    const revoked: string[] = [];
    const listed = {
      id: 't1',
      name: 'Laptop',
      scopes: ['read'],
      hint: 'agora_Ab3d…',
      created_at: '2026-01-01T10:00:00.000Z',
      expires_at: null,
      last_used_at: '2026-01-03T10:00:00.000Z',
    };
    signedIn({
      'GET /api-tokens': () => json(200, [listed]),
      'POST /api-tokens': (init) => {
        created.push(bodyOf(init));
        return json(201, {
          ...listed,
          id: 't2',
          name: 'Cursor',
          scopes: ['read', 'run'],
          hint: 'agora_Zz9…',
          token: 'agora_THE_SECRET',
        });
      },
      'DELETE /api-tokens/t1': () => {
        revoked.push('t1');
        return json(200, { deleted: true });
      },
    });
    await fromMenu('API tokens');
    const dialog = await screen.findByRole('dialog', { name: 'API tokens' });
    const table = await within(dialog).findByRole('table', { name: 'Your tokens' });
    expect(table.textContent).toContain('agora_Ab3d…');
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Cursor');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create token' }));
    const fresh = await within(dialog).findByRole('region', { name: 'New token' });
    expect(within(fresh).getByTestId('new-token').textContent).toBe('agora_THE_SECRET');
    expect(fresh.textContent).toContain('it is shown only this once');
    expect(created).toEqual([{ name: 'Cursor', scopes: ['read', 'run'], expires_at: null }]);
    expect(table.textContent).toContain('Cursor');
    expect(table.textContent).not.toContain('agora_THE_SECRET');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke Laptop' }));
    const confirm = await screen.findByRole('alertdialog');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Revoke token' }));
    await waitFor(() => expect(table.textContent).not.toContain('Laptop'));
    expect(revoked).toEqual(['t1']);

    // Shown once: closed and opened again, the secret is gone.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await fromMenu('API tokens');
    const again = await screen.findByRole('dialog', { name: 'API tokens' });
    expect(within(again).queryByTestId('new-token')).toBeNull();
  });
});

describe('History origin', () => {
  it("marks discussions started from outside 'via MCP' / 'via API', and the app's own not at all", async () => {
    const row = (id: string, origin?: string) => ({
      id,
      session_id: `s_${id}`,
      endpoint: '/ws/discuss',
      topic: `Topic ${id}`,
      status: 'ended',
      frame_count: 2,
      message_count: 1,
      created_at: '2026-01-02T10:00:00.000Z',
      ...(origin ? { origin } : {}),
    });
    signedIn({
      'GET /discussion/history/page': () =>
        json(200, { items: [row('d1', 'mcp'), row('d2', 'api'), row('d3', 'app'), row('d4')], next_cursor: null }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'History' }, { timeout: 15_000 }));
    const dialog = screen.getByRole('dialog', { name: 'Past discussions' });
    const items = within(await within(dialog).findByRole('list', { name: 'Past discussions' })).getAllByRole(
      'listitem',
    );
    expect(items.map((i) => i.querySelector('.history-row__origin')?.textContent ?? null)).toEqual([
      'via MCP',
      'via API',
      null,
      null,
    ]);
  });
});
