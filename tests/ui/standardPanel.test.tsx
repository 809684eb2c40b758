// @vitest-environment jsdom
// The standard panel ('Discussion', docs/product.md#discussions-screens, #discussions-validation)
// rendered over the real standardDiscussion actor (createStandardDiscussionLogic), the real socket actor over a fake
// WebSocket, a real workspace and session. Server frames come from recorded transcripts (tests/transcripts/*.jsonl) and
// go through the production parse path.
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { topicSlug } from '../../src/model/exportJson';
import { ABSTRACT_PREVIEW_CHARS } from '../../src/schemas/constants';
import { DISCUSSION_MESSAGES } from '../../src/schemas/messages';
import type { FakeWebSocket } from '../support/fakeWebSocket';
import { readTranscript } from '../transcripts/replay';
import { AGENTS, renderStandardPanel, selectAgents } from './panelHarness';

afterEach(cleanup);

const transcript = (name: string) => readTranscript(path.join(__dirname, '..', 'transcripts', name));
/** The server frames of a transcript, in order. */
const serverFrames = (name: string) =>
  transcript(name).lines.flatMap((l) => ('dir' in l && l.dir === 'server' ? [l.data as Record<string, unknown>] : []));

const startButton = () => screen.getByRole('button', { name: 'Start round table' }) as HTMLButtonElement;
const hint = (container: HTMLElement) => container.querySelector('.start-form__problem')?.textContent ?? null;

/** jsdom's Blob has no text(). */
const blobText = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });

type Panel = ReturnType<typeof renderStandardPanel>;

/** Waits until the probe has answered for every endpoint (Start would otherwise fall back to Basic). */
async function probed() {
  await waitFor(() => expect(screen.getByText(/^Available endpoints:/).textContent).not.toContain('Checking'));
}

/** Two agents, a context, Start, and the server opens the socket: the panel is live. */
async function startLive(p: Panel, user = userEvent.setup()): Promise<FakeWebSocket> {
  await probed();
  await selectAgents(p, [AGENTS[0].id, AGENTS[1].id]);
  await user.type(screen.getByLabelText('Discussion context'), 'Should the vineyard switch to drip irrigation?');
  await user.click(startButton());
  const socket = await waitFor(() => {
    const s = p.sockets.instances.find((x) => !x.query.test);
    if (!s) throw new Error('no discussion socket yet');
    return s;
  });
  act(() => socket.serverOpen());
  await waitFor(() => expect(p.standard.getSnapshot().hasTag('live')).toBe(true));
  return socket;
}

const send = (socket: FakeWebSocket, frames: unknown[]) => act(() => frames.forEach((f) => socket.serverSend(f)));

describe('standard panel: words a person uses', () => {
  it("is titled 'Discussion' before Start, shows no 'disconnected' badge while idle, and says how many messages will run", async () => {
    const p = renderStandardPanel();
    await probed();
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Discussion');
    expect(p.container.querySelector('.panel-header')!.textContent).not.toMatch(/disconnected/i);
    await selectAgents(p, [AGENTS[0].id, AGENTS[1].id]);
    // One count, in the counter's word: the Format line says the messages; no second 'Plans 6 turns' line.
    expect(p.container.querySelector('.format-field__line')!.textContent).toMatch(/about \d+ messages/);
    expect(p.container.querySelector('.start-form__reason')).toBeNull();
    expect(p.container.querySelector('.start-form')!.textContent).not.toMatch(/\bturns\b/);
    // The panel's name is what runs, never the protocol's; endpoints, their probe and interrupts are in
    // 'About this run' only.
    expect(screen.getByRole('complementary').getAttribute('aria-label')).toBe('Discussion');
    expect(p.container.textContent).not.toMatch(/Enhanced Multi-Agent/);
    const about = p.container.querySelector('.about-run')!;
    const outside = p.container.textContent!.replace(about.textContent!, '');
    expect(outside).not.toMatch(/Available endpoints|interrupts/i);
    expect(about.textContent).toMatch(/Available endpoints: .*Basic/);
    expect(about.textContent).toMatch(/Interrupts/);
    // The footer counts what there is: no '0 arguments' or '0 papers' beside an empty feed.
    expect(screen.getByTestId('count-messages').textContent).toBe('0 messages');
    expect(screen.queryByTestId('count-arguments')).toBeNull();
    expect(screen.queryByTestId('count-papers')).toBeNull();
  });

  it('is titled by its topic once started', async () => {
    const p = renderStandardPanel();
    await startLive(p);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(
      'Should the vineyard switch to drip irrigation?',
    );
  });
});

