// The hybrid panel (docs/product.md#discussions-states 'Hybrid discussion', #discussions-validation 'Hybrid start',
// #discussions-calls, #discussions-errors, #discussions-limits), run as the app runs it: under a
// parent with a real toasts actor and recording 'workspace' / 'audioQueue' stand-ins, its real actors
// (createHybridDiscussionLogic) over a fake WebSocket, on fake timers.
import { createHybridSettingsStore } from '../../src/services/panelSettingsStore';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HybridDiscussionActorRef } from '../../src/machines/discussionPanel.machine';
import {
  selectCanStop,
  selectElapsedMs,
  selectError,
  selectModes,
  selectRoundLabel,
  selectSessionId,
  selectSettings,
  selectSettingsLocked,
  selectStatusLine,
} from '../../src/machines/discussionPanel.selectors';
import { HYBRID_TEMPLATE_NAMES } from '../../src/model/hybridConfig';
import { applyFrame, emptyFeed, type FeedInput } from '../../src/model/feed';
import { selectMessages } from '../../src/model/feedSelectors';
import { toolCallState, toolCallsOf } from '../../src/model/feed';
import { DISCUSSION_MESSAGES } from '../../src/schemas/messages';
import { defaults, type HybridSettings } from '../../src/schemas/settings';
import { flush } from '../support/harness';
import { hybridPanel } from './panelHarness';

const NOW = 1_700_000_000_000;
const SESSION = `session_${NOW}`;
const AGENTS = ['agent-a', 'agent-b', 'agent-c'];
const PATH = '/ws/hybrid';
type Panel = ReturnType<typeof hybridPanel>;

async function ready(opts: Parameters<typeof hybridPanel>[0] = {}) {
  const p = hybridPanel({ now: () => NOW, ...opts });
  await flush();
  return p;
}

async function start(p: Panel, over: { agentIds?: string[]; topic?: string } = {}) {
  p.panel.send({ type: 'panel.topic.change', text: over.topic ?? ' Drip or furrow? ' });
  p.panel.send({ type: 'panel.start', agentIds: over.agentIds ?? AGENTS });
  await vi.advanceTimersByTimeAsync(0);
}

async function live(p: Panel) {
  await start(p);
  const ws = p.sockets.last(PATH);
  ws.serverOpen();
  await vi.advanceTimersByTimeAsync(0);
  return ws;
}

const error = (panel: HybridDiscussionActorRef) => selectError(panel.getSnapshot());
const run = (panel: HybridDiscussionActorRef) => panel.getSnapshot().value.run;

