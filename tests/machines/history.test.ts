import { runningOfferMachine } from '../../src/machines/runningOffer.machine';
import { selectIsAttachingOffer, selectRunningOffer } from '../../src/machines/runningOffer.selectors';
import { withExporter } from '../../src/machines/discussionExport.machine';
import { selectIsExporting } from '../../src/machines/discussionExport.selectors';
import { selectOpenTab } from '../../src/machines/discussionTabs.selectors';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromPromise, setup, type AnyEventObject } from 'xstate';
import { FILTER_DEBOUNCE_MS, historyMachine, type HistoryPageRequest } from '../../src/machines/history.machine';
import * as sel from '../../src/machines/history.selectors';
import type { StandardExportRequest } from '../../src/model/standardVariant';
import { selectCounts, selectItem, selectMessageIds } from '../../src/model/feedSelectors';
import type { DiscussionSummary, HistoryPage, StoredDiscussion } from '../../src/schemas/history';
import { DISCUSSION_MESSAGES, HISTORY_MESSAGES } from '../../src/schemas/messages';

const summary = (id: string, over: Partial<DiscussionSummary> = {}): DiscussionSummary => ({
  id,
  session_id: `session_${id}`,
  endpoint: '/ws/discuss',
  topic: `Topic ${id}`,
  status: 'ended',
  frame_count: 3,
  created_at: '2026-01-02T00:00:00.000Z',
  ended_at: null,
  ...over,
});
const msg = (id: string, content: string, at: string) => ({
  type: 'text',
  id,
  from_id: 'a1',
  from: 'Ada',
  text: content,
  turn: 1,
  timestamp: at,
});

function stored(over: Partial<StoredDiscussion> = {}): StoredDiscussion {
  return {
    ...summary('d1'),
    config: { panel: 'standard', agent_ids: ['a1', 'a2'], communication_config: { maxTokens: 300 } },
    frames: [
      {
        seq: 1,
        data: {
          type: 'discussion_started',
          session_id: 'session_d1',
          endpoint: 'basic',
          participants: [],
          topic: 'Topic d1',
        },
        at: '2026-01-02T00:00:01.000Z',
      },
      { seq: 2, data: msg('m1', 'Hello', '2026-01-02T00:00:02.000Z'), at: '2026-01-02T00:00:02.000Z' },
      { seq: 3, data: { type: 'text', id: 42 }, at: '2026-01-02T00:00:03.000Z' }, // malformed: counted, not shown
      { seq: 4, data: { type: 'from_the_future', x: 1 }, at: '2026-01-02T00:00:04.000Z' }, // unknown: skipped
      { seq: 5, data: msg('m2', 'Reply', '2026-01-02T00:00:06.000Z'), at: '2026-01-02T00:00:06.000Z' },
    ],
    human_messages: [{ text: 'Mind the frost', at: '2026-01-02T00:00:05.000Z', timestamp: '2026-01-02T00:00:05.000Z' }],
    ...over,
  };
}

interface Fakes {
  /** A plain array is one last page. */
  list: (req: HistoryPageRequest) => Promise<DiscussionSummary[] | HistoryPage>;
  load: (id: string) => Promise<StoredDiscussion>;
  remove: (id: string) => Promise<void>;
  /** What the start-up check finds running (none by default). */
  running: () => Promise<DiscussionSummary | null>;
  exported: StandardExportRequest[];
}