describe('standard panel: start form', () => {
  it('names the format on Start, from the one label table (never the endpoint: no "Enhanced Discussion")', async () => {
    const user = userEvent.setup();
    const p = renderStandardPanel();
    await probed();
    await selectAgents(p, [AGENTS[0].id, AGENTS[1].id, AGENTS[2].id]);
    const start = () => p.container.querySelector<HTMLButtonElement>('.start-form button[type="submit"]')!;
    expect(start().textContent).toBe('Start round table');
    for (const [label, words] of [
      ['Council', 'Start council'],
      ['Debate', 'Start debate'],
      ['Moderated', 'Start moderated discussion'],
      ['Round table', 'Start round table'],
    ] as const) {
      await user.selectOptions(screen.getByLabelText('Format'), label);
      expect(start().textContent).toBe(words);
    }
    expect(p.container.textContent).not.toMatch(/Start Enhanced Discussion/);
    // The debate's line says its sides plainly (no 'For against Against'), and counts messages.
    await user.selectOptions(screen.getByLabelText('Format'), 'Debate');
    const line = p.container.querySelector('.format-field__line')!.textContent!;
    expect(line).not.toMatch(/For against Against/);
    expect(line).toMatch(/^Two sides, For and Against, argue .*: 9 messages and two votes\.$/);
  });

  it('keeps Start disabled with the first failing check until two agents are selected and a context is typed', async () => {
    const user = userEvent.setup();
    const p = renderStandardPanel();
    await screen.findByText(/^Available endpoints:/);
    expect(startButton().disabled).toBe(true);
    // With no agent selected the agent strip says it, once: not the hint and the empty feed as well.
    expect(hint(p.container)).toBe(null);
    expect(p.container.textContent!.match(/two or more agents|at least two agents/gi)).toHaveLength(1);

    await selectAgents(p, [AGENTS[0].id]);
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Participants' })).getAllByRole('listitem')).toHaveLength(1),
    );
    expect(startButton().disabled).toBe(true);
    expect(hint(p.container)).toBe(DISCUSSION_MESSAGES.selectTwoAgents);

    await selectAgents(p, [AGENTS[1].id]);
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Participants' })).getAllByRole('listitem')).toHaveLength(2),
    );
    // Nothing typed yet: the empty box is not scolded (issue 47); Start stays disabled.
    expect(hint(p.container)).toBeNull();
    expect(startButton().disabled).toBe(true);
    // Leaving the box empty is touching it: now the check is said.
    await user.click(screen.getByLabelText('Discussion context'));
    await user.tab();
    expect(hint(p.container)).toBe(DISCUSSION_MESSAGES.provideContext);

    // Whitespace is not a context.
    await user.type(screen.getByLabelText('Discussion context'), '   ');
    expect(hint(p.container)).toBe(DISCUSSION_MESSAGES.provideContext);
    expect(startButton().disabled).toBe(true);

    await user.type(screen.getByLabelText('Discussion context'), 'Drip irrigation?');
    // The token arrives with the restored session.
    await waitFor(() => expect(startButton().disabled).toBe(false));
    expect(hint(p.container)).toBeNull();
    expect(screen.queryByText(DISCUSSION_MESSAGES.mustLogIn)).toBeNull();
    expect(p.standard.getSnapshot().context.topic).toBe('   Drip irrigation?');
  });

  it("without a token says 'You must be logged in to start a discussion' and keeps Start disabled", async () => {
    const user = userEvent.setup();
    const p = renderStandardPanel({ token: null });
    expect(await screen.findByText(DISCUSSION_MESSAGES.mustLogIn)).toBeTruthy();
    await selectAgents(p, [AGENTS[0].id, AGENTS[1].id]);
    await user.type(screen.getByLabelText('Discussion context'), 'Drip irrigation?');
    await waitFor(() => expect(hint(p.container)).toBe(DISCUSSION_MESSAGES.tokenMissing));
    expect(startButton().disabled).toBe(true);
    // Ctrl+Enter in the box does not start either.
    await user.type(screen.getByLabelText('Discussion context'), '{Control>}{Enter}{/Control}');
    expect(p.standard.getSnapshot().matches({ run: 'idle' })).toBe(true);
    expect(p.sockets.instances.filter((s) => !s.query.test)).toEqual([]);
  });
});

