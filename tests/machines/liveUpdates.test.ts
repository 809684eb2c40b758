import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, setup, spawnChild, type AnyEventObject } from 'xstate';
import { withLiveSocket, type LiveUpdatesActorRef } from '../../src/machines/liveUpdates.machine';
import { selectIsLiveReady, selectLiveStatus } from '../../src/machines/liveUpdates.selectors';
import { toastsMachine, type ToastsActorRef } from '../../src/machines/toasts.machine';
import { createSocketFactory } from '../../src/services/socket';
import { liveClientFrame, liveServerFrame } from '../../src/schemas/liveUpdates';
import {
  CONNECTION_ERROR_LOG_SIZE,
  LIVE_CONNECT_TIMEOUT_MS,
  LIVE_RECONNECT_BASE_DELAY_MS,
  LIVE_RECONNECT_MAX_ATTEMPTS,
} from '../../src/schemas/constants';
import { SHELL_MESSAGES } from '../../src/schemas/messages';
import { fakeSockets } from '../support/fakeWebSocket';

function start() {
  const sockets = fakeSockets();
  const fromSocket = createSocketFactory({
    wsBase: 'ws://h',
    getToken: () => 'tok',
    WebSocket: sockets.Ctor,
    debug: () => {},
  });
  const received: AnyEventObject[] = [];
  const fakeWorkspace = createMachine({ on: { '*': { actions: ({ event }) => void received.push(event) } } });
  // The models chart and the Built-in section (a child of the models chart while its dialog is open).
  const toModels: AnyEventObject[] = [];
  const toBuiltin: AnyEventObject[] = [];
  const recorder = (into: AnyEventObject[]) =>
    createMachine({ on: { '*': { actions: ({ event }) => void into.push(event) } } });
  const root = createActor(
    setup({
      actors: {
        toasts: toastsMachine,
        workspace: fakeWorkspace,
        models: recorder(toModels),
        builtin: recorder(toBuiltin),
        live: withLiveSocket(fromSocket(liveServerFrame, liveClientFrame)),
      },
    }).createMachine({
      entry: [
        spawnChild('toasts', { systemId: 'toasts' }),
        spawnChild('workspace', { systemId: 'workspace' }),
        spawnChild('models', { systemId: 'models' }),
        spawnChild('builtin', { systemId: 'builtinModels' }),
        spawnChild('live', { systemId: 'liveUpdates' }),
      ],
    }),
  ).start();
  const live = root.system.get('liveUpdates') as LiveUpdatesActorRef;
  const toasts = root.system.get('toasts') as ToastsActorRef;
  return {
    root,
    sockets,
    live,
    received,
    toModels,
    toBuiltin,
    snap: () => live.getSnapshot(),
    updates: () => sockets.last('/ws/updates'),
    system: () => sockets.last('/ws/system'),
    toastTexts: () => toasts.getSnapshot().context.toasts.map((t) => t.text),
  };
}