describe('hybrid discussion panel', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it.each([
    [{ agentIds: ['agent-a'] }, 'Please select at least 2 agents'],
    [{ agentIds: ['agent-a', 'agent-a'] }, 'Please select at least 2 agents'],
    [{ topic: '   ' }, 'Please provide a discussion topic'],
  ])('Start refuses %j with the spec message', async (over, message) => {
    const p = await ready();
    await start(p, over);
    expect(error(p.panel)).toBe(message);
    expect(run(p.panel)).toBe('idle');
    expect(p.sockets.instances).toEqual([]);
  });

  describe('the first message (docs/product.md#discussions-calls)', () => {
    const KEYS = [
      'agent_ids',
      'topic',
      'mode',
      'max_rounds',
      'max_response_length',
      'reasoning_depth',
      'evidence_required',
      'allow_research',
      'consensus_threshold',
      'session_id',
      'tts',
      'turns_per_round',
      'pause_between_turns',
      'auto_stop_on_consensus',
      'enable_cross_agent_learning',
      'response_format',
      'citation_style',
      'tts_config',
    ].sort();

    it('speech off: exactly the spec keys, the defaults of docs/product.md#discussions-limits, tts_config null; the token in the query', async () => {
      const p = await ready();
      const ws = await live(p);
      expect(ws.query.token).toBe('query-token');
      expect(ws.sent).toHaveLength(1);
      const config = ws.sent[0] as Record<string, unknown>;
      expect(Object.keys(config).sort()).toEqual(KEYS);
      expect(config).toEqual({
        agent_ids: AGENTS,
        topic: 'Drip or furrow?',
        session_id: SESSION,
        mode: 'hybrid',
        max_rounds: 10,
        max_response_length: 500,
        reasoning_depth: 3,
        evidence_required: true,
        allow_research: true,
        consensus_threshold: 0.7,
        turns_per_round: 1,
        pause_between_turns: 1000,
        auto_stop_on_consensus: true,
        enable_cross_agent_learning: false,
        response_format: 'prose',
        citation_style: 'academic',
        tts: false,
        tts_config: null,
      });
      expect(selectSessionId(p.panel.getSnapshot())).toBe(SESSION);
    });

    it("'Continue from here' (hybrid.continue): the stored run's topic and settings; the next Start alone sends continued_from", async () => {
      const p = await ready();
      const stored: HybridSettings = { ...defaults.hybrid, mode: 'structured', max_rounds: 4 };
      p.panel.send({
        type: 'panel.continue',
        topic: 'Frost nights',
        continuation: { discussionId: 'd-source', turn: 3, title: 'Frost nights' },
        settings: stored,
      });
      expect(p.panel.getSnapshot().context.topic).toBe('Frost nights');
      expect(selectSettings(p.panel.getSnapshot())).toMatchObject({ mode: 'structured', max_rounds: 4 });
      p.panel.send({ type: 'panel.start', agentIds: AGENTS });
      await vi.advanceTimersByTimeAsync(0);
      const ws = p.sockets.last(PATH);
      ws.serverOpen();
      await vi.advanceTimersByTimeAsync(0);
      const config = ws.sent[0] as Record<string, unknown>;
      expect(config).toMatchObject({
        topic: 'Frost nights',
        mode: 'structured',
        max_rounds: 4,
        continued_from: { discussion_id: 'd-source', turn: 3 },
      });
      expect(p.panel.getSnapshot().context.continuation).toBeNull();
      // While a run is on, a continuation takes the topic and the link, not the locked settings.
      p.panel.send({
        type: 'panel.continue',
        topic: 'Later',
        continuation: { discussionId: 'd-other', turn: 1, title: 'Later' },
        settings: { ...defaults.hybrid, mode: 'natural' },
      });
      expect(selectSettings(p.panel.getSnapshot()).mode).toBe('structured');
      expect(p.panel.getSnapshot().context.continuation?.discussionId).toBe('d-other');
      p.panel.send({ type: 'panel.continue.cancel' });
      expect(p.panel.getSnapshot().context.continuation).toBeNull();
    });

    it('speech on: tts_config with max_length 300 and format wav, speed and volume from the settings', async () => {
      const p = await ready();
      p.panel.send({
        type: 'panel.settings.update',
        settings: { ...defaults.hybrid, tts: true, tts_speed: 1.5, tts_volume: 0.5 },
      });
      const ws = await live(p);
      const config = ws.sent[0] as { tts: boolean; tts_config: Record<string, unknown> };
      expect(config.tts).toBe(true);
      expect(Object.keys(config.tts_config).sort()).toEqual(
        [
          'enabled',
          'speed',
          'volume',
          'streaming',
          'interrupt_enabled',
          'parallel_generation',
          'max_length',
          'format',
        ].sort(),
      );
      expect(config.tts_config).toMatchObject({
        enabled: true,
        speed: 1.5,
        volume: 0.5,
        max_length: 300,
        format: 'wav',
      });
    });
  });

  describe('tool approvals (docs/tools.md#approval)', () => {
    it('Run and Refuse send tool_approval for a call that waits, once', async () => {
      const p = await ready();
      const ws = await live(p);
      ws.serverSend({
        type: 'tool_call',
        id: 'c1',
        agent_id: 'agent-a',
        message_id: 'm1',
        tool: 'calculator',
        server: 'builtin',
        arguments: { expression: '2+2' },
        needs_approval: true,
      });
      await vi.advanceTimersByTimeAsync(0);
      p.panel.send({ type: 'panel.tool.answer', id: 'c1', approve: false });
      p.panel.send({ type: 'panel.tool.answer', id: 'c1', approve: true });
      await vi.advanceTimersByTimeAsync(0);
      expect(ws.sent.filter((f) => (f as { type?: string }).type === 'tool_approval')).toEqual([
        { type: 'tool_approval', id: 'c1', approve: false },
      ]);
      expect(toolCallsOf(p.panel.getSnapshot().context.feed, 'm1').map(toolCallState)).toEqual(['refused']);
    });
  });

  describe('sources added during a run (docs/sources.md)', () => {
    it('go out as sources_add while the socket is open; before a run nothing is sent', async () => {
      const p = await ready();
      p.panel.send({ type: 'sources.live.add', ids: ['src-early'] });
      const ws = await live(p);
      expect(ws.sent.some((f) => (f as { type?: string }).type === 'sources_add')).toBe(false);
      p.panel.send({ type: 'sources.live.add', ids: ['src-1'] });
      await vi.advanceTimersByTimeAsync(0);
      expect(ws.sent.at(-1)).toEqual({ type: 'sources_add', source_ids: ['src-1'] });
    });
  });

  describe('formats (docs/protocol.md#formats)', () => {
    it('a council sends its format with the chair; the person’s message and the floor go out on the socket', async () => {
      const p = await ready();
      p.panel.send({
        type: 'panel.settings.update',
        settings: { ...defaults.hybrid, format: { ...defaults.hybrid.format, kind: 'council', chair: 'agent-c' } },
      });
      const ws = await live(p);
      expect((ws.sent[0] as { format: unknown }).format).toEqual({ kind: 'council', chair: 'agent-c' });
      p.panel.send({ type: 'panel.human.send', text: '  @Cy what does it cost?  ' });
      expect(ws.sent.at(-1)).toMatchObject({ type: 'human_message', text: '@Cy what does it cost?' });
      expect(selectMessages(p.panel.getSnapshot().context.feed).at(-1)).toMatchObject({
        content: '@Cy what does it cost?',
      });
      p.panel.send({ type: 'panel.human.send', text: '   ' });
      expect(ws.sent).toHaveLength(2);
      p.panel.send({ type: 'panel.format.send', frame: { type: 'give_floor', agent_id: 'agent-b' } });
      expect(ws.sent.at(-1)).toEqual({ type: 'give_floor', agent_id: 'agent-b' });
    });

    it('the floor given while an agent speaks is queued in the chart until that agent’s turn; Cancel goes out', async () => {
      const p = await ready();
      p.panel.send({
        type: 'panel.settings.update',
        settings: { ...defaults.hybrid, format: { ...defaults.hybrid.format, kind: 'moderated', moderator: 'human' } },
      });
      const ws = await live(p);
      const queue = () => p.panel.getSnapshot().context.feed.floorQueue;
      ws.serverSend({
        type: 'floor',
        agent_id: 'agent-b',
        agent_name: 'Bo',
        by: 'human',
        reason: 'given the floor by you',
      });
      ws.serverSend({
        type: 'floor_queue',
        change: 'queued',
        agent_id: 'agent-c',
        agent_name: 'Cy',
        text: 'Cy speaks next.',
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(queue()).toEqual({ agentId: 'agent-c', agentName: 'Cy' });
      // Bo's turn (and its @mention's floor, were there one) leaves the queue; Cy's floor empties it.
      ws.serverSend({ type: 'text', agent_id: 'agent-b', agent_name: 'Bo', message: 'Over to @Ada.', turn: 1 });
      await vi.advanceTimersByTimeAsync(0);
      expect(queue()).toMatchObject({ agentName: 'Cy' });
      ws.serverSend({
        type: 'floor',
        agent_id: 'agent-c',
        agent_name: 'Cy',
        by: 'human',
        reason: 'given the floor by you',
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(queue()).toBeNull();

      p.panel.send({ type: 'panel.format.send', frame: { type: 'cancel_floor' } });
      expect(ws.sent.at(-1)).toEqual({ type: 'cancel_floor' });
      ws.serverSend({
        type: 'floor_queue',
        change: 'queued',
        agent_id: 'agent-a',
        agent_name: 'Ada',
        text: 'Ada speaks next.',
      });
      ws.serverSend({
        type: 'floor_queue',
        change: 'overridden',
        agent_id: null,
        text: 'Your @mention gives Bo the next turn instead of Ada.',
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(queue()).toBeNull();
      expect(selectMessages(p.panel.getSnapshot().context.feed).at(-1)).toMatchObject({
        content: 'Your @mention gives Bo the next turn instead of Ada.',
      });
    });

    it('a moderator not taking part falls back to the person (round table: the spec keys, above)', async () => {
      const p = await ready();
      p.panel.send({
        type: 'panel.settings.update',
        settings: { ...defaults.hybrid, format: { ...defaults.hybrid.format, kind: 'moderated', moderator: 'gone' } },
      });
      const ws = await live(p);
      expect((ws.sent[0] as { format: unknown }).format).toEqual({ kind: 'moderated', moderator: 'human' });
    });
  });

  it("gives up after 10 s of connecting: 'Connection timeout. Please try again.'", async () => {
    const p = await ready();
    await start(p);
    expect(selectStatusLine(p.panel.getSnapshot())).toBe('Connecting…');
    await vi.advanceTimersByTimeAsync(9_999);
    expect(error(p.panel)).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(error(p.panel)).toBe('Connection timeout. Please try again.');
    expect(run(p.panel)).toBe('failed');
  });

  it("a socket error before the open: 'Failed to establish connection', no reconnect", async () => {
    const p = await ready();
    await start(p);
    const ws = p.sockets.last(PATH);
    ws.serverError();
    ws.serverClose(1006);
    await vi.advanceTimersByTimeAsync(0);
    expect(error(p.panel)).toBe(DISCUSSION_MESSAGES.hybridEstablishFailed);
    expect(run(p.panel)).toBe('failed');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(p.sockets.on(PATH)).toHaveLength(1);
  });

  it("a socket error after the open: 'Connection error occurred. …'", async () => {
    const p = await ready();
    const ws = await live(p);
    ws.serverError();
    ws.serverClose(1011);
    await vi.advanceTimersByTimeAsync(0);
    expect(error(p.panel)).toBe(DISCUSSION_MESSAGES.hybridConnectionError);
  });

  it('Stop sends stop, clears the audio, then closes with 1000 after 500 ms', async () => {
    const p = await ready();
    const ws = await live(p);
    expect(selectCanStop(p.panel.getSnapshot())).toBe(true);
    p.panel.send({ type: 'panel.stop' });
    await vi.advanceTimersByTimeAsync(0);
    expect(ws.sent.at(-1)).toEqual({ type: 'stop' });
    expect(p.audioQueue).toContainEqual({ type: 'audio.clear' });
    expect(selectCanStop(p.panel.getSnapshot())).toBe(false);
    await vi.advanceTimersByTimeAsync(499);
    expect(ws.closedByClient).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(ws.closedByClient).toEqual({ code: 1000, reason: 'discussion over' });
    expect(run(p.panel)).toBe('ended');
    expect(error(p.panel)).toBeNull();
    expect(p.workspace).toContainEqual({ type: 'discussion.statusesReset' });
  });

  it('settings are locked while connected: updates and templates are ignored; they apply again after the end', async () => {
    const p = await ready();
    const ws = await live(p);
    expect(selectSettingsLocked(p.panel.getSnapshot())).toBe(true);
    p.panel.send({ type: 'panel.settings.update', settings: { ...defaults.hybrid, max_rounds: 20 } });
    p.panel.send({ type: 'panel.template.apply', template: 'Scientific Analysis' });
    expect(selectSettings(p.panel.getSnapshot())).toEqual(defaults.hybrid);
    ws.serverSend({ type: 'discussion_ended', reason: 'completed' });
    await vi.advanceTimersByTimeAsync(0);
    expect(run(p.panel)).toBe('ended');
    expect(selectSettingsLocked(p.panel.getSnapshot())).toBe(false);
    p.panel.send({ type: 'panel.settings.update', settings: { ...defaults.hybrid, max_rounds: 20 } });
    expect(selectSettings(p.panel.getSnapshot()).max_rounds).toBe(20);
  });

  it('out-of-range settings are refused', async () => {
    const p = await ready();
    for (const bad of [
      { max_rounds: 51 },
      { max_rounds: 0 },
      { reasoning_depth: 6 },
      { consensus_threshold: 0.4 },
      { turns_per_round: 6 },
      { pause_between_turns: 5001 },
      { tts_speed: 3 },
    ]) {
      p.panel.send({ type: 'panel.settings.update', settings: { ...defaults.hybrid, ...bad } as HybridSettings });
      expect(selectSettings(p.panel.getSnapshot())).toEqual(defaults.hybrid);
    }
  });

  describe('templates (docs/product.md#discussions-limits)', () => {
    const SPEC: Record<string, Partial<HybridSettings>> = {
      'Problem Solving': { max_rounds: 15, turns_per_round: 2 },
      'Creative Brainstorming': { response_format: 'bullet', max_response_length: 300 },
      'Scientific Analysis': { reasoning_depth: 5 },
      'Strategic Planning': { reasoning_depth: 4 },
    };
    it('there are four', () => expect([...HYBRID_TEMPLATE_NAMES].sort()).toEqual(Object.keys(SPEC).sort()));
    it.each(Object.entries(SPEC))(
      '%s sets the spec values and offers a topic when the box is empty',
      async (name, values) => {
        const p = await ready();
        p.panel.send({ type: 'panel.template.apply', template: name as never });
        expect(selectSettings(p.panel.getSnapshot())).toMatchObject(values);
        expect(p.panel.getSnapshot().context.topic.length).toBeGreaterThan(0);
        // A topic the user wrote is kept.
        const q = await ready();
        q.panel.send({ type: 'panel.topic.change', text: 'mine' });
        q.panel.send({ type: 'panel.template.apply', template: name as never });
        expect(q.panel.getSnapshot().context.topic).toBe('mine');
      },
    );
  });

  it('audio_message (speech on): enqueued with replyTo; speaking/idle relayed; a completed clip acknowledged', async () => {
    const p = await ready();
    p.panel.send({ type: 'panel.settings.update', settings: { ...defaults.hybrid, tts: true } });
    const ws = await live(p);
    ws.serverSend({
      type: 'audio_message',
      agent_id: 'agent-a',
      agent_name: 'Ada',
      audio_url: '/media/tts/x.wav',
      audio_id: 'x1',
      message_timestamp: 't',
    });
    await vi.advanceTimersByTimeAsync(0);
    const enqueue = p.audioQueue.find((e) => e.type === 'audio.enqueue')!;
    expect(enqueue).toMatchObject({
      item: { audioId: 'x1', url: '/media/tts/x.wav', agentId: 'agent-a', requiresAck: true },
    });
    expect(enqueue.replyTo).toBe(p.panel);
    p.panel.send({ type: 'audio.started', item: enqueue.item });
    p.panel.send({ type: 'audio.finished', item: enqueue.item, status: 'completed' });
    await vi.advanceTimersByTimeAsync(0);
    expect(p.workspace.filter((e) => e.type === 'discussion.agentStatus').map((e) => e.status)).toEqual([
      'speaking',
      'idle',
    ]);
    const ack = ws.sent.at(-1) as Record<string, unknown>;
    expect(Object.keys(ack).sort()).toEqual(['audio_id', 'status', 'timestamp', 'type']);
    expect(ack).toMatchObject({ type: 'audio_acknowledgment', audio_id: 'x1', status: 'played' });
    expect(Number.isNaN(Date.parse(ack.timestamp as string))).toBe(false);
  });

  it('tts_error is a system item in the feed; error is the banner; agent_status goes to the workspace', async () => {
    const p = await ready();
    const ws = await live(p);
    ws.serverSend({ type: 'tts_error', agent_name: 'Ada', error: 'No speech engine configured' });
    ws.serverSend({ type: 'agent_status', agent_id: 'agent-b', status: 'thinking' });
    ws.serverSend({ type: 'error', message: 'Bo could not answer' });
    await vi.advanceTimersByTimeAsync(0);
    expect(selectMessages(p.panel.getSnapshot().context.feed).map((m) => [m.kind, m.content])).toContainEqual([
      'system',
      'No speech engine configured',
    ]);
    expect(error(p.panel)).toBe('Bo could not answer');
    expect(p.workspace).toContainEqual({ type: 'discussion.agentStatus', agentId: 'agent-b', status: 'thinking' });
    p.panel.send({ type: 'panel.error.dismiss' });
    expect(error(p.panel)).toBeNull();
    expect(run(p.panel)).toEqual({ session: 'live' });
  });

  it.each([1006, 1001, 1012])('%i reconnects with the same session_id and configuration', async (code) => {
    const p = await ready();
    const first = await live(p);
    first.serverClose(code);
    await vi.advanceTimersByTimeAsync(0);
    expect(error(p.panel)).toBe('Connection lost (attempt 1/3). Reconnecting...');
    expect(selectStatusLine(p.panel.getSnapshot())).toBe('Reconnecting…');
    await vi.advanceTimersByTimeAsync(2_000);
    const second = p.sockets.last(PATH);
    expect(second).not.toBe(first);
    second.serverOpen();
    await vi.advanceTimersByTimeAsync(0);
    expect(second.sent).toEqual([first.sent[0]]);
    expect((second.sent[0] as { session_id: string }).session_id).toBe(SESSION);
    expect(error(p.panel)).toBeNull();
    expect(run(p.panel)).toEqual({ session: 'live' });
  });

  it("1013 (a limit) shows the server's sentence as it is and does not reconnect", async () => {
    const p = await ready();
    const ws = await live(p);
    ws.serverClose(1013, 'At most 12 agents may take part in one discussion; 13 were chosen.');
    await vi.advanceTimersByTimeAsync(0);
    expect(error(p.panel)).toBe('At most 12 agents may take part in one discussion; 13 were chosen.');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(p.sockets.on(PATH)).toHaveLength(1);
  });

  it('1006 three times over: each refused reconnect reported, then the connection is lost', async () => {
    const p = await ready();
    const first = await live(p);
    first.serverClose(1006);
    await vi.advanceTimersByTimeAsync(0);
    for (const attempt of [1, 2, 3]) {
      expect(error(p.panel)).toBe(`Connection lost (attempt ${attempt}/3). Reconnecting...`);
      await vi.advanceTimersByTimeAsync(2_000 * attempt);
      const retry = p.sockets.last(PATH);
      retry.serverError();
      retry.serverClose(1006);
      await vi.advanceTimersByTimeAsync(0);
    }
    expect(p.sockets.on(PATH)).toHaveLength(4);
    expect(error(p.panel)).toBe('Connection lost to Hybrid NLP/ACL. Please check server availability.');
    expect(run(p.panel)).toBe('failed');
  });

  it('counts rounds from round_start / round_end (selectRoundLabel)', async () => {
    const p = await ready();
    const ws = await live(p);
    expect(selectRoundLabel(p.panel.getSnapshot())).toBe('Round 0/10');
    ws.serverSend({ type: 'round_start', round: 1 });
    await vi.advanceTimersByTimeAsync(0);
    expect(selectRoundLabel(p.panel.getSnapshot())).toBe('Round 1/10');
    expect(selectStatusLine(p.panel.getSnapshot())).toBe('Connected · round 1 in progress');
    ws.serverSend({ type: 'round_end', round: 1 });
    ws.serverSend({ type: 'round_start', round: 2 });
    await vi.advanceTimersByTimeAsync(0);
    expect(selectRoundLabel(p.panel.getSnapshot())).toBe('Round 2/10');
  });

  it('names no rounds for a council or a debate (their stages are in the settings line)', async () => {
    const p = await ready();
    for (const kind of ['council', 'debate'] as const) {
      p.panel.send({
        type: 'panel.settings.update',
        settings: { ...defaults.hybrid, format: { ...defaults.hybrid.format, kind } },
      });
      expect(selectRoundLabel(p.panel.getSnapshot())).toBe('');
    }
    p.panel.send({ type: 'panel.settings.update', settings: defaults.hybrid });
    expect(selectRoundLabel(p.panel.getSnapshot())).toBe('Round 0/10');
  });

  it('discussion_ended ends the run; a fatal error closes it', async () => {
    const p = await ready();
    const ws = await live(p);
    ws.serverSend({ type: 'error', message: 'Invalid discussion configuration: x', fatal: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(ws.closedByClient?.code).toBe(1000);
    await vi.advanceTimersByTimeAsync(0);
    expect(run(p.panel)).toBe('ended');
    expect(error(p.panel)).toBe('Invalid discussion configuration: x');
  });

  it('works without the modes list when it cannot load: the picker falls back to the modes by name', async () => {
    const p = await ready();
    expect(selectModes(p.panel.getSnapshot())).toEqual([]);
    expect(p.panel.getSnapshot().hasTag('idle')).toBe(true);
    const ws = await live(p);
    ws.serverSend({ type: 'agent_message', id: 'm1', agent_id: 'agent-a', agent_name: 'Ada', content: 'Hello' });
    await vi.advanceTimersByTimeAsync(0);
    expect(p.panel.getSnapshot().hasTag('live')).toBe(true);
  });

  it('loads the modes list; export with no messages toasts, with messages saves <topic>-<date>.pdf', async () => {
    const p = await ready({ modes: [{ id: 'hybrid', name: 'Hybrid', description: 'mix', best_for: ['most'] }] });
    expect(selectModes(p.panel.getSnapshot()).map((m) => m.id)).toEqual(['hybrid']);
    p.panel.send({ type: 'panel.export' });
    expect(p.toastTexts()).toEqual(['error: No discussion to export.']);
    const ws = await live(p);
    ws.serverSend({ type: 'agent_message', id: 'm1', agent_id: 'agent-a', agent_name: 'Ada', content: 'Hello' });
    await vi.advanceTimersByTimeAsync(0);
    p.panel.send({ type: 'panel.export' });
    await flush();
    expect(p.files.map((f) => f.name)).toEqual([expect.stringMatching(/^drip-or-furrow-\d{4}-\d{2}-\d{2}\.pdf$/)]);
    // Export JSON: the same grouping as a JSON document, with the hybrid settings beside it.
    p.panel.send({ type: 'panel.export', format: 'json' });
    await flush();
    expect(p.files.map((f) => f.name.replace(/\d{4}-\d{2}-\d{2}/, 'DAY'))).toEqual([
      'drip-or-furrow-DAY.pdf',
      'drip-or-furrow-DAY.json',
    ]);
    const doc = JSON.parse(await p.files[1].blob.text());
    expect(doc).toMatchObject({ mode: 'hybrid', hybrid_settings: { max_rounds: defaults.hybrid.max_rounds } });
    expect(JSON.stringify(doc)).toContain('Hello');
    // Who took part, with the model by name and the one colour (an agent the server no longer has is left out).
    expect(doc.participants).toEqual([
      { id: 'agent-a', name: 'Name agent-a', role: 'Tester', model: 'demo model', color: '#065f46' },
      { id: 'agent-c', name: 'Name agent-c', role: 'Tester', model: 'demo model', color: '#065f46' },
    ]);
  });

  it('re-attach from History (hybrid.resume): same session, resume_from, its settings shown and locked, the replayed feed kept, speech only for what is new', async () => {
    const p = await ready();
    const replayed = applyFrame(emptyFeed, {
      type: 'agent_message',
      id: 'm1',
      agent_id: 'agent-a',
      agent_name: 'Ada',
      content: 'Earlier',
      message_type: 'statement',
      timestamp: 't0',
    } as FeedInput);
    const settings: HybridSettings = { ...defaults.hybrid, mode: 'structured', max_rounds: 7, tts: true };
    p.panel.send({
      type: 'panel.resume',
      sessionId: 'session_42',
      agentIds: ['agent-a', 'agent-b'],
      topic: 'Frost',
      settings,
      feed: replayed,
      resumeFrom: 9,
    });
    await vi.advanceTimersByTimeAsync(0);
    const ws = p.sockets.last(PATH);
    ws.serverOpen();
    await vi.advanceTimersByTimeAsync(0);
    expect(ws.sent[0]).toMatchObject({
      session_id: 'session_42',
      topic: 'Frost',
      agent_ids: ['agent-a', 'agent-b'],
      mode: 'structured',
      max_rounds: 7,
      tts: true,
      resume_from: 9,
    });
    expect(selectSessionId(p.panel.getSnapshot())).toBe('session_42');
    expect(selectSettings(p.panel.getSnapshot())).toEqual(settings);
    expect(selectSettingsLocked(p.panel.getSnapshot())).toBe(true);
    expect(selectMessages(p.panel.getSnapshot().context.feed).map((m) => m.id)).toEqual(['m1']);
    ws.serverSend({
      type: 'audio_message',
      agent_id: 'agent-b',
      agent_name: 'Bo',
      audio_url: '/media/tts/y.wav',
      audio_id: 'y1',
      message_timestamp: 't',
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(p.audioQueue.filter((e) => e.type === 'audio.enqueue').map((e) => e.item.audioId)).toEqual(['y1']);
  });

  it('hybrid.resume needs a session and two agents', async () => {
    const p = await ready();
    p.panel.send({
      type: 'panel.resume',
      sessionId: '',
      agentIds: ['agent-a', 'agent-b'],
      topic: 'Frost',
      settings: defaults.hybrid,
      feed: emptyFeed,
      resumeFrom: 0,
    });
    p.panel.send({
      type: 'panel.resume',
      sessionId: 's',
      agentIds: ['agent-a'],
      topic: 'Frost',
      settings: defaults.hybrid,
      feed: emptyFeed,
      resumeFrom: 0,
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(run(p.panel)).toBe('idle');
    expect(p.sockets.instances).toEqual([]);
  });

  it('the header duration comes from the run clock: it counts whole seconds while running and stops with the run', async () => {
    vi.setSystemTime(NOW);
    const p = await ready();
    const ws = await live(p);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(selectElapsedMs(p.panel.getSnapshot())).toBe(3_000);
    ws.serverSend({ type: 'discussion_ended', reason: 'completed' });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(run(p.panel)).toBe('ended');
    const atEnd = selectElapsedMs(p.panel.getSnapshot());
    await vi.advanceTimersByTimeAsync(5_000);
    expect(selectElapsedMs(p.panel.getSnapshot())).toBe(atEnd);
  });

  it('keeps the hybrid settings per user across a reload (saved on each change, restored when the panel starts)', async () => {
    const storage = new Map<string, string>();
    const store = createHybridSettingsStore(() => 'user-1', {
      getItem: (k) => storage.get(k) ?? null,
      setItem: (k, v) => void storage.set(k, v),
    });
    const first = await ready({ settings: store });
    first.panel.send({
      type: 'panel.settings.update',
      settings: { ...defaults.hybrid, max_rounds: 7, mode: 'structured' },
    });
    first.panel.send({ type: 'panel.template.apply', template: 'Problem Solving' });
    const saved = first.panel.getSnapshot().context.settings;
    expect(JSON.parse(storage.get('agora.hybridPanel.settings.user-1')!)).toEqual(saved);
    // 'A reload': a new panel over the same storage starts with them.
    const second = await ready({ settings: store });
    expect(second.panel.getSnapshot().context.settings).toEqual(saved);
    // Another user on the same browser keeps the defaults; a hand-edited entry falls back to them.
    const other = await ready({
      settings: createHybridSettingsStore(() => 'user-2', {
        getItem: (k) => storage.get(k) ?? null,
        setItem: () => {},
      }),
    });
    expect(other.panel.getSnapshot().context.settings).toEqual(defaults.hybrid);
    storage.set('agora.hybridPanel.settings.user-1', '{"max_rounds": "lots"}');
    expect((await ready({ settings: store })).panel.getSnapshot().context.settings).toEqual(defaults.hybrid);
  });
});
