// The standard panel (docs/product.md#discussions-states, #discussions-validation, #discussions-calls,
// #discussions-errors, #discussions-limits), run as the app runs it: under a parent with a real toasts actor
// and recording 'workspace' / 'audioQueue' stand-ins, its real actors (createStandardDiscussionLogic) over a fake
// WebSocket, a fake probe, fake agents, settings store and file saver, on fake timers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  selectCanSendHuman,
  selectConnectionStatus,
  selectEndpointName,
  selectError,
  selectFeedCounts,
  selectIsLive,
  selectIsReconnecting,
  selectParticipants,
  selectSessionId,
  selectSettings,
} from '../../src/machines/discussionPanel.selectors';
import type { StandardDiscussionActorRef } from '../../src/machines/discussionPanel.machine';
import { selectMessages } from '../../src/model/feedSelectors';
import { toolCallState, toolCallsOf } from '../../src/model/feed';
import { ENDPOINTS, type EndpointKey } from '../../src/schemas/constants';
import { DISCUSSION_MESSAGES } from '../../src/schemas/messages';
import { defaults, type StandardPanelSettings } from '../../src/schemas/settings';
import { flush } from '../support/harness';
import type { FakeWebSocket } from '../support/fakeWebSocket';
import { standardPanel } from './panelHarness';

const NOW = 1_700_000_000_000;
const SESSION = `session_${NOW}`;
const AGENTS = ['agent-a', 'agent-b'];

/**
 * Settings that lead to each endpoint when all four are available (docs/product.md#discussions-states 'Endpoint
 * choice').
 */
const base = defaults.standardPanel;
const forEndpoint: Record<EndpointKey, StandardPanelSettings> = {
  basic: { ...base, communication: { ...base.communication, enableInterrupts: false } },
  enhanced: base, // interrupts are on by default
  multi_round: { ...base, reasoning: { ...base.reasoning, enableMultiRound: true } },
  hybrid: {
    ...base,
    communication: { ...base.communication, enableInterrupts: false },
    research: { ...base.research, enableResearch: true },
  },
};
const withBasic = (s: StandardPanelSettings, over: Partial<StandardPanelSettings['basic']>) => ({
  ...s,
  basic: { ...s.basic, ...over },
});

type Panel = ReturnType<typeof standardPanel>;

async function ready(opts: Parameters<typeof standardPanel>[0] = {}) {
  const p = standardPanel({ saved: forEndpoint.basic, now: () => NOW, ...opts });
  await flush();
  await vi.advanceTimersByTimeAsync(0);
  return p;
}

async function start(p: Panel, over: { agentIds?: string[]; context?: string } = {}) {
  p.panel.send({ type: 'panel.topic.change', text: over.context ?? '  Drip or furrow irrigation?  ' });
  p.panel.send({
    type: 'panel.start',
    agentIds: over.agentIds ?? AGENTS,
    connections: [{ source: 'agent-a', target: 'agent-b' }],
  });
  await flush();
  await vi.advanceTimersByTimeAsync(0);
}

/** Starts, opens the socket from the server side and returns it. */
async function live(p: Panel, endpoint: EndpointKey = 'basic') {
  await start(p);
  const ws = p.sockets.last(ENDPOINTS[endpoint].path);
  expect(ws, `a socket on ${ENDPOINTS[endpoint].path}`).toBeDefined();
  ws.serverOpen();
  await vi.advanceTimersByTimeAsync(0);
  return ws;
}

const status = (panel: StandardDiscussionActorRef) => selectConnectionStatus(panel.getSnapshot());
const error = (panel: StandardDiscussionActorRef) => selectError(panel.getSnapshot());
const types = (ws: FakeWebSocket) => ws.sent.map((f) => (f as { type?: string }).type ?? 'config');