describe('standard panel: tabs', () => {
  it('switches the four tabs by click and by arrow keys, with aria-selected and the tabpanel following', async () => {
    const user = userEvent.setup();
    const p = renderStandardPanel();
    const tabs = within(screen.getByRole('tablist', { name: 'Discussion views' })).getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Discussion', 'Reasoning Tree', 'Research', 'Analytics']);
    const selected = () =>
      screen
        .getAllByRole('tab')
        .filter((t) => t.getAttribute('aria-selected') === 'true')
        .map((t) => t.textContent);
    expect(selected()).toEqual(['Discussion']);

    for (const [name, state] of [
      ['Reasoning Tree', 'tree'],
      ['Research', 'research'],
      ['Analytics', 'analytics'],
      ['Discussion', 'discussion'],
    ] as const) {
      await user.click(screen.getByRole('tab', { name }));
      expect(selected()).toEqual([name]);
      expect(p.standard.getSnapshot().children.tabs?.getSnapshot().value).toBe(state);
      expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(screen.getByRole('tab', { name }).id);
    }

    // Keyboard: only the active tab is in the tab order; arrows move (and wrap), Home/End jump; focus follows.
    expect(screen.getAllByRole('tab').map((t) => t.tabIndex)).toEqual([0, -1, -1, -1]);
    screen.getByRole('tab', { name: 'Discussion' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(selected()).toEqual(['Reasoning Tree']);
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Reasoning Tree' }));
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(selected()).toEqual(['Analytics']);
    await user.keyboard('{ArrowRight}');
    expect(selected()).toEqual(['Discussion']);
    await user.keyboard('{ArrowLeft}');
    expect(selected()).toEqual(['Analytics']);
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Analytics' }));
    await user.keyboard('{Home}');
    expect(selected()).toEqual(['Discussion']);
    await user.keyboard('{End}');
    expect(selected()).toEqual(['Analytics']);
    expect(screen.getAllByRole('tab').map((t) => t.tabIndex)).toEqual([-1, -1, -1, 0]);
  });
});

describe('standard panel: a live discussion', () => {
  it('opens /ws/enhanced, shows arriving messages as cards, and a streamed turn grows with a caret until its final frame', async () => {
    const p = renderStandardPanel();
    const socket = await startLive(p);
    expect(socket.path).toBe('/ws/enhanced');
    expect(socket.sent[0]).toMatchObject({
      agent_ids: [AGENTS[0].id, AGENTS[1].id],
      context: 'Should the vineyard switch to drip irrigation?',
    });
    expect(screen.getByText('Live')).toBeTruthy();
    expect(screen.getByText('connected')).toBeTruthy();

    const frames = serverFrames('enhanced-default.jsonl');
    const messages = frames.filter((f) => f.type === 'agent_message') as {
      id: string;
      content: string;
      agent_name: string;
      confidence: number;
    }[];
    send(socket, frames.slice(0, frames.findIndex((f) => f === messages[1]) + 1));
    const log = screen.getByRole('log', { name: 'Discussion messages' });
    await waitFor(() => expect(within(log).getAllByRole('article').length).toBeGreaterThanOrEqual(2));
    // One bubble per turn: Ada's ACL message joined her turn (no card of its own, no protocol badge); each bubble
    // has the agent's avatar, name, role and text once, and the protocol's extras collapsed beneath it.
    const cards = within(log).getAllByRole('article');
    expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual(['Ada', 'Bo']);
    expect(cards[0].querySelector('.message-card__text')!.textContent).toBe(messages[0].content);
    expect(within(log).getAllByText(messages[0].content)).toHaveLength(1);
    expect(within(cards[0]).getByText('Agronomist')).toBeTruthy();
    expect(cards[0].querySelector('.turn__avatar')!.textContent).toBe('A');
    const details = cards[0].querySelector('details')!;
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')!.textContent).toContain(
      `${Math.round(messages[0].confidence * 100)}% sure`,
    );
    expect(log.textContent).not.toMatch(/ENHANCED|\bACL\b|query-if|ontology/i);
    expect(cards[1].querySelector('.message-card__text')!.textContent).toBe(messages[1].content);

    // A streamed turn: start, deltas (the card grows, with a typing caret), then the final frame replaces it.
    const id = 'stream-turn-1';
    send(socket, [
      {
        type: 'agent_message_start',
        id,
        agent_id: AGENTS[1].id,
        agent_name: 'Bo',
        timestamp: '2026-11-22T02:03:00.000Z',
      },
    ]);
    send(socket, [{ type: 'agent_message_delta', id, delta: 'Drip lines ' }]);
    const streaming = () => p.container.querySelector('.message-card--streaming') as HTMLElement | null;
    await waitFor(() => expect(streaming()?.textContent).toContain('Drip lines'));
    // The caret is decoration; assistive technology hears that the turn is still being written.
    expect(streaming()!.querySelector('.typing-caret')).toBeTruthy();
    expect(within(streaming()!).getByText('(still writing)')).toBeTruthy();
    send(socket, [
      { type: 'agent_message_delta', id, delta: 'save water ' },
      { type: 'agent_message_delta', id, delta: 'in August.' },
    ]);
    await waitFor(() =>
      expect(streaming()!.querySelector('.message-card__text')!.textContent).toBe('Drip lines save water in August.'),
    );
    expect(streaming()!.querySelector('.typing-caret')).toBeTruthy();
    expect(within(streaming()!).getByText('(still writing)')).toBeTruthy();
    send(socket, [
      {
        type: 'agent_message',
        id,
        agent_id: AGENTS[1].id,
        agent_name: 'Bo',
        agent_role: 'Economist',
        content: 'Drip lines save water in August; the pump needs replacing first.',
        message_type: 'enhanced',
        confidence: 0.8,
        timestamp: '2026-11-22T02:03:01.000Z',
      },
    ]);
    await waitFor(() => expect(streaming()).toBeNull());
    expect(screen.queryByText('(still writing)')).toBeNull();
    expect(within(log).getByText('Drip lines save water in August; the pump needs replacing first.')).toBeTruthy();
    // One card for the turn: the final frame replaced the streamed one.
    expect(within(log).queryByText('Drip lines save water in August.')).toBeNull();
    expect(
      within(log)
        .getAllByRole('article')
        .filter((c) => c.textContent!.includes('Drip lines')),
    ).toHaveLength(1);
  });

  it('the Reasoning Tree is a WAI-ARIA tree: arrows move focus, Left collapses, Right expands', async () => {
    const user = userEvent.setup();
    const p = renderStandardPanel();
    const socket = await startLive(p, user);
    const frames = serverFrames('multi_round_reasoning-research.jsonl');
    send(
      socket,
      frames.filter((f) => f.type !== 'discussion_ended'),
    );
    await user.click(screen.getByRole('tab', { name: /Reasoning Tree/ }));
    const tree = await screen.findByRole('tree', { name: 'Argument tree' });
    const items = () => within(tree).getAllByRole('treeitem');
    const args = frames
      .filter((f) => f.type === 'argument')
      .map((f) => f.argument as { id: string; parent_id?: string | null; content: string });
    // Every argument shows (all branches start expanded).
    expect(items()).toHaveLength(args.length);
    const root = args[0];
    const rootItem = items()[0];
    expect(rootItem.textContent).toContain(root.content);
    expect(rootItem.getAttribute('aria-level')).toBe('1');
    expect(rootItem.getAttribute('aria-expanded')).toBe('true');
    expect(items()[1].getAttribute('aria-level')).toBe('2');

    // Focus the first item, then walk with the arrows.
    // (A click on a branch toggles it, as in most trees; focus it as Tab would.)
    act(() => rootItem.focus());
    expect(rootItem.tabIndex).toBe(0);
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(document.activeElement).toBe(items()[1]));
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(document.activeElement).toBe(items()[2]));
    await user.keyboard('{ArrowUp}');
    await waitFor(() => expect(document.activeElement).toBe(items()[1]));
    await user.keyboard('{ArrowUp}');
    await waitFor(() => expect(document.activeElement).toBe(items()[0]));

    // Left collapses the focused branch: its descendants leave the tree; Right brings them back.
    await user.keyboard('{ArrowLeft}');
    await waitFor(() => expect(items()[0].getAttribute('aria-expanded')).toBe('false'));
    expect(items().length).toBeLessThan(args.length);
    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(items()[0].getAttribute('aria-expanded')).toBe('true'));
    expect(items()).toHaveLength(args.length);
  });

  it('Research lists title (linked), authors, year, the first 200 characters of the abstract, and the source', async () => {
    const user = userEvent.setup();
    const p = renderStandardPanel();
    const socket = await startLive(p, user);
    const frames = serverFrames('multi_round_reasoning-research.jsonl');
    send(
      socket,
      frames.filter((f) => f.type === 'research_result'),
    );
    await user.click(screen.getByRole('tab', { name: /Research/ }));
    const list = await screen.findByRole('list', { name: 'Research papers' });
    const papers = frames
      .filter((f) => f.type === 'research_result')
      .flatMap((f) =>
        (
          f.result as {
            source: string;
            results: { title: string; authors: string[] | string; year?: number; abstract?: string; url?: string }[];
          }
        ).results.map((r) => ({ ...r, source: (f.result as { source: string }).source })),
      );
    const rows = within(list).getAllByRole('listitem');
    expect(rows.length).toBeGreaterThan(0);
    const first = papers[0];
    const row = rows.find((r) => within(r).queryByRole('heading', { name: first.title }))!;
    expect(row).toBeTruthy();
    const link = within(row).getByRole('link', { name: first.title }) as HTMLAnchorElement;
    expect(link.href).toBe(first.url);
    expect(link.rel).toContain('noopener');
    const meta = row.querySelector('.paper__meta')!.textContent!;
    expect(meta).toContain(Array.isArray(first.authors) ? first.authors.join(', ') : first.authors);
    expect(meta).toContain(String(first.year));
    expect(row.querySelector('.paper__source')?.textContent).toBeTruthy();
    const abstract = row.querySelector('.paper__abstract')!.textContent!;
    if (first.abstract!.length > ABSTRACT_PREVIEW_CHARS) {
      expect(abstract).toBe(`${first.abstract!.slice(0, ABSTRACT_PREVIEW_CHARS)}…`);
    } else {
      expect(abstract).toBe(first.abstract);
    }
    // The counter in the footer agrees.
    expect(screen.getByTestId('count-papers').textContent).toBe(`${rows.length} papers`);
  });

  it('Analytics draws role=img charts with titles and the same figures as a data table', async () => {
    const user = userEvent.setup();
    const p = renderStandardPanel();
    const socket = await startLive(p, user);
    await user.click(screen.getByRole('tab', { name: 'Analytics' }));
    expect(screen.getByText('Nothing to measure yet')).toBeTruthy();
    expect(screen.queryAllByRole('img')).toEqual([]);
    send(
      socket,
      serverFrames('multi_round_reasoning-research.jsonl').filter((f) => f.type !== 'discussion_ended'),
    );
    const charts = await screen.findAllByRole('img');
    const names = charts.map((c) => c.querySelector('title')!.textContent!);
    expect(names.some((n) => n.startsWith('Messages by type:'))).toBe(true);
    expect(names.some((n) => n.startsWith('Contributions per agent:'))).toBe(true);
    expect(names.some((n) => n.startsWith('Average confidence per round:'))).toBe(true);
    // Accessible names come from the <title>.
    expect(screen.getByRole('img', { name: /^Contributions per agent: / })).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Contributions per agent' });
    const rows = within(table).getAllByRole('row');
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent).sort()).toEqual(['Ada', 'Bo', 'Cy']);
    // The chart's title says the same numbers as the table.
    const contributions = screen.getByRole('img', { name: /^Contributions per agent: / }).querySelector('title')!
      .textContent!;
    for (const r of rows)
      expect(contributions).toContain(
        `${within(r).getByRole('rowheader').textContent} ${within(r).getByRole('cell').textContent}`,
      );
    expect(screen.getByRole('region', { name: 'Consensus' })).toBeTruthy();
  });
});

