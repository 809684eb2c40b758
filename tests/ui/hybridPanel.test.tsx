// @vitest-environment jsdom
// The hybrid panel (docs/product.md#discussions-screens 'Hybrid panel', #discussions-validation 'Hybrid start') over
// the real hybridDiscussion actor (createHybridDiscussionLogic), the real socket actor over a fake WebSocket, a real
// workspace and session. Server frames come from recorded transcripts and go through the production parse path.
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hybridTemplate, HYBRID_TEMPLATE_NAMES } from '../../src/model/hybridConfig';
import { CANVAS_MESSAGES, DISCUSSION_MESSAGES } from '../../src/schemas/messages';
import { defaults } from '../../src/schemas/settings';
import type { FakeWebSocket } from '../support/fakeWebSocket';
import { readTranscript } from '../transcripts/replay';
import { AGENTS, renderHybridPanel, selectAgents } from './panelHarness';

afterEach(cleanup);

const serverFrames = (name: string) =>
  readTranscript(path.join(__dirname, '..', 'transcripts', name)).lines.flatMap((l) =>
    'dir' in l && l.dir === 'server' ? [l.data as Record<string, unknown>] : [],
  );

/** Start names the format that will run: 'Start round table', 'Start council'… */
const startButton = () =>
  screen.getByRole('button', {
    name: /^Start (round table|council|debate|moderated discussion)$/,
  }) as HTMLButtonElement;
const button = (name: string | RegExp) => screen.getByRole('button', { name }) as HTMLButtonElement;
const send = (socket: FakeWebSocket, frames: unknown[]) => act(() => frames.forEach((f) => socket.serverSend(f)));

/** The footer's status line. */
const statusLine = () =>
  screen.getAllByRole('status').find((e) => e.classList.contains('panel-footer__status'))!.textContent;

type Panel = ReturnType<typeof renderHybridPanel>;

/** The settings sit behind a 'Settings' disclosure (folded by default, so the feed keeps the room). */
async function openSettings(user: ReturnType<typeof userEvent.setup>) {
  const toggle = screen.getByRole('button', { name: 'Settings' });
  if (toggle.getAttribute('aria-expanded') !== 'true') await user.click(toggle);
}

async function startLive(p: Panel, user = userEvent.setup()) {
  await selectAgents(p, [AGENTS[0].id, AGENTS[1].id, AGENTS[2].id]);
  await user.clear(screen.getByLabelText('Discussion topic'));
  await user.type(screen.getByLabelText('Discussion topic'), 'Drip or furrow irrigation?');
  await waitFor(() => expect(startButton().disabled).toBe(false));
  await user.click(startButton());
  const socket = await waitFor(
    () => p.sockets.last('/ws/hybrid') ?? Promise.reject(new Error('no /ws/hybrid socket yet')),
  );
  act(() => socket.serverOpen());
  await waitFor(() => expect(p.hybrid.getSnapshot().hasTag('connected')).toBe(true));
  return socket;
}

