// @vitest-environment jsdom
// Tool calls in the feed of both panels (docs/tools.md), over the real panel charts and a fake socket: a call row
// under its turn, folded behind a keyboard-operable disclosure; a call that waits shows Run and Refuse, which send
// tool_approval through the chart; the agent's chip says 'using calculator…' while the call runs.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeWebSocket } from '../support/fakeWebSocket';
import { AGENTS, renderHybridPanel, renderStandardPanel, selectAgents } from './panelHarness';

afterEach(cleanup);

const send = (socket: FakeWebSocket, frames: unknown[]) => act(() => frames.forEach((f) => socket.serverSend(f)));
const ada = AGENTS[0]!;
const call = (id: string, messageId: string, extra: object = {}) => ({
  type: 'tool_call',
  id,
  agent_id: ada.id,
  message_id: messageId,
  tool: 'calculator',
  server: 'builtin',
  arguments: { expression: '12 * 7' },
  ...extra,
});
const approvals = (socket: FakeWebSocket) =>
  socket.sent.filter((f) => (f as { type?: string }).type === 'tool_approval');

async function standardLive(user = userEvent.setup()) {
  const p = renderStandardPanel();
  await waitFor(() => expect(screen.getByText(/^Available endpoints:/).textContent).not.toContain('Checking'));
  await selectAgents(p, [AGENTS[0].id, AGENTS[1].id]);
  await user.type(screen.getByLabelText('Discussion context'), 'How many days are twelve weeks?');
  await user.click(screen.getByRole('button', { name: 'Start round table' }));
  const socket = await waitFor(() => {
    const s = p.sockets.instances.find((x) => !x.query.test);
    if (!s) throw new Error('no discussion socket yet');
    return s;
  });
  act(() => socket.serverOpen());
  await waitFor(() => expect(p.standard.getSnapshot().hasTag('live')).toBe(true));
  return { p, socket };
}