describe('standard discussion panel', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  describe('Start (docs/product.md#discussions-validation)', () => {
    it.each([
      [{ agentIds: ['agent-a'] }, DISCUSSION_MESSAGES.selectTwoAgents],
      [{ agentIds: ['agent-a', 'agent-a'] }, DISCUSSION_MESSAGES.selectTwoAgents],
      [{ context: '   \n ' }, DISCUSSION_MESSAGES.provideContext],
      [{ token: null }, DISCUSSION_MESSAGES.tokenMissing],
    ])('refuses %j with the spec message and opens nothing', async (over, message) => {
      // No token: the panel started while nobody was signed in.
      const { token, ...rest } = over as { token?: null; agentIds?: string[]; context?: string };
      const p = await ready(token === null ? { token } : {});
      await start(p, rest);
      expect(error(p.panel)).toBe(message);
      expect(p.panel.getSnapshot().matches({ run: 'idle' })).toBe(true);
      expect(status(p.panel)).toBe('disconnected');
      expect(p.sockets.instances.filter((s) => !s.query.test)).toEqual([]);
      expect(p.panel.getSnapshot().can({ type: 'panel.start', agentIds: AGENTS, connections: [] })).toBe(true);
    });

    it('checks in the spec order: agents first, then context, then token', async () => {
      const p = await ready({ token: null });
      await start(p, { agentIds: [], context: '' });
      expect(error(p.panel)).toBe(DISCUSSION_MESSAGES.selectTwoAgents);
      await start(p, { context: '' });
      expect(error(p.panel)).toBe(DISCUSSION_MESSAGES.provideContext);
    });

    it("names the session 'session_' + the timestamp and loads each agent's details (fallback on failure)", async () => {
      const p = await ready({ failingAgents: ['agent-b'] });
      await start(p);
      expect(selectSessionId(p.panel.getSnapshot())).toBe(SESSION);
      expect(p.agentCalls).toEqual(AGENTS);
      expect(selectParticipants(p.panel.getSnapshot())).toEqual([
        { id: 'agent-a', name: 'Name agent-a', role: 'Tester' },
        { id: 'agent-b', name: 'Agent agent-b', role: 'Unknown' },
      ]);
    });
  });

  describe('the configuration message (docs/product.md#discussions-calls)', () => {
    const COMMON = ['token', 'agent_ids', 'session_id'];
    const CONFIGS = ['communication_config', 'reasoning_config', 'research_config'];
    const expected: Record<EndpointKey, string[]> = {
      basic: [...COMMON, 'context', 'tts', 'turns', 'mode', 'connections', ...CONFIGS, 'legacy_config'],
      multi_round: [...COMMON, 'context', ...CONFIGS],
      enhanced: [...COMMON, 'context', ...CONFIGS, 'legacy_config'],
      hybrid: [
        ...COMMON,
        'topic',
        'mode',
        'tts',
        'max_rounds',
        'max_response_length',
        'reasoning_depth',
        'evidence_required',
        'allow_research',
        'consensus_threshold',
      ],
    };

    it.each(Object.keys(expected) as EndpointKey[])(
      '%s: exactly one message on open, with exactly the fields of its endpoint',
      async (endpoint) => {
        const p = await ready({ saved: forEndpoint[endpoint] });
        const ws = await live(p, endpoint);
        expect(selectEndpointName(p.panel.getSnapshot())).toBe(ENDPOINTS[endpoint].name);
        expect(ws.query.token).toBe('query-token');
        expect(ws.sent).toHaveLength(1);
        const config = ws.sent[0] as Record<string, unknown>;
        expect(Object.keys(config).sort()).toEqual([...expected[endpoint]].sort());
        expect(config).toMatchObject({ token: 'tok-1', agent_ids: AGENTS, session_id: SESSION });
        if (endpoint === 'basic') {
          expect(config).toMatchObject({
            context: 'Drip or furrow irrigation?',
            tts: false,
            turns: 6,
            mode: 'sequential',
            connections: [{ source: 'agent-a', target: 'agent-b' }],
          });
          expect(config.legacy_config).toEqual({ human_participation: true });
        }
        if (endpoint === 'enhanced')
          expect(Object.keys(config.legacy_config as object).sort()).toEqual([
            'human_participation',
            'mode',
            'tts',
            'turns',
          ]);
        if (endpoint === 'hybrid') {
          expect(config).toMatchObject({
            topic: 'Drip or furrow irrigation?',
            mode: 'hybrid',
            max_rounds: 10,
            reasoning_depth: 3,
            consensus_threshold: 0.7,
            allow_research: true,
          });
        }
        if (endpoint !== 'hybrid') expect(config.communication_config).toEqual(forEndpoint[endpoint].communication);
      },
    );

    it('skips an endpoint probed unavailable, and uses Basic when nothing is confirmed', async () => {
      const p = await ready({ saved: forEndpoint.multi_round, available: ['basic', 'enhanced'] });
      expect(p.probed.sort()).toEqual(
        Object.values(ENDPOINTS)
          .map((e) => e.path)
          .sort(),
      );
      await live(p, 'enhanced');
      const q = await ready({ saved: forEndpoint.multi_round, available: [] });
      await live(q, 'basic');
    });

    it('the Reasoning tab steers the choice to Hybrid', async () => {
      const p = await ready();
      p.panel.send({ type: 'panel.tab.select', tab: 'tree' });
      await live(p, 'hybrid');
      const q = await ready();
      q.panel.send({ type: 'panel.tab.select', tab: 'analytics' });
      await live(q, 'basic');
    });
  });

  describe('statuses and time-outs', () => {
    it('disconnected → connecting → connected → disconnected on a normal close', async () => {
      const p = await ready();
      expect(status(p.panel)).toBe('disconnected');
      await start(p);
      expect(status(p.panel)).toBe('connecting');
      p.sockets.last('/ws/discuss').serverOpen();
      await vi.advanceTimersByTimeAsync(0);
      expect(status(p.panel)).toBe('connected');
      expect(selectIsLive(p.panel.getSnapshot())).toBe(true);
      p.sockets.last('/ws/discuss').serverClose(1000, 'Discussion ended');
      await vi.advanceTimersByTimeAsync(0);
      expect(status(p.panel)).toBe('disconnected');
      expect(error(p.panel)).toBeNull();
      expect(p.panel.getSnapshot().matches({ run: 'ended' })).toBe(true);
    });

    it('gives up after 10 s of connecting with the time-out message (status error)', async () => {
      const p = await ready();
      await start(p);
      await vi.advanceTimersByTimeAsync(9_999);
      expect(status(p.panel)).toBe('connecting');
      await vi.advanceTimersByTimeAsync(1);
      expect(status(p.panel)).toBe('error');
      expect(error(p.panel)).toBe('Connection timeout to Basic. Please check if the server is running.');
      expect(p.sockets.on('/ws/discuss')).toHaveLength(1);
    });
  });

  describe('close codes (docs/product.md#discussions-errors)', () => {
    it.each([1008, 1002])('%i → the authentication message', async (code) => {
      const p = await ready();
      const ws = await live(p);
      ws.serverClose(code, 'Authentication failed');
      await vi.advanceTimersByTimeAsync(0);
      expect(error(p.panel)).toBe('Authentication failed. Please refresh and login again.');
      expect(status(p.panel)).toBe('error');
      await vi.advanceTimersByTimeAsync(60_000);
      expect(p.sockets.on('/ws/discuss')).toHaveLength(1);
    });

    it('1008 before the socket ever opened (a bad token) → the authentication message, no reconnect', async () => {
      const p = await ready();
      await start(p);
      p.sockets.last('/ws/discuss').serverClose(1008, 'Authentication failed');
      await vi.advanceTimersByTimeAsync(0);
      expect(error(p.panel)).toBe(DISCUSSION_MESSAGES.authFailed);
      expect(status(p.panel)).toBe('error');
    });

    it.each([
      [
        1003,
        'Invalid discussion configuration: bad',
        'Connection closed unexpectedly (code: 1003). Invalid discussion configuration: bad',
      ],
      [1011, '', 'Connection closed unexpectedly (code: 1011).'],
      [4000, 'custom', 'Connection closed unexpectedly (code: 4000). custom'],
    ])('%i → closed unexpectedly, with the reason', async (code, reason, message) => {
      const p = await ready();
      const ws = await live(p);
      ws.serverClose(code, reason);
      await vi.advanceTimersByTimeAsync(0);
      expect(error(p.panel)).toBe(message);
      expect(status(p.panel)).toBe('error');
    });

    it('1000 is quiet', async () => {
      const p = await ready();
      const ws = await live(p);
      ws.serverClose(1000, 'bye');
      await vi.advanceTimersByTimeAsync(0);
      expect(error(p.panel)).toBeNull();
      expect(status(p.panel)).toBe('disconnected');
    });

    it("1013 (a limit) shows the server's sentence as it is, never the authentication message", async () => {
      const p = await ready();
      const ws = await live(p);
      const sentence = 'You already have 5 discussions running. Stop one or wait for one to end, then try again.';
      ws.serverClose(1013, sentence);
      await vi.advanceTimersByTimeAsync(0);
      expect(error(p.panel)).toBe(sentence);
      expect(status(p.panel)).toBe('error');
      await vi.advanceTimersByTimeAsync(60_000);
      expect(p.sockets.on('/ws/discuss')).toHaveLength(1);
    });

    it.each([1001, 1012])(
      '%i while running (server going away, hand-over): re-attaches with the same configuration',
      async (code) => {
        const p = await ready();
        const first = await live(p);
        first.serverClose(code, code === 1012 ? 'Discussion handed over; reconnect' : 'Server shutting down');
        await vi.advanceTimersByTimeAsync(0);
        expect(selectIsReconnecting(p.panel.getSnapshot())).toBe(true);
        await vi.advanceTimersByTimeAsync(2_000);
        expect(p.sockets.on('/ws/discuss')).toHaveLength(2);
        const again = p.sockets.last('/ws/discuss');
        again.serverOpen();
        await vi.advanceTimersByTimeAsync(0);
        expect(again.sent[0]).toEqual(first.sent[0]);
        expect(status(p.panel)).toBe('connected');
        expect(error(p.panel)).toBeNull();
      },
    );

    it('1006 while running: 3 reconnects at 2 s × attempt with the same session_id and configuration, then gives up', async () => {
      const p = await ready();
      const first = await live(p);
      const config = first.sent[0];
      first.serverClose(1006);
      await vi.advanceTimersByTimeAsync(0);
      for (const attempt of [1, 2, 3]) {
        expect(error(p.panel)).toBe(`Connection lost (attempt ${attempt}/3). Reconnecting...`);
        expect(selectIsReconnecting(p.panel.getSnapshot())).toBe(true);
        expect(status(p.panel)).toBe('connecting');
        await vi.advanceTimersByTimeAsync(2_000 * attempt - 1);
        expect(p.sockets.on('/ws/discuss')).toHaveLength(attempt);
        await vi.advanceTimersByTimeAsync(1);
        expect(p.sockets.on('/ws/discuss')).toHaveLength(attempt + 1);
        // The browser reports a refused connection as an error, then a 1006 close.
        const retry = p.sockets.last('/ws/discuss');
        retry.serverError();
        retry.serverClose(1006);
        await vi.advanceTimersByTimeAsync(0);
      }
      expect(error(p.panel)).toBe('Connection lost to Basic. Please check server availability.');
      expect(status(p.panel)).toBe('error');
      expect(config).toMatchObject({ session_id: SESSION });
      await vi.advanceTimersByTimeAsync(60_000);
      expect(p.sockets.on('/ws/discuss')).toHaveLength(4);
    });

    it('1006 then a successful reconnect: the same configuration again, the banner cleared, a later normal end is quiet', async () => {
      const p = await ready();
      const first = await live(p);
      first.serverSend({ type: 'text', id: 'm1', from_id: 'agent-a', from: 'Ada', text: 'One', turn: 1 });
      first.serverError(); // a drop can be reported as an error first
      first.serverClose(1006);
      await vi.advanceTimersByTimeAsync(2_000);
      const second = p.sockets.last('/ws/discuss');
      expect(second).not.toBe(first);
      second.serverOpen();
      await vi.advanceTimersByTimeAsync(0);
      expect(second.sent).toEqual([first.sent[0]]);
      expect((second.sent[0] as { session_id: string }).session_id).toBe(SESSION);
      expect(error(p.panel)).toBeNull();
      expect(status(p.panel)).toBe('connected');
      // The resume replays what was missed: the same frame does not show twice.
      second.serverSend({ type: 'text', id: 'm1', from_id: 'agent-a', from: 'Ada', text: 'One', turn: 1 });
      second.serverSend({ type: 'text', id: 'm2', from_id: 'agent-b', from: 'Bo', text: 'Two', turn: 2 });
      second.serverClose(1000, 'Discussion ended');
      await vi.advanceTimersByTimeAsync(0);
      expect(selectMessages(p.panel.getSnapshot().context.feed).map((m) => m.id)).toEqual(['m1', 'm2']);
      expect(error(p.panel)).toBeNull();
      expect(status(p.panel)).toBe('disconnected');
    });
  });

  describe('socket errors (docs/product.md#discussions-errors)', () => {
    it('before the socket opened: cannot connect, with the endpoints available; no reconnect', async () => {
      const p = await ready({ available: ['basic', 'hybrid'] });
      await start(p);
      const ws = p.sockets.last('/ws/discuss');
      ws.serverError();
      ws.serverClose(1006);
      await vi.advanceTimersByTimeAsync(0);
      expect(error(p.panel)).toBe(
        'Cannot connect to Basic. Endpoint may not be available. Available endpoints: Basic, Hybrid NLP/ACL',
      );
      expect(status(p.panel)).toBe('error');
      await vi.advanceTimersByTimeAsync(60_000);
      expect(p.sockets.on('/ws/discuss')).toHaveLength(1);
    });

    it('after the socket opened: the network message', async () => {
      const p = await ready();
      const ws = await live(p);
      ws.serverError();
      ws.serverClose(1011);
      await vi.advanceTimersByTimeAsync(0);
      expect(error(p.panel)).toBe('Connection error. Please check your network and try again.');
      expect(status(p.panel)).toBe('error');
    });
  });

  describe('server frames', () => {
    it('an error frame is shown as it is and the discussion goes on', async () => {
      const p = await ready();
      const ws = await live(p);
      ws.serverSend({ type: 'error', message: 'Bo could not answer: the model is not reachable' });
      await vi.advanceTimersByTimeAsync(0);
      expect(error(p.panel)).toBe('Bo could not answer: the model is not reachable');
      expect(status(p.panel)).toBe('connected');
      expect(ws.closedByClient).toBeNull();
    });

    it.each(['Authentication failed for this session', 'Your token has expired'])(
      'an error mentioning Authentication/token (%s) stops the session',
      async (message) => {
        const p = await ready();
        const ws = await live(p);
        ws.serverSend({ type: 'error', message });
        await vi.advanceTimersByTimeAsync(0);
        expect(error(p.panel)).toBe(message);
        expect(ws.closedByClient).toEqual({ code: 1000, reason: 'discussion over' });
        expect(p.panel.getSnapshot().matches({ run: 'ended' })).toBe(true);
        expect(error(p.panel)).toBe(message);
      },
    );

    it('discussion_ended ends the run and closes the socket normally', async () => {
      const p = await ready();
      const ws = await live(p);
      ws.serverSend({ type: 'discussion_ended', reason: 'completed' });
      await vi.advanceTimersByTimeAsync(0);
      expect(ws.closedByClient?.code).toBe(1000);
      expect(p.panel.getSnapshot().matches({ run: 'ended' })).toBe(true);
      expect(status(p.panel)).toBe('disconnected');
      expect(p.panel.getSnapshot().context.feed.session.ended).toMatchObject({ reason: 'completed' });
    });

    it('agent_status is relayed to the workspace', async () => {
      const p = await ready();
      const ws = await live(p);
      ws.serverSend({ type: 'agent_status', agent_id: 'agent-a', status: 'thinking' });
      await vi.advanceTimersByTimeAsync(0);
      expect(p.workspace).toContainEqual({ type: 'discussion.agentStatus', agentId: 'agent-a', status: 'thinking' });
    });
  });

  describe('Stop', () => {
    it('sends stop, closes 1000, clears the audio queue and resets the statuses', async () => {
      const p = await ready();
      const ws = await live(p);
      p.panel.send({ type: 'panel.stop' });
      await vi.advanceTimersByTimeAsync(0);
      expect(ws.sent.at(-1)).toEqual({ type: 'stop' });
      expect(ws.closedByClient).toEqual({ code: 1000, reason: 'discussion over' });
      expect(p.audioQueue).toContainEqual({ type: 'audio.clear' });
      expect(p.workspace).toContainEqual({ type: 'discussion.statusesReset' });
      expect(p.panel.getSnapshot().matches({ run: 'ended' })).toBe(true);
      expect(status(p.panel)).toBe('disconnected');
      expect(error(p.panel)).toBeNull();
    });

    it('while connecting: nothing to send, the socket is closed and the run ends', async () => {
      const p = await ready();
      await start(p);
      p.panel.send({ type: 'panel.stop' });
      await vi.advanceTimersByTimeAsync(1_000);
      expect(p.panel.getSnapshot().matches({ run: 'ended' })).toBe(true);
      expect(p.sockets.last('/ws/discuss').sent).toEqual([]);
    });
  });

  describe('tool approvals (docs/tools.md#approval)', () => {
    it('Run and Refuse send tool_approval for a call that waits, once, and its row says the answer', async () => {
      const p = await ready();
      const ws = await live(p);
      const call = (id: string) => ({
        type: 'tool_call',
        id,
        agent_id: 'agent-a',
        message_id: `m-${id}`,
        tool: 'calculator',
        server: 'builtin',
        arguments: { expression: '2+2' },
        needs_approval: true,
      });
      ws.serverSend(call('c1'));
      ws.serverSend(call('c2'));
      await vi.advanceTimersByTimeAsync(0);
      p.panel.send({ type: 'panel.tool.answer', id: 'c1', approve: true });
      p.panel.send({ type: 'panel.tool.answer', id: 'c2', approve: false });
      // Answered already, and a call nobody made: nothing goes out.
      p.panel.send({ type: 'panel.tool.answer', id: 'c1', approve: false });
      p.panel.send({ type: 'panel.tool.answer', id: 'nope', approve: true });
      await vi.advanceTimersByTimeAsync(0);
      expect(ws.sent.filter((f) => (f as { type?: string }).type === 'tool_approval')).toEqual([
        { type: 'tool_approval', id: 'c1', approve: true },
        { type: 'tool_approval', id: 'c2', approve: false },
      ]);
      const feed = p.panel.getSnapshot().context.feed;
      expect(toolCallsOf(feed, 'm-c1').map(toolCallState)).toEqual(['running']);
      expect(toolCallsOf(feed, 'm-c2').map(toolCallState)).toEqual(['refused']);
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

  describe('human messages', () => {
    it('go on the socket and into the feed at once', async () => {
      const p = await ready();
      const ws = await live(p);
      expect(selectCanSendHuman(p.panel.getSnapshot())).toBe(true);
      p.panel.send({ type: 'panel.human.send', text: '  What about frost?  ' });
      await vi.advanceTimersByTimeAsync(0);
      // Stamped by the panel's clock when it is sent.
      expect(ws.sent.at(-1)).toEqual({
        type: 'human_message',
        text: 'What about frost?',
        timestamp: new Date(NOW).toISOString(),
      });
      const items = selectMessages(p.panel.getSnapshot().context.feed);
      expect(items.map((i) => [i.kind, i.content])).toEqual([['human', 'What about frost?']]);
    });

    it('are refused when empty, before the socket opens, and with human participation off', async () => {
      const p = await ready();
      await start(p);
      p.panel.send({ type: 'panel.human.send', text: 'too early' });
      const ws = p.sockets.last('/ws/discuss');
      ws.serverOpen();
      await vi.advanceTimersByTimeAsync(0);
      p.panel.send({ type: 'panel.human.send', text: '   ' });
      await vi.advanceTimersByTimeAsync(0);
      expect(types(ws)).toEqual(['config']);
      const q = await ready({ saved: withBasic(forEndpoint.basic, { humanParticipation: false }) });
      const ws2 = await live(q);
      expect(selectCanSendHuman(q.panel.getSnapshot())).toBe(false);
      q.panel.send({ type: 'panel.human.send', text: 'hello' });
      await vi.advanceTimersByTimeAsync(0);
      expect(types(ws2)).toEqual(['config']);
      expect(selectFeedCounts(q.panel.getSnapshot()).messages).toBe(0);
    });
  });

  describe('speech', () => {
    it('audio frames go to the queue with replyTo; started/finished relay speaking/idle; a completed clip is acknowledged', async () => {
      const p = await ready({ saved: withBasic(forEndpoint.basic, { tts: true }) });
      const ws = await live(p);
      ws.serverSend({ type: 'text', id: 'm1', from_id: 'agent-a', from: 'Ada', text: 'One', turn: 1 });
      ws.serverSend({
        type: 'audio',
        agent_id: 'agent-a',
        audio_url: '/media/tts/a1.wav',
        audio_id: 'a1',
        message_id: 'm1',
        text: 'One',
      });
      await vi.advanceTimersByTimeAsync(0);
      const enqueue = p.audioQueue.find((e) => e.type === 'audio.enqueue');
      expect(enqueue).toMatchObject({
        item: { audioId: 'a1', messageId: 'm1', url: '/media/tts/a1.wav', agentId: 'agent-a', requiresAck: true },
      });
      expect(enqueue!.replyTo).toBe(p.panel);
      const item = enqueue!.item;
      p.panel.send({ type: 'audio.started', item });
      await vi.advanceTimersByTimeAsync(0);
      expect(p.workspace.at(-1)).toEqual({ type: 'discussion.agentStatus', agentId: 'agent-a', status: 'speaking' });
      p.panel.send({ type: 'audio.finished', item, status: 'completed' });
      await vi.advanceTimersByTimeAsync(0);
      expect(p.workspace.at(-1)).toEqual({ type: 'discussion.agentStatus', agentId: 'agent-a', status: 'idle' });
      expect(ws.sent.at(-1)).toEqual({
        type: 'status',
        status: 'played',
        audio_id: 'a1',
        agent_id: 'agent-a',
        message_id: 'm1',
      });
      // A clip that failed is not acknowledged as played, but the agent goes idle.
      p.panel.send({ type: 'audio.finished', item, status: 'error' });
      await vi.advanceTimersByTimeAsync(0);
      expect(ws.sent.filter((f) => (f as { type: string }).type === 'status')).toHaveLength(1);
    });

    it('with speech off, audio frames are not queued', async () => {
      const p = await ready();
      const ws = await live(p);
      ws.serverSend({ type: 'audio', agent_id: 'agent-a', audio_url: '/media/tts/a1.wav', audio_id: 'a1' });
      await vi.advanceTimersByTimeAsync(0);
      expect(p.audioQueue.filter((e) => e.type === 'audio.enqueue')).toEqual([]);
    });
  });

  describe('settings', () => {
    it('loads the saved settings at start', async () => {
      const saved = withBasic(forEndpoint.basic, { turns: 12, mode: 'natural' });
      const p = await ready({ saved });
      expect(selectSettings(p.panel.getSnapshot())).toEqual(saved);
    });

    it('a valid update is applied and saved; an out-of-range one is refused', async () => {
      const p = await ready();
      const good = withBasic(forEndpoint.basic, { turns: 20 });
      p.panel.send({ type: 'panel.settings.update', settings: good });
      expect(selectSettings(p.panel.getSnapshot())).toEqual(good);
      expect(p.saves.at(-1)).toEqual(good);
      for (const bad of [
        withBasic(good, { turns: 51 }),
        withBasic(good, { turns: 1 }),
        { ...good, communication: { ...good.communication, temperature: 2.5 } },
        { ...good, reasoning: { ...good.reasoning, maxRounds: 21 } },
        { ...good, research: { ...good.research, maxResults: 0 } },
      ]) {
        p.panel.send({ type: 'panel.settings.update', settings: bad as StandardPanelSettings });
        expect(selectSettings(p.panel.getSnapshot())).toEqual(good);
      }
      expect(p.saves).toHaveLength(1);
    });

    it('turning speech off disables the audio queue, on enables it', async () => {
      const p = await ready();
      p.panel.send({ type: 'panel.settings.update', settings: withBasic(forEndpoint.basic, { tts: true }) });
      p.panel.send({ type: 'panel.settings.update', settings: forEndpoint.basic });
      await vi.advanceTimersByTimeAsync(0);
      expect(p.audioQueue.map((e) => e.type)).toEqual(['audio.enable', 'audio.disable']);
    });
  });

  describe('export', () => {
    it("with no messages: the toast 'No discussion to export.' and no file", async () => {
      const p = await ready();
      p.panel.send({ type: 'panel.export', format: 'json' });
      await vi.advanceTimersByTimeAsync(0);
      expect(p.toastTexts()).toEqual(['error: No discussion to export.']);
      expect(p.files).toEqual([]);
    });

    it.each(['json', 'pdf'] as const)('%s: saves <topic>-<date> with that extension', async (format) => {
      const p = await ready();
      const ws = await live(p);
      ws.serverSend({ type: 'text', id: 'm1', from_id: 'agent-a', from: 'Ada', text: 'One', turn: 1 });
      await vi.advanceTimersByTimeAsync(0);
      p.panel.send({ type: 'panel.export', format });
      await flush();
      await vi.advanceTimersByTimeAsync(0);
      expect(p.files.map((f) => f.name)).toEqual([
        expect.stringMatching(new RegExp(`^drip-or-furrow-irrigation-\\d{4}-\\d{2}-\\d{2}\\.${format}$`)),
      ]);
      if (format === 'json') {
        const json = JSON.parse(await p.files[0].blob.text());
        expect(json.messages.map((m: { content: string }) => m.content)).toEqual(['One']);
      }
      expect(p.toastTexts()).toEqual([]);
    });
  });
});