describe('standard panel: Advanced Settings bounds', () => {
  async function setNumber(label: RegExp, text: string) {
    const input = screen.getByLabelText(label) as HTMLInputElement;
    // One change event with the whole value (typing '51' key by key would pass through the valid '5').
    fireEvent.change(input, { target: { value: text } });
    return input;
  }
  const errorOf = (input: HTMLElement) => input.parentElement!.querySelector('.field__error')?.textContent ?? null;

  it('an out-of-range number shows the field error and never reaches the machine; an in-range one does', async () => {
    const user = userEvent.setup();
    const p = renderStandardPanel();
    await user.click(screen.getByRole('button', { name: 'Advanced Settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Advanced Settings' });
    const settings = () => p.standard.getSnapshot().context.settings;
    await waitFor(() => expect(p.standard.getSnapshot().matches({ settings: 'ready' })).toBe(true));
    const before = settings();

    // Turns: 2–50.
    for (const bad of ['1', '51', '', '2.5']) {
      const turns = await setNumber(/^Turns/, bad);
      expect(turns.getAttribute('aria-invalid')).toBe('true');
      expect(errorOf(turns)).toBe('Enter a number from 2 to 50.');
      expect(settings().basic.turns).toBe(before.basic.turns);
    }
    const turns = await setNumber(/^Turns/, '12');
    expect(errorOf(turns)).toBeNull();
    expect(turns.getAttribute('aria-invalid')).toBe('false');
    expect(settings().basic.turns).toBe(12);
    expect(p.savedSettings.at(-1)!.basic.turns).toBe(12);

    // Max rounds (multi-round reasoning): 1–20, editable once multi-round is on.
    expect((screen.getByLabelText(/^Max rounds/) as HTMLInputElement).disabled).toBe(true);
    await user.click(within(dialog).getByLabelText('Enable multi-round reasoning'));
    await waitFor(() => expect((screen.getByLabelText(/^Max rounds/) as HTMLInputElement).disabled).toBe(false));
    const rounds = await setNumber(/^Max rounds/, '21');
    expect(errorOf(rounds)).toBe('Enter a number from 1 to 20.');
    expect(settings().reasoning.maxRounds).toBe(before.reasoning.maxRounds);
    await setNumber(/^Max rounds/, '20');
    expect(errorOf(screen.getByLabelText(/^Max rounds/))).toBeNull();
    expect(settings().reasoning.maxRounds).toBe(20);

    // Research max results: 1–50, editable once research is on.
    await user.click(within(dialog).getByLabelText('Enable research'));
    for (const bad of ['0', '51']) {
      const max = await setNumber(/^Max results/, bad);
      expect(errorOf(max)).toBe('Enter a number from 1 to 50.');
      expect(settings().research.maxResults).toBe(before.research.maxResults);
    }
    await setNumber(/^Max results/, '50');
    expect(settings().research.maxResults).toBe(50);

    // Nothing out of range was ever saved.
    for (const s of p.savedSettings) {
      expect(s.basic.turns).toBeGreaterThanOrEqual(2);
      expect(s.basic.turns).toBeLessThanOrEqual(50);
      expect(s.reasoning.maxRounds).toBeLessThanOrEqual(20);
      expect(s.research.maxResults).toBeGreaterThanOrEqual(1);
      expect(s.research.maxResults).toBeLessThanOrEqual(50);
    }
    // Leaving the field shows the machine's value again.
    fireEvent.change(screen.getByLabelText(/^Turns/), { target: { value: '99' } });
    fireEvent.blur(screen.getByLabelText(/^Turns/));
    expect((screen.getByLabelText(/^Turns/) as HTMLInputElement).value).toBe('12');
    expect(errorOf(screen.getByLabelText(/^Turns/))).toBeNull();
  });
});

describe('standard panel: joining in and the footer', () => {
  it('Enter sends, Shift+Enter makes a new line, an empty message cannot be sent', async () => {
    const user = userEvent.setup();
    const p = renderStandardPanel();
    const socket = await startLive(p, user);
    const box = (await screen.findByLabelText('Your message to the agents')) as HTMLTextAreaElement;
    // After Start the focus is in the message box, not on a control seven Tabs away.
    expect(document.activeElement).toBe(box);
    const sendButton = screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
    const humanFrames = () => socket.sent.filter((f) => (f as { type?: string }).type === 'human_message');
    expect(sendButton.disabled).toBe(true);

    // Empty or blank: nothing to send, by button or by Enter.
    await user.click(box);
    await user.keyboard('{Enter}');
    await user.type(box, '   ');
    expect(sendButton.disabled).toBe(true);
    await user.keyboard('{Enter}');
    expect(humanFrames()).toEqual([]);
    await user.clear(box);

    // Shift+Enter makes a new line; Enter sends the whole text.
    await user.type(box, 'First line{Shift>}{Enter}{/Shift}second line');
    expect(box.value).toBe('First line\nsecond line');
    expect(humanFrames()).toEqual([]);
    expect(sendButton.disabled).toBe(false);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(humanFrames()).toHaveLength(1));
    expect(humanFrames()[0]).toMatchObject({ type: 'human_message', text: 'First line\nsecond line' });
    expect(box.value).toBe('');
    expect(sendButton.disabled).toBe(true);
    // The message shows in the feed as the user's card.
    const mine = await screen.findByRole('article', { name: 'You' });
    expect(mine.querySelector('.message-card__text')!.textContent).toBe('First line\nsecond line');

    // The Send button sends too.
    await user.type(box, 'By button');
    await user.click(sendButton);
    await waitFor(() => expect(humanFrames()).toHaveLength(2));
  });

  it('the export buttons are disabled with no messages and enabled after; JSON saves <topic>-<date>.json', async () => {
    const user = userEvent.setup();
    const p = renderStandardPanel();
    const pdf = () => screen.getByRole('button', { name: 'PDF' }) as HTMLButtonElement;
    const json = () => screen.getByRole('button', { name: 'JSON' }) as HTMLButtonElement;
    expect(pdf().disabled).toBe(true);
    expect(json().disabled).toBe(true);
    expect(json().title).toBe(DISCUSSION_MESSAGES.nothingToExport);
    expect(screen.getByTestId('count-messages').textContent).toBe('0 messages');

    const socket = await startLive(p, user);
    // Live but still empty: nothing to export.
    expect(json().disabled).toBe(true);
    const frames = serverFrames('enhanced-default.jsonl');
    send(
      socket,
      frames.filter((f) => f.type !== 'discussion_ended'),
    );
    await waitFor(() => expect(json().disabled).toBe(false));
    expect(pdf().disabled).toBe(false);
    expect(json().title).toBe('');
    const messages = Number(screen.getByTestId('count-messages').textContent!.split(' ')[0]);
    expect(messages).toBeGreaterThan(0);

    await user.click(json());
    await waitFor(() => expect(p.saved).toHaveLength(1));
    const topic = p.standard.getSnapshot().context.run!.context;
    expect(p.saved[0].fileName).toMatch(new RegExp(`^${topicSlug(topic)}-\\d{4}-\\d{2}-\\d{2}\\.json$`));
    const doc = JSON.parse(await blobText(p.saved[0].blob));
    expect(doc.message_count).toBe(messages); // the one count, in the footer and the file

    await user.click(pdf());
    await waitFor(() => expect(p.saved).toHaveLength(2));
    expect(p.saved[1].fileName).toMatch(/\.pdf$/);

    // Stop: the client sends stop and the run ends; the messages stay exportable.
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(socket.sent.some((f) => (f as { type?: string }).type === 'stop')).toBe(true));
    await waitFor(() => expect(p.standard.getSnapshot().matches({ run: 'ended' })).toBe(true), { timeout: 3000 });
    expect(json().disabled).toBe(false);
    // The header says the run finished: never 'Idle' beside a finished discussion (issue 47).
    const facts = p.container.querySelector('.panel-header__facts')!;
    expect(within(facts as HTMLElement).getByText('Finished')).toBeTruthy();
    expect(facts.textContent).not.toMatch(/Idle/);
    // The finished run keeps the room: the start form folds into 'New discussion', which opens it again.
    expect(screen.queryByRole('button', { name: 'Start round table' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'New discussion' }));
    expect(startButton()).toBeTruthy();
  });
});