function start(over: Partial<Fakes> = {}) {
  const f: Fakes = {
    list: async () => [summary('d1'), summary('d2', { status: 'running' })],
    load: async () => stored(),
    remove: async () => {},
    running: async () => null,
    exported: [],
    ...over,
  };
  const logic = historyMachine.provide({
    actors: {
      loadHistory: fromPromise(async ({ input }: { input: HistoryPageRequest }) => {
        const r = await f.list(input);
        return Array.isArray(r) ? { items: r, next_cursor: null } : r;
      }),
      loadDiscussion: fromPromise(({ input }: { input: { id: string } }) => f.load(input.id)),
      deleteDiscussion: fromPromise(({ input }: { input: { id: string } }) => f.remove(input.id)),
      offer: runningOfferMachine.provide({
        actors: {
          findRunning: fromPromise(() => f.running()),
          loadDiscussion: fromPromise(({ input }: { input: { id: string } }) => f.load(input.id)),
        },
      }),
      exportDiscussion: withExporter(async (input: StandardExportRequest) => {
        f.exported.push(input);
      }),
    },
  });
  // A root standing for the app (registered as 'app', as main.tsx registers it) that gives the history a system
  // with both panels and toasts; all of them record what they are sent, and the root what the history tells the app.
  const received: AnyEventObject[] = [];
  // What each panel got, apart: both panels share one event vocabulary (panel.*).
  const sentTo: Record<string, AnyEventObject[]> = {};
  const record = ({ event, self }: { event: AnyEventObject; self: { id: string } }) => {
    received.push(event);
    (sentTo[self.id] ??= []).push(event);
  };
  const recorder = createMachine({ on: { '*': { actions: record } } });
  const root = setup({ actors: { history: logic, recorder } }).createMachine({
    on: { 'view.discussion.show': { actions: record } },
    invoke: [
      { src: 'recorder', id: 'standardDiscussion', systemId: 'standardDiscussion' },
      { src: 'recorder', id: 'hybridDiscussion', systemId: 'hybridDiscussion' },
      { src: 'recorder', id: 'toasts', systemId: 'toasts' },
      { src: 'recorder', id: 'workspace', systemId: 'workspace' },
      { src: 'recorder', id: 'navigation', systemId: 'navigation' },
      { src: 'history', id: 'history', systemId: 'history' },
    ],
  });
  const app = createActor(root, { systemId: 'app' }).start();
  const actor = app.system.get('history') as ReturnType<typeof createActor<typeof historyMachine>>;
  return { actor, f, received, sentTo, snap: () => actor.getSnapshot() };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('history machine', () => {
  it('loads the list when shown (loading → loaded), and refreshes', async () => {
    let calls = 0;
    const { actor, snap } = start({
      list: async () => (++calls === 1 ? [summary('d1')] : [summary('d3'), summary('d1')]),
    });
    expect(sel.selectListState(snap())).toBe('idle');
    actor.send({ type: 'history.show' });
    expect(sel.selectIsShown(snap())).toBe(true);
    expect(sel.selectListState(snap())).toBe('loading');
    await settle();
    expect(sel.selectListState(snap())).toBe('loaded');
    expect(sel.selectItems(snap()).map((d) => d.id)).toEqual(['d1']);
    actor.send({ type: 'history.refresh' });
    await settle();
    expect(sel.selectItems(snap()).map((d) => d.id)).toEqual(['d3', 'd1']);
    actor.send({ type: 'history.hide' });
    expect(sel.selectIsShown(snap())).toBe(false);
  });

  it('a failed load is the failed state with the reason; a refresh recovers', async () => {
    let fail = true;
    const { actor, snap } = start({
      list: async () => {
        if (fail) throw new Error('HTTP 500: boom');
        return [];
      },
    });
    actor.send({ type: 'history.show' });
    await settle();
    expect(sel.selectListState(snap())).toBe('failed');
    expect(sel.selectListError(snap())).toBe('HTTP 500: boom');
    fail = false;
    actor.send({ type: 'history.refresh' });
    await settle();
    expect(sel.selectListState(snap())).toBe('loaded');
    expect(sel.selectListError(snap())).toBeNull();
  });

  it('deletes only after the confirmation; cancel keeps it; a refusal is shown', async () => {
    const removed: string[] = [];
    let refuse = false;
    const { actor, snap } = start({
      remove: async (id) => {
        if (refuse) throw new Error('This discussion is still running.');
        removed.push(id);
      },
    });
    actor.send({ type: 'history.show' });
    await settle();
    actor.send({ type: 'history.delete.request', id: 'nope' });
    expect(sel.selectPendingDelete(snap())).toBeNull();
    actor.send({ type: 'history.delete.request', id: 'd1' });
    expect(sel.selectPendingDelete(snap())?.id).toBe('d1');
    actor.send({ type: 'history.delete.cancel' });
    expect(sel.selectPendingDelete(snap())).toBeNull();
    expect(removed).toEqual([]);

    actor.send({ type: 'history.delete.request', id: 'd1' });
    actor.send({ type: 'history.delete.confirm' });
    expect(sel.selectIsDeleting(snap())).toBe(true);
    await settle();
    expect(removed).toEqual(['d1']);
    expect(sel.selectItems(snap()).map((d) => d.id)).toEqual(['d2']);

    refuse = true;
    actor.send({ type: 'history.delete.request', id: 'd2' });
    actor.send({ type: 'history.delete.confirm' });
    await settle();
    expect(sel.selectDeleteError(snap())).toBe('This discussion is still running.');
    expect(sel.selectItems(snap()).map((d) => d.id)).toEqual(['d2']);
  });

  it('opens one read-only: frames through the panel schema, the human message at its place by time', async () => {
    const { actor, snap } = start();
    actor.send({ type: 'history.show' });
    await settle();
    actor.send({ type: 'history.open', id: 'd1' });
    expect(sel.selectViewer(snap())).toBe('opening');
    await settle();
    expect(sel.selectViewer(snap())).toBe('open');
    const opened = sel.selectOpened(snap())!;
    const ids = selectMessageIds(opened.feed);
    expect(ids).toEqual(['m1', 'human-2026-01-02T00:00:05.000Z-14', 'm2']);
    expect(selectItem(opened.feed, ids[1])).toMatchObject({ kind: 'human', content: 'Mind the frost' });
    expect(opened.malformed).toBe(1);
    expect(opened.run).toMatchObject({
      sessionId: 'session_d1',
      endpoint: 'basic',
      agentIds: ['a1', 'a2'],
      context: 'Topic d1',
    });
    expect(opened.run.settings.communication.maxTokens).toBe(300);

    actor.send({ type: 'history.tab.select', tab: 'analytics' });
    expect(selectOpenTab(sel.selectTabs(snap())?.getSnapshot())).toBe('analytics');
    actor.send({ type: 'history.close' });
    expect(sel.selectViewer(snap())).toBe('closed');
    expect(sel.selectOpened(snap())).toBeNull();
  });

  it('a failed open says why', async () => {
    const { actor, snap } = start({
      load: async () => {
        throw new Error('Not found');
      },
    });
    actor.send({ type: 'history.show' });
    await settle();
    actor.send({ type: 'history.open', id: 'd1' });
    await settle();
    expect(sel.selectViewer(snap())).toBe('failed');
    expect(sel.selectOpenError(snap())).toBe('Not found');
  });

  it('exports the opened discussion with the standard exporter; an empty one says there is nothing to export', async () => {
    const { actor, snap, f, received } = start();
    actor.send({ type: 'history.show' });
    await settle();
    actor.send({ type: 'history.open', id: 'd1' });
    await settle();
    actor.send({ type: 'history.export', format: 'json' });
    expect(selectIsExporting(sel.selectExporter(snap())?.getSnapshot())).toBe(true);
    await settle();
    expect(f.exported).toHaveLength(1);
    expect(f.exported[0]).toMatchObject({ format: 'json', run: { sessionId: 'session_d1' } });

    f.load = async () => stored({ frames: [], human_messages: [] });
    actor.send({ type: 'history.open', id: 'd1' });
    await settle();
    actor.send({ type: 'history.export', format: 'pdf' });
    expect(f.exported).toHaveLength(1);
    expect(received).toContainEqual({ type: 'toast.show', kind: 'error', text: DISCUSSION_MESSAGES.nothingToExport });
  });

  it('re-attaches a running standard discussion: discussion.resume to the standard panel, and the dialog closes', async () => {
    const { actor, snap, f, received } = start();
    actor.send({ type: 'history.show' });
    await settle();
    actor.send({ type: 'history.open', id: 'd1' });
    await settle();
    expect(sel.selectCanReattach(snap())).toBe(false); // it ended
    f.load = async () =>
      stored({
        ...summary('d2', { status: 'running', endpoint: '/ws/enhanced', topic: 'Still going' }),
        config: { panel: 'standard', agent_ids: ['a1', 'a2'], format: { kind: 'council', chair: 'a2' } },
      });
    actor.send({ type: 'history.open', id: 'd2' });
    await settle();
    expect(sel.selectCanReattach(snap())).toBe(true);
    actor.send({ type: 'history.reattach' });
    // The run keeps its format (its controls under the feed), whatever the panel's setting is now.
    expect(received).toContainEqual({
      type: 'panel.resume',
      sessionId: 'session_d2',
      endpoint: 'enhanced',
      agentIds: ['a1', 'a2'],
      context: 'Still going',
      format: { kind: 'council', chair: 'a2', moderator: 'human', judge: 'human' },
    });
    expect(received).toContainEqual({ type: 'view.discussion.show', panel: 'standard' });
    expect(sel.selectIsShown(snap())).toBe(false);
    expect(sel.selectViewer(snap())).toBe('closed');
  });

  it('continues from a turn: the canvas selects its agents, the standard panel takes topic and link, the dialog closes', async () => {
    const { actor, snap, received } = start();
    actor.send({ type: 'history.show' });
    await settle();
    actor.send({ type: 'history.open', id: 'd1' });
    await settle();
    // Two turns stored (the malformed frame is not one): turn 3 and turn 0 are not turns to continue from.
    actor.send({ type: 'history.continue', turn: 3 });
    actor.send({ type: 'history.continue', turn: 0 });
    expect(received.some((e) => e.type === 'panel.continue')).toBe(false);
    expect(sel.selectViewer(snap())).toBe('open');
    actor.send({ type: 'history.continue', turn: 2 });
    expect(received).toContainEqual({ type: 'selection.set', ids: ['a1', 'a2'] });
    expect(received).toContainEqual({
      type: 'panel.continue',
      topic: 'Topic d1',
      continuation: { discussionId: 'd1', turn: 2, title: 'Topic d1' },
    });
    expect(received).toContainEqual({ type: 'view.discussion.show', panel: 'standard' });
    expect(sel.selectIsShown(snap())).toBe(false);
  });

  it('opens a discussion a continuation link names, though it is not on a loaded page', async () => {
    const link = { discussion_id: 'src', topic: 'The source', turn: 1 };
    const { actor, snap } = start({ list: async () => [summary('d1', { continued_from: link })] });
    actor.send({ type: 'history.show' });
    await settle();
    actor.send({ type: 'history.open', id: 'elsewhere' });
    expect(sel.selectViewer(snap())).toBe('closed');
    actor.send({ type: 'history.open', id: 'src' });
    expect(sel.selectViewer(snap())).toBe('opening');
  });

  it('re-attaches a running hybrid discussion: hybrid.resume with its settings, what History replayed and how much, and the hybrid panel shows', async () => {
    const config = {
      panel: 'hybrid',
      agent_ids: ['a1', 'a2'],
      topic: 'Frost',
      session_id: 'session_h1',
      mode: 'structured',
      max_rounds: 7,
      tts: true,
      tts_config: { enabled: true, speed: 1.5, volume: 0.5, max_length: 300, format: 'wav' },
    };
    const frame = (seq: number, id: string) => ({
      seq,
      at: `2026-01-02T00:00:0${seq}.000Z`,
      data: {
        type: 'agent_message',
        id,
        agent_id: 'a1',
        agent_name: 'Ada',
        content: `Turn ${seq}`,
        message_type: 'statement',
        timestamp: `2026-01-02T00:00:0${seq}.000Z`,
      },
    });
    const { actor, snap, received, sentTo } = start({
      list: async () => [summary('h1', { status: 'running', endpoint: '/ws/hybrid', topic: 'Frost' })],
      load: async () => ({
        ...summary('h1', { status: 'running', endpoint: '/ws/hybrid', topic: 'Frost' }),
        config,
        frames: [frame(1, 'm1'), frame(2, 'm2')],
        human_messages: [],
      }),
    });
    actor.send({ type: 'history.show' });
    await settle();
    actor.send({ type: 'history.open', id: 'h1' });
    await settle();
    expect(snap().context.opened?.panel).toBe('hybrid');
    expect(sel.selectCanReattach(snap())).toBe(true);
    actor.send({ type: 'history.reattach' });
    const resume = sentTo.hybridDiscussion?.find((e) => e.type === 'panel.resume');
    expect(resume).toMatchObject({ sessionId: 'session_h1', agentIds: ['a1', 'a2'], topic: 'Frost', resumeFrom: 2 });
    expect(resume?.settings).toMatchObject({
      mode: 'structured',
      max_rounds: 7,
      tts: true,
      tts_speed: 1.5,
      tts_volume: 0.5,
      reasoning_depth: 3,
    });
    expect(selectCounts(resume?.feed).messages).toBe(2);
    expect(received).toContainEqual({ type: 'view.discussion.show', panel: 'hybrid' });
    expect(sentTo.standardDiscussion?.some((e) => e.type === 'panel.resume') ?? false).toBe(false);
    expect(sel.selectViewer(snap())).toBe('closed');
  });

  it('continues a hybrid discussion in the hybrid panel: hybrid.continue with its topic, link and settings', async () => {
    const config = { panel: 'hybrid', agent_ids: ['a1', 'a2'], mode: 'structured', max_rounds: 7 };
    const turn = (seq: number) => ({
      seq,
      at: `2026-01-02T00:00:0${seq}.000Z`,
      data: {
        type: 'agent_message',
        id: `m${seq}`,
        agent_id: 'a1',
        agent_name: 'Ada',
        content: `Turn ${seq}`,
        message_type: 'statement',
        timestamp: `2026-01-02T00:00:0${seq}.000Z`,
      },
    });
    const { actor, received, sentTo } = start({
      list: async () => [summary('h1', { endpoint: '/ws/hybrid', topic: 'Frost' })],
      load: async () => ({
        ...summary('h1', { endpoint: '/ws/hybrid', topic: 'Frost' }),
        config,
        frames: [turn(1), turn(2), turn(3)],
        human_messages: [],
      }),
    });
    actor.send({ type: 'history.show' });
    await settle();
    actor.send({ type: 'history.open', id: 'h1' });
    await settle();
    actor.send({ type: 'history.continue', turn: 2 });
    const sent = sentTo.hybridDiscussion?.find((e) => e.type === 'panel.continue');
    expect(sent).toMatchObject({
      topic: 'Frost',
      continuation: { discussionId: 'h1', turn: 2, title: 'Frost' },
      settings: { mode: 'structured', max_rounds: 7 },
    });
    expect(received).toContainEqual({ type: 'selection.set', ids: ['a1', 'a2'] });
    expect(received).toContainEqual({ type: 'view.discussion.show', panel: 'hybrid' });
    expect(sentTo.standardDiscussion?.some((e) => e.type === 'panel.continue') ?? false).toBe(false);
  });

  it('offers a discussion still running at start; Re-attach loads it and resumes it in its panel without opening History', async () => {
    const running = summary('d2', { status: 'running', endpoint: '/ws/enhanced', topic: 'Still going' });
    const { actor, snap, f, received } = start({ running: async () => running });
    f.load = async () => stored({ ...running });
    await settle();
    expect(selectRunningOffer(sel.selectOffer(snap())?.getSnapshot())?.id).toBe('d2');
    actor.send({ type: 'history.offer.accept' });
    expect(selectIsAttachingOffer(sel.selectOffer(snap())?.getSnapshot())).toBe(true);
    await settle();
    expect(received).toContainEqual({
      type: 'panel.resume',
      sessionId: 'session_d2',
      endpoint: 'enhanced',
      agentIds: ['a1', 'a2'],
      context: 'Still going',
      format: { kind: 'round_table', chair: '', moderator: 'human', judge: 'human' },
    });
    expect(received).toContainEqual({ type: 'view.discussion.show', panel: 'standard' });
    expect(selectRunningOffer(sel.selectOffer(snap())?.getSnapshot())).toBeNull();
    expect(sel.selectIsShown(snap())).toBe(false);
  });

  it('offers nothing when nothing runs or the check fails; Dismiss hides the offer; one that ended meanwhile is a notice', async () => {
    const quiet = start();
    await settle();
    expect(selectRunningOffer(sel.selectOffer(quiet.snap())?.getSnapshot())).toBeNull();
    const failing = start({
      running: async () => {
        throw new Error('offline');
      },
    });
    await settle();
    expect(selectRunningOffer(sel.selectOffer(failing.snap())?.getSnapshot())).toBeNull();

    const running = summary('d2', { status: 'running', endpoint: '/ws/enhanced' });
    const dismissed = start({ running: async () => running });
    await settle();
    dismissed.actor.send({ type: 'history.offer.dismiss' });
    expect(selectRunningOffer(sel.selectOffer(dismissed.snap())?.getSnapshot())).toBeNull();

    const ended = start({ running: async () => running });
    ended.f.load = async () => stored({ ...running, status: 'ended' });
    await settle();
    ended.actor.send({ type: 'history.offer.accept' });
    await settle();
    expect(selectRunningOffer(sel.selectOffer(ended.snap())?.getSnapshot())).toBeNull();
    expect(ended.received.some((e) => e.type === 'panel.resume')).toBe(false);
    expect(ended.received).toContainEqual({ type: 'toast.show', kind: 'info', text: HISTORY_MESSAGES.offerEnded });
  });
});

describe('history past 500 (issue 21): pages, infinite scroll, filter by topic', () => {
  // 1,200 discussions served the way the server pages them: 50 a page, a cursor, a topic filter.
  const ALL = Array.from({ length: 1200 }, (_, i) =>
    summary(`d${1200 - i}`, { topic: (1200 - i) % 10 === 0 ? `Vineyard ${1200 - i}` : `Topic ${1200 - i}` }),
  );
  const server = (fail?: (req: HistoryPageRequest) => boolean) => {
    const calls: HistoryPageRequest[] = [];
    const list = async (req: HistoryPageRequest): Promise<HistoryPage> => {
      calls.push(req);
      if (fail?.(req)) throw new Error('Network error');
      const matching = ALL.filter((d) => d.topic.toLowerCase().includes(req.q.toLowerCase()));
      const from = req.cursor ? Number(req.cursor) : 0;
      const items = matching.slice(from, from + 50);
      return { items, next_cursor: from + 50 < matching.length ? String(from + 50) : null };
    };
    return { calls, list };
  };

  it('loads the first page, then each next one on history.more until all 1,200 are listed once', async () => {
    const srv = server();
    const { actor, snap } = start({ list: srv.list });
    actor.send({ type: 'history.show' });
    await settle();
    expect(snap().context.items).toHaveLength(50);
    expect(sel.selectHasMore(snap())).toBe(true);
    for (let i = 0; i < 30; i++) {
      actor.send({ type: 'history.more' });
      expect(sel.selectIsLoadingMore(snap()) || !sel.selectHasMore(snap())).toBe(true);
      // A second scroll to the end while a page loads asks for nothing more.
      actor.send({ type: 'history.more' });
      await settle();
    }
    expect(snap().context.items).toHaveLength(1200);
    expect(new Set(snap().context.items.map((d) => d.id)).size).toBe(1200);
    expect(sel.selectHasMore(snap())).toBe(false);
    expect(srv.calls).toHaveLength(24);
    expect(sel.selectListState(snap())).toBe('loaded');
  });

  it('filters by topic after the typing pauses, from the first page', async () => {
    const srv = server();
    const { actor, snap } = start({ list: srv.list });
    actor.send({ type: 'history.show' });
    await settle();
    actor.send({ type: 'history.more' });
    await settle();
    expect(snap().context.items).toHaveLength(100);
    for (const text of ['v', 'vi', 'vine']) {
      actor.send({ type: 'history.filter', text });
      await vi.advanceTimersByTimeAsync(FILTER_DEBOUNCE_MS - 50);
    }
    expect(sel.selectListState(snap())).toBe('loading');
    expect(srv.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(60);
    expect(srv.calls.at(-1)).toEqual({ cursor: null, q: 'vine', format: '' });
    expect(sel.selectFilter(snap())).toBe('vine');
    expect(snap().context.items).toHaveLength(50);
    expect(snap().context.items.every((d) => d.topic.startsWith('Vineyard'))).toBe(true);
    actor.send({ type: 'history.more' });
    await settle();
    actor.send({ type: 'history.more' });
    await settle();
    expect(snap().context.items).toHaveLength(120);
    expect(sel.selectHasMore(snap())).toBe(false);
  });

  it('a failed next page keeps what is listed and can be retried', async () => {
    let failing = true;
    const srv = server((req) => failing && req.cursor !== null);
    const { actor, snap } = start({ list: srv.list });
    actor.send({ type: 'history.show' });
    await settle();
    actor.send({ type: 'history.more' });
    await settle();
    expect(snap().context.items).toHaveLength(50);
    expect(sel.selectMoreError(snap())).toBe('Network error');
    expect(sel.selectListState(snap())).toBe('loaded');
    failing = false;
    actor.send({ type: 'history.more' });
    await settle();
    expect(snap().context.items).toHaveLength(100);
    expect(sel.selectMoreError(snap())).toBeNull();
  });
});

// Addresses (issue 43): History reports each view it moves to, and shows the one an address names.
describe('history and the address', () => {
  const reported = (sentTo: Record<string, AnyEventObject[]>) =>
    (sentTo.navigation ?? []).map((e) => (e.type === 'nav.follow' ? e.route : e.type));

  it('reports the list with its filters, an opened discussion and the canvas', async () => {
    const { actor, sentTo } = start();
    actor.send({ type: 'history.show' });
    await settle();
    actor.send({ type: 'history.open', id: 'd1' });
    await settle();
    actor.send({ type: 'history.close' });
    actor.send({ type: 'history.format.filter', kind: 'debate' });
    actor.send({ type: 'history.filter', text: ' frost ' });
    await vi.advanceTimersByTimeAsync(FILTER_DEBOUNCE_MS);
    actor.send({ type: 'history.hide' });
    expect(reported(sentTo)).toEqual([
      { kind: 'history', format: '', q: '' },
      { kind: 'discussion', id: 'd1' },
      { kind: 'history', format: '', q: '' },
      { kind: 'history', format: 'debate', q: '' },
      { kind: 'history', format: 'debate', q: 'frost' },
      { kind: 'canvas' },
    ]);
  });

  it('opens the discussion an address names, not only a listed one, at the moment of its replay', async () => {
    const loaded: string[] = [];
    const { actor, snap, sentTo } = start({
      list: async () => [],
      load: async (id) => {
        loaded.push(id);
        return stored({ id });
      },
    });
    actor.send({ type: 'history.visit', id: 'd9', replay: true, turn: 1 });
    expect(sel.selectIsShown(snap())).toBe(true);
    await settle();
    expect(loaded).toEqual(['d9']);
    expect(sel.selectViewer(snap())).toBe('open');
    const replay = sel.selectReplay(snap())!;
    expect(replay.getSnapshot().context.turn).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(reported(sentTo)).toEqual([{ kind: 'replay', id: 'd9', turn: 1 }]);
    // Back to the discussion itself: the replay closes, nothing loads again.
    actor.send({ type: 'history.visit', id: 'd9', replay: false, turn: null });
    expect(loaded).toEqual(['d9']);
    expect(reported(sentTo).at(-1)).toEqual({ kind: 'discussion', id: 'd9' });
    // Back to the list with its filters.
    actor.send({ type: 'history.list', format: 'council', q: 'x' });
    expect(sel.selectViewer(snap())).toBe('closed');
    expect(snap().context.formatFilter).toBe('council');
    expect(reported(sentTo).at(-1)).toEqual({ kind: 'history', format: 'council', q: 'x' });
  });

  it('tells the navigation actor when the server has no such discussion for this user, not when it failed', async () => {
    const refuse = (status: number) => Object.assign(new Error(`HTTP ${status}`), { status });
    for (const [status, missing] of [
      [404, true],
      [500, false],
    ] as const) {
      const { actor, snap, sentTo } = start({ load: async () => Promise.reject(refuse(status)) });
      actor.send({ type: 'history.visit', id: 'foreign', replay: false, turn: null });
      await settle();
      expect(sel.selectViewer(snap())).toBe('failed');
      expect(reported(sentTo).includes('nav.missing')).toBe(missing);
    }
  });
});