describe('live updates', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('opens /ws/updates and /ws/system with the token', () => {
    const t = start();
    expect(t.sockets.instances.map((s) => [s.path, s.query.token])).toEqual([
      ['/ws/updates', 'tok'],
      ['/ws/system', 'tok'],
    ]);
    expect(selectLiveStatus(t.snap())).toBe('connecting');
  });

  it('sends get_stats once /ws/system opens, and nothing on /ws/updates', () => {
    const t = start();
    expect(t.system().sent).toEqual([]);
    t.system().serverOpen();
    t.updates().serverOpen();
    expect(t.system().sent).toEqual([{ type: 'get_stats' }]);
    expect(t.updates().sent).toEqual([]);
  });

  it('is Ready while /ws/updates is connected', () => {
    const t = start();
    t.updates().serverOpen();
    expect(selectIsLiveReady(t.snap())).toBe(true);
    t.updates().serverClose(1006);
    expect(selectIsLiveReady(t.snap())).toBe(false);
    expect(selectLiveStatus(t.snap())).toBe('reconnecting');
  });

  it('forwards every valid frame to the workspace, logs malformed ones and ignores unknown types', () => {
    const t = start();
    t.updates().serverOpen();
    t.updates().serverSend({ type: 'agent_deleted', agent_id: 'a1' });
    t.updates().serverSend({ type: 'agent_deleted', id: 'wrong' });
    t.updates().serverSend({ type: 'something_new' });
    t.system().serverOpen();
    t.system().serverSend({ type: 'stats', stats: { agents: 3 } });
    expect(t.received).toEqual([
      { type: 'live.frame', frame: { type: 'agent_deleted', agent_id: 'a1' } },
      { type: 'live.frame', frame: { type: 'stats', stats: { agents: 3 } } },
    ]);
    expect(t.snap().context.errors).toEqual([
      { channel: 'updates', message: expect.stringContaining('"agent_deleted"'), code: undefined },
    ]);
  });

  it('sends model frames to the models chart, and built-in download progress to the Built-in section', () => {
    const t = start();
    t.updates().serverOpen();
    const download = {
      file: 'a.gguf',
      url: 'https://x/a.gguf',
      received: 10,
      total: 100,
      state: 'running',
      error: null,
      sha256: null,
    };
    t.updates().serverSend({ type: 'model_download', download });
    t.updates().serverSend({ type: 'model_connections_changed' });
    expect(t.toBuiltin).toEqual([{ type: 'live.frame', frame: { type: 'model_download', download } }]);
    expect(t.toModels).toEqual([{ type: 'live.frame', frame: { type: 'model_connections_changed' } }]);
    expect(t.received).toEqual([]);
  });

  it('reconnects at 3000 ms × attempt, at most 5 times, then gives up with a toast', async () => {
    const t = start();
    t.updates().serverOpen();
    t.updates().serverClose(1006);
    for (let attempt = 1; attempt <= LIVE_RECONNECT_MAX_ATTEMPTS; attempt++) {
      const before = t.sockets.on('/ws/updates').length;
      await vi.advanceTimersByTimeAsync(LIVE_RECONNECT_BASE_DELAY_MS * attempt - 1);
      expect(t.sockets.on('/ws/updates')).toHaveLength(before);
      await vi.advanceTimersByTimeAsync(1);
      expect(t.sockets.on('/ws/updates')).toHaveLength(before + 1);
      expect(selectLiveStatus(t.snap())).toBe('reconnecting');
      // The server is still down: the new socket drops before opening.
      t.updates().serverClose(1006);
    }
    expect(selectLiveStatus(t.snap())).toBe('closed');
    const total = t.sockets.on('/ws/updates').length;
    expect(total).toBe(1 + LIVE_RECONNECT_MAX_ATTEMPTS);
    expect(t.toastTexts()).toEqual([SHELL_MESSAGES.connectionIssue]);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(t.sockets.on('/ws/updates')).toHaveLength(total);
  });

  it('a successful reconnect starts the count again', async () => {
    const t = start();
    t.updates().serverOpen();
    t.updates().serverClose(1006);
    await vi.advanceTimersByTimeAsync(LIVE_RECONNECT_BASE_DELAY_MS);
    t.updates().serverClose(1006);
    await vi.advanceTimersByTimeAsync(2 * LIVE_RECONNECT_BASE_DELAY_MS);
    t.updates().serverOpen();
    expect(selectIsLiveReady(t.snap())).toBe(true);
    t.updates().serverClose(1006);
    const before = t.sockets.on('/ws/updates').length;
    await vi.advanceTimersByTimeAsync(LIVE_RECONNECT_BASE_DELAY_MS);
    expect(t.sockets.on('/ws/updates')).toHaveLength(before + 1);
  });

  it('after a reconnect of /ws/updates, tells the workspace to resync (changes made meanwhile were missed)', async () => {
    const t = start();
    t.updates().serverOpen();
    t.system().serverOpen();
    expect(t.received).toEqual([]);
    t.updates().serverClose(1006);
    await vi.advanceTimersByTimeAsync(LIVE_RECONNECT_BASE_DELAY_MS);
    t.updates().serverOpen();
    expect(t.received).toEqual([{ type: 'live.resync' }]);
    // /ws/system carries no canvas data: its reconnects do not resync.
    t.system().serverClose(1006);
    await vi.advanceTimersByTimeAsync(LIVE_RECONNECT_BASE_DELAY_MS);
    t.system().serverOpen();
    expect(t.received).toEqual([{ type: 'live.resync' }]);
  });

  it('does not reconnect after a normal close (1000)', async () => {
    const t = start();
    t.updates().serverOpen();
    t.updates().serverClose(1000, 'bye');
    expect(selectLiveStatus(t.snap())).toBe('closed');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.sockets.on('/ws/updates')).toHaveLength(1);
  });

  it('the two channels reconnect independently', async () => {
    const t = start();
    t.updates().serverOpen();
    t.system().serverOpen();
    t.system().serverClose(1006);
    await vi.advanceTimersByTimeAsync(LIVE_RECONNECT_BASE_DELAY_MS);
    expect(t.sockets.on('/ws/system')).toHaveLength(2);
    expect(t.sockets.on('/ws/updates')).toHaveLength(1);
    t.system().serverOpen();
    expect(t.system().sent).toEqual([{ type: 'get_stats' }]);
  });

  it('keeps only the last 10 connection problems', async () => {
    const t = start();
    for (let i = 0; i < 12; i++) t.updates().serverSend(`garbage ${i}`);
    expect(t.snap().context.errors).toHaveLength(CONNECTION_ERROR_LOG_SIZE);
    t.updates().serverClose(1011, 'boom');
    expect(t.snap().context.errors.at(-1)).toEqual({
      channel: 'updates',
      message: 'Closed with code 1011 (Internal server error): boom',
      code: 1011,
    });
  });

  it('a first connect that never opens ends the channel after the connect time-out, with the toast', async () => {
    const t = start();
    t.system().serverOpen();
    await vi.advanceTimersByTimeAsync(LIVE_CONNECT_TIMEOUT_MS - 1);
    expect(selectLiveStatus(t.snap())).toBe('connecting');
    await vi.advanceTimersByTimeAsync(1);
    expect(selectLiveStatus(t.snap())).toBe('closed');
    expect(t.updates().closedByClient).toMatchObject({ code: 1000 });
    expect(t.snap().context.errors.at(-1)).toMatchObject({ channel: 'updates', code: 1006 });
    expect(t.toastTexts()).toEqual([SHELL_MESSAGES.connectionIssue]);
    expect(t.snap().context.channels.system).toBe('connected');
  });

  it('closes both sockets when stopped (logout)', () => {
    const t = start();
    t.updates().serverOpen();
    t.root.stop();
    expect(t.updates().closedByClient).toMatchObject({ code: 1000 });
    expect(t.system().closedByClient).toMatchObject({ code: 1000 });
  });
});