describe('hybrid panel', () => {
  it('keeps Start disabled with the hybrid start checks', async () => {
    const user = userEvent.setup();
    const p = renderHybridPanel();
    expect(startButton().disabled).toBe(true);
    expect(screen.getByText(DISCUSSION_MESSAGES.hybridSelectAgents)).toBeTruthy();
    await selectAgents(p, [AGENTS[0].id, AGENTS[1].id]);
    await waitFor(() => expect(screen.queryByText(DISCUSSION_MESSAGES.hybridSelectAgents)).toBeNull());
    // The empty topic is said only once the person has been in the box (issue 47).
    expect(screen.queryByText(DISCUSSION_MESSAGES.hybridProvideTopic)).toBeNull();
    await user.click(screen.getByLabelText('Discussion topic'));
    await user.tab();
    expect(await screen.findByText(DISCUSSION_MESSAGES.hybridProvideTopic)).toBeTruthy();
    await user.type(screen.getByLabelText('Discussion topic'), 'Drip?');
    expect(startButton().disabled).toBe(false);
    expect(screen.queryByText(DISCUSSION_MESSAGES.hybridProvideTopic)).toBeNull();
  });

  it('shares the standard start form and footer: Ctrl+Enter in the topic starts, disabled exports say why', async () => {
    const user = userEvent.setup();
    const p = renderHybridPanel();
    expect(button('Export PDF').title).toBe('No discussion to export.');
    expect(button('Export JSON').title).toBe('No discussion to export.');
    await selectAgents(p, [AGENTS[0].id, AGENTS[1].id]);
    await user.type(screen.getByLabelText('Discussion topic'), 'Drip?{Control>}{Enter}{/Control}');
    await waitFor(() => expect(p.sockets.last('/ws/hybrid')).toBeDefined());
  });

  it("marks an agent whose model server is not answering 'Model down', and Start asks first (Cancel, Start anyway)", async () => {
    const user = userEvent.setup();
    const p = renderHybridPanel({ unreachable: ['Bo'] });
    await selectAgents(p, [AGENTS[0].id, AGENTS[1].id]);
    const strip = await screen.findByRole('list', { name: 'Participants' });
    await waitFor(() => expect(within(strip).getAllByRole('listitem')).toHaveLength(2));
    const chip = (name: string) => within(strip).getByText(name).closest('li')!;
    expect(chip('Bo').textContent).toContain(CANVAS_MESSAGES.modelNotAnswering);
    expect(chip('Ada').textContent).not.toContain(CANVAS_MESSAGES.modelNotAnswering);

    await user.type(screen.getByLabelText('Discussion topic'), 'Drip?');
    await user.click(startButton());
    const question = await screen.findByText("Bo's model server is not answering — start anyway?");
    expect(p.hybrid.getSnapshot().hasTag('confirmingStart')).toBe(true);
    await user.click(
      within(question.closest('[role="dialog"], [role="alertdialog"]')!).getByRole('button', { name: 'Cancel' }),
    );
    await waitFor(() => expect(screen.queryByText(/start anyway\?/)).toBeNull());
    expect(p.sockets.last('/ws/hybrid')).toBeUndefined();
    await user.click(startButton());
    await user.click(await screen.findByRole('button', { name: 'Start anyway' }));
    await waitFor(() => expect(p.sockets.last('/ws/hybrid')).toBeDefined());
  });

  it('each template button fills the settings (and a starter topic) in the machine and the form', async () => {
    const user = userEvent.setup();
    const p = renderHybridPanel();
    await openSettings(user);
    expect(
      within(screen.getByRole('group', { name: 'Templates' }))
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Scientific Analysis', 'Problem Solving', 'Creative Brainstorming', 'Strategic Planning']);
    for (const name of HYBRID_TEMPLATE_NAMES) {
      await user.click(button(name));
      const { settings, topic } = hybridTemplate(name);
      expect(p.hybrid.getSnapshot().context.settings).toMatchObject(settings);
      // The form shows what the machine holds.
      expect((screen.getByLabelText('Mode') as HTMLSelectElement).value).toBe(
        p.hybrid.getSnapshot().context.settings.mode,
      );
      expect((screen.getByLabelText(/^Max rounds/) as HTMLInputElement).value).toBe(
        String(p.hybrid.getSnapshot().context.settings.max_rounds),
      );
      expect((screen.getByRole('slider', { name: /^Reasoning depth/ }) as HTMLInputElement).value).toBe(
        String(p.hybrid.getSnapshot().context.settings.reasoning_depth),
      );
      expect((screen.getByLabelText('Response format') as HTMLSelectElement).value).toBe(
        p.hybrid.getSnapshot().context.settings.response_format,
      );
      // A starter topic fills an empty box (and never overwrites what the user wrote).
      if (name === HYBRID_TEMPLATE_NAMES[0])
        expect((screen.getByLabelText('Discussion topic') as HTMLTextAreaElement).value).toBe(topic);
    }
    // The spec's fixed values, as the form shows them.
    await user.click(button('Problem Solving'));
    expect((screen.getByLabelText(/^Max rounds/) as HTMLInputElement).value).toBe('15');
    expect((screen.getByLabelText(/^Turns per round/) as HTMLInputElement).value).toBe('2');
    await user.click(button('Scientific Analysis'));
    expect((screen.getByRole('slider', { name: /^Reasoning depth/ }) as HTMLInputElement).value).toBe('5');
  });

  it('hybrid bounds: max rounds 0 or 51 and turns per round 6 show the field error and do not reach the machine', async () => {
    const user = userEvent.setup();
    const p = renderHybridPanel();
    await openSettings(user);
    const settings = () => p.hybrid.getSnapshot().context.settings;
    for (const bad of ['0', '51']) {
      fireEvent.change(screen.getByLabelText(/^Max rounds/), { target: { value: bad } });
      expect(screen.getByText('Enter a number from 1 to 50.')).toBeTruthy();
      expect(settings().max_rounds).toBe(defaults.hybrid.max_rounds);
    }
    fireEvent.change(screen.getByLabelText(/^Max rounds/), { target: { value: '50' } });
    expect(settings().max_rounds).toBe(50);
    fireEvent.change(screen.getByLabelText(/^Turns per round/), { target: { value: '6' } });
    expect(screen.getByText('Enter a number from 1 to 5.')).toBeTruthy();
    expect(settings().turns_per_round).toBe(defaults.hybrid.turns_per_round);
  });

  it('locks the settings, templates and topic while connected; Stop Discussion sends stop and closes', async () => {
    const user = userEvent.setup();
    const p = renderHybridPanel();
    await openSettings(user);
    expect(button('Stop Discussion').disabled).toBe(true);
    await user.click(button('Creative Brainstorming'));
    const socket = await startLive(p, user);

    // The configuration carries the template's settings.
    expect(socket.sent[0]).toMatchObject({
      agent_ids: AGENTS.map((a) => a.id),
      topic: 'Drip or furrow irrigation?',
      response_format: 'bullet',
      max_response_length: 300,
    });
    // The locked settings fold into one summary line, so the feed takes the height.
    expect(screen.queryByRole('group', { name: 'Hybrid discussion settings' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Settings' })).toBeNull();
    const summary = document.querySelector('.hybrid-settings-summary')!;
    expect(summary.textContent).toMatch(
      /^Settings: \d+ rounds? · \d+ turns? each · [A-Z][a-z ]+ · research (on|off) · speech (on|off)$/,
    );
    // The topic box, its templates and Start fold into one line naming the topic while connected.
    for (const name of HYBRID_TEMPLATE_NAMES) expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.queryByLabelText('Discussion topic')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Start round table' })).toBeNull();
    expect(screen.getByText('Drip or furrow irrigation?')).toBeTruthy();
    // Templates sent anyway (a stale click) change nothing while connected.
    const locked = p.hybrid.getSnapshot().context.settings;
    act(() => p.hybrid.send({ type: 'panel.template.apply', template: 'Scientific Analysis' }));
    expect(p.hybrid.getSnapshot().context.settings).toEqual(locked);
    expect(statusLine()).toBe('Connected · configuration sent');

    // Some of the recorded discussion arrives.
    const frames = serverFrames('hybrid-hybrid.jsonl');
    send(
      socket,
      frames.slice(
        0,
        frames.findIndex((f) => f.type === 'round_end'),
      ),
    );
    const log = await screen.findByRole('log', { name: 'Hybrid discussion messages' });
    await waitFor(() => expect(within(log).getAllByRole('article').length).toBeGreaterThan(0));
    expect(statusLine()).toBe('Connected · round 1 in progress');
    expect(screen.getByTitle('Round').textContent).toMatch(/^Round 1\//);
    expect(button('Export PDF').disabled).toBe(false);
    // One PDF export and a JSON export; no second 'Export' doing the same.
    expect(screen.getAllByRole('button', { name: /^Export/ }).map((b) => b.textContent)).toEqual([
      'Export PDF',
      'Export JSON',
    ]);

    expect(button('Stop Discussion').disabled).toBe(false);
    await user.click(button('Stop Discussion'));
    expect(socket.sent.at(-1)).toEqual({ type: 'stop' });
    expect(button('Stop Discussion').disabled).toBe(true);
    expect(statusLine()).toBe('Stopping…');
    // 500 ms later the client closes with 1000; the run ends and the settings unlock.
    await waitFor(() => expect(socket.closedByClient).toMatchObject({ code: 1000 }), { timeout: 3000 });
    await waitFor(() => expect(p.hybrid.getSnapshot().matches({ run: 'ended' })).toBe(true), { timeout: 3000 });
    // The header says the run finished, not 'Idle' (issue 47).
    const facts = p.container.querySelector('.panel-header__facts') as HTMLElement;
    expect(within(facts).getByText('Finished')).toBeTruthy();
    expect(facts.textContent).not.toMatch(/Idle/);
    // After the run the settings stay folded, so the feed keeps the panel…
    expect(screen.queryByRole('group', { name: 'Hybrid discussion settings' })).toBeNull();
    // …until 'New discussion': then they come back (still open), unlocked, and the templates work again.
    await user.click(button('New discussion'));
    expect((screen.getByRole('group', { name: 'Hybrid discussion settings' }) as HTMLFieldSetElement).disabled).toBe(
      false,
    );
    expect(button('Scientific Analysis').disabled).toBe(false);
    expect(statusLine()).toBe('Discussion stopped');
  });

  it('counts delegations on the Delegations button (once each) and lists them; the Research drawer', async () => {
    const user = userEvent.setup();
    const p = renderHybridPanel();
    expect(button('Delegations (0)')).toBeTruthy();
    expect(button('Research (0)')).toBeTruthy();
    const socket = await startLive(p, user);
    const delegation = (from: string, to: string, task: string) => ({
      type: 'delegation',
      delegation: { from, from_agent: from, to, to_agent: to, task, reason: task },
      timestamp: '2026-11-22T02:02:50.606Z',
    });
    const turn = (id: string, name: string, content: string) => ({
      type: 'agent_message',
      id,
      agent_id: name.toLowerCase(),
      agent_name: name,
      content,
      timestamp: '2026-11-22T02:02:50.000Z',
    });
    send(socket, [
      turn('t1', 'Cy', 'Costs first.'),
      delegation('Cy', 'Bo', 'check the costs'),
      turn('t2', 'Ada', 'Soil first.'),
      delegation('Ada', 'Cy', 'measure soil moisture'),
    ]);
    await waitFor(() => expect(button('Delegations (2)')).toBeTruthy());
    // Each hand-over joined the turn that made it: two bubbles, no rows of their own.
    const feedLog = screen.getByRole('log', { name: 'Hybrid discussion messages' });
    await waitFor(() =>
      expect(
        within(feedLog)
          .getAllByRole('article')
          .map((a) => a.getAttribute('aria-label')),
      ).toEqual(['Cy', 'Ada']),
    );
    expect(within(feedLog).queryByRole('note')).toBeNull();
    expect(within(feedLog).getAllByRole('article')[0].querySelector('summary')!.textContent).toContain(
      'hands over to Bo: check the costs',
    );
    // The same delegation again (a resume replays it) is counted once.
    send(socket, [delegation('Cy', 'Bo', 'check the costs')]);
    expect(button('Delegations (2)')).toBeTruthy();

    await user.click(button('Delegations (2)'));
    expect(button('Delegations (2)').getAttribute('aria-pressed')).toBe('true');
    const list = screen.getByRole('list', { name: 'Delegations' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((r) => r.querySelector('.delegation__route')!.textContent)).toEqual(['Cy → Bo', 'Ada → Cy']);
    expect(within(rows[1]).getByText('measure soil moisture')).toBeTruthy();
    await user.click(button('Delegations (2)'));
    expect(screen.queryByRole('list', { name: 'Delegations' })).toBeNull();
    expect(screen.getByRole('log', { name: 'Hybrid discussion messages' })).toBeTruthy();

    // The hybrid protocol has no research_result frame: the Research drawer says so rather than showing a blank.
    await user.click(button('Research (0)'));
    expect(button('Research (0)').getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText('No research papers yet')).toBeTruthy();
  });

  it('the Format setting goes out with Start; a running council offers End discussion, and Join in opens the message box with @name completion', async () => {
    const user = userEvent.setup();
    const p = renderHybridPanel();
    expect(startButton().textContent).toBe('Start round table');
    await user.selectOptions(screen.getByLabelText('Format'), 'Council');
    expect(p.hybrid.getSnapshot().context.settings.format.kind).toBe('council');
    // Start names the format; the council's line counts messages, as the header's counter does (answers and the
    // chair's; the ranking is a table, not a message).
    expect(startButton().textContent).toBe('Start council');
    // (No agent chosen yet: counted for the two a discussion needs at least.)
    expect(screen.getByText(/the chair writes the final answer/).textContent).toMatch(/: 3 messages and a ranking\.$/);
    expect(screen.getByText(/the chair writes the final answer/).textContent).not.toMatch(/turns/);
    const socket = await startLive(p, user);
    // No chair chosen: the server's default (the first agent).
    expect((socket.sent[0] as { format: unknown }).format).toEqual({ kind: 'council' });
    expect(screen.getByTitle(/^Council · /)).toBeTruthy();
    await user.click(button('End discussion'));
    expect(socket.sent.at(-1)).toEqual({ type: 'end_discussion' });
    // The person has no part in a council: the message box waits behind 'Join in', and the feed keeps the room.
    expect(screen.queryByLabelText('Your message to the agents')).toBeNull();
    await user.click(button('Join in'));
    expect(button('Join in').getAttribute('aria-pressed')).toBe('true');
    const box = screen.getByLabelText('Your message to the agents');
    // The person asked to join in: the focus is in the box, ready to type.
    expect(document.activeElement).toBe(box);
    await user.type(box, `@${AGENTS[2].name.slice(0, 2)}`);
    expect(
      within(screen.getByRole('listbox', { name: 'Agents to mention' })).getByText(`@${AGENTS[2].name}`),
    ).toBeTruthy();
  });
});