describe('tool calls in the feed', () => {
  it('standard panel: a waiting call asks in its row; Run sends the approval; the result folds under the turn', async () => {
    const user = userEvent.setup();
    const { p, socket } = await standardLive(user);
    send(socket, [call('c1', 'm1', { needs_approval: true })]);
    const rows = await screen.findByRole('list', { name: 'Tool calls' });
    expect(rows.textContent).toContain('waiting for you');
    expect(p.container.querySelector('.agent-strip')!.textContent).toContain('using calculator…');
    await user.click(within(rows).getByRole('button', { name: 'Run' }));
    expect(approvals(socket)).toEqual([{ type: 'tool_approval', id: 'c1', approve: true }]);
    await waitFor(() => expect(rows.textContent).toContain('running…'));
    expect(within(rows).queryByRole('button', { name: 'Run' })).toBeNull();

    send(socket, [
      { type: 'tool_result', id: 'c1', ok: true, content: '84', truncated: false, ms: 4 },
      { type: 'text', id: 'm1', from_id: ada.id, from: 'Ada', text: 'Twelve weeks are 84 days.', turn: 1 },
    ]);
    await waitFor(() => expect(screen.getByText('Twelve weeks are 84 days.')).toBeTruthy());
    const list = screen.getByRole('list', { name: 'Tool calls' });
    const toggle = within(list).getByRole('button', { name: /calculator/ });
    expect(toggle.textContent).toContain('→ 84 · 4 ms');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(p.container.querySelector('.agent-strip')!.textContent).not.toContain('using calculator');
    // Keyboard: focus the disclosure and press Enter.
    toggle.focus();
    await user.keyboard('{Enter}');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const body = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(body.hidden).toBe(false);
    expect(body.textContent).toContain('"expression": "12 * 7"');
    expect(body.textContent).toContain('4 ms');
  });

  it('standard panel: Refuse sends approve false and the row says refused', async () => {
    const user = userEvent.setup();
    const { socket } = await standardLive(user);
    send(socket, [call('c2', 'm2', { needs_approval: true })]);
    const rows = await screen.findByRole('list', { name: 'Tool calls' });
    await user.click(within(rows).getByRole('button', { name: 'Refuse' }));
    expect(approvals(socket)).toEqual([{ type: 'tool_approval', id: 'c2', approve: false }]);
    await waitFor(() => expect(rows.querySelector('.tool-call__state')!.textContent).toBe('refused'));
  });

  it('hybrid panel: Run goes out through the hybrid chart; a failed call shows its error', async () => {
    const user = userEvent.setup();
    const p = renderHybridPanel();
    await selectAgents(p, [AGENTS[0].id, AGENTS[1].id, AGENTS[2].id]);
    await user.clear(screen.getByLabelText('Discussion topic'));
    await user.type(screen.getByLabelText('Discussion topic'), 'How many days are twelve weeks?');
    const start = screen.getByRole('button', { name: /^Start / }) as HTMLButtonElement;
    await waitFor(() => expect(start.disabled).toBe(false));
    await user.click(start);
    const socket = await waitFor(
      () => p.sockets.last('/ws/hybrid') ?? Promise.reject(new Error('no /ws/hybrid socket yet')),
    );
    act(() => socket.serverOpen());
    await waitFor(() => expect(p.hybrid.getSnapshot().hasTag('connected')).toBe(true));
    send(socket, [call('h1', 'hm1', { needs_approval: true })]);
    const rows = await screen.findByRole('list', { name: 'Tool calls' });
    await user.click(within(rows).getByRole('button', { name: 'Run' }));
    expect(approvals(socket)).toEqual([{ type: 'tool_approval', id: 'h1', approve: true }]);
    send(socket, [
      { type: 'tool_result', id: 'h1', ok: false, content: '', truncated: false, ms: 30000, error: 'timed out' },
    ]);
    await waitFor(() => expect(rows.querySelector('.tool-call__state')!.textContent).toBe('failed'));
    expect(rows.textContent).toContain('timed out');
  });

  it('standard panel: the turn whose model cannot call tools says so in its header, the next turn does not', async () => {
    const { p, socket } = await standardLive();
    send(socket, [
      {
        type: 'error',
        message: "Ada's model (Built-in engine) cannot call tools here; it answers without them.",
        fatal: false,
        about: 'tools_unsupported',
        agent_id: ada.id,
        message_id: 'm1',
      },
      { type: 'text', id: 'm1', from_id: ada.id, from: 'Ada', text: 'Twelve weeks are 84 days.', turn: 1 },
      { type: 'text', id: 'm2', from_id: ada.id, from: 'Ada', text: 'Still 84.', turn: 2 },
    ]);
    const turn = (await screen.findByText('Twelve weeks are 84 days.')).closest('article')!;
    expect(turn.querySelector('.turn__head + .turn__note--tools')?.textContent).toBe(
      'This model does not support tools — it runs without them',
    );
    const next = screen.getByText('Still 84.').closest('article')!;
    expect(next.querySelector('.turn__note--tools')).toBeNull();
    // A note, not a problem of the run: no error banner, no 'Problem' row.
    expect(p.container.querySelector('.discussion-error')).toBeNull();
    expect(p.container.textContent).not.toContain('Problem');
  });

  it('hybrid panel: the system line about a turn’s tools marks that turn’s header', async () => {
    const user = userEvent.setup();
    const p = renderHybridPanel();
    await selectAgents(p, [AGENTS[0].id, AGENTS[1].id, AGENTS[2].id]);
    await user.clear(screen.getByLabelText('Discussion topic'));
    await user.type(screen.getByLabelText('Discussion topic'), 'How many days are twelve weeks?');
    const start = screen.getByRole('button', { name: /^Start / }) as HTMLButtonElement;
    await waitFor(() => expect(start.disabled).toBe(false));
    await user.click(start);
    const socket = await waitFor(
      () => p.sockets.last('/ws/hybrid') ?? Promise.reject(new Error('no /ws/hybrid socket yet')),
    );
    act(() => socket.serverOpen());
    await waitFor(() => expect(p.hybrid.getSnapshot().hasTag('connected')).toBe(true));
    send(socket, [
      {
        type: 'system',
        about: 'tools_unsupported',
        agent_id: ada.id,
        message_id: 'hm1',
        content: "Ada's model cannot call tools here; it answers without them.",
      },
      {
        type: 'agent_message',
        id: 'hm1',
        agent_id: ada.id,
        agent_name: 'Ada',
        content: 'Twelve weeks are 84 days.',
        message_type: 'hybrid',
        formal_communications: [],
      },
    ]);
    const turn = (await screen.findByText('Twelve weeks are 84 days.')).closest('article')!;
    expect(turn.querySelector('.turn__note--tools')?.textContent).toContain('does not support tools');
  });
});
