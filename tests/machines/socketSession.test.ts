// socketSession driven through a fake raw socket (a fromCallback the test speaks for), under a parent that records
// every notice. Every timing runs on fake timers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromCallback } from 'xstate';
import {
  CONNECT_TIMEOUT_REASON,
  socketSessionMachine,
  type SocketPolicy,
  type SocketSessionActorRef,
  type SocketSessionInput,
  type SocketSessionNotice,
} from '../../src/machines/socketSession.machine';
import type { SocketCommand, SocketEvent, SocketInput } from '../../src/model/socketEvents';
import { underParent } from '../support/harness';

interface RawSocket {
  input: SocketInput;
  commands: SocketCommand<unknown>[];
  stopped: boolean;
  tell: (event: SocketEvent<unknown>) => void;
  open: () => void;
  close: (code: number, reason?: string) => void;
}

function fakeRawSockets() {
  const made: RawSocket[] = [];
  const logic = fromCallback<SocketCommand<unknown>, SocketInput, SocketEvent<unknown>>(
    ({ input, sendBack, receive }) => {
      const raw: RawSocket = {
        input,
        commands: [],
        stopped: false,
        tell: (e) => {
          if (!raw.stopped) sendBack(e);
        },
        open: () => raw.tell({ type: 'socket.open' }),
        close: (code, reason = '') => raw.tell({ type: 'socket.closed', code, reason, wasClean: code === 1000 }),
      };
      made.push(raw);
      receive((c) => {
        raw.commands.push(c);
        // Like a browser socket: closing it reports the close.
        if (c.type === 'socket.close')
          raw.tell({ type: 'socket.closed', code: c.code ?? 1000, reason: c.reason ?? '', wasClean: true });
      });
      return () => {
        raw.stopped = true;
      };
    },
  );
  return { made, logic, last: () => made[made.length - 1] };
}

const policy: SocketPolicy = {
  connectTimeoutMs: 10_000,
  reconnectOn: [1006, 1011],
  maxAttempts: 3,
  delayMs: (n) => n * 2_000,
};

function start(overrides: Partial<SocketSessionInput> = {}) {
  const raw = fakeRawSockets();
  const input: SocketSessionInput = { path: '/ws/discuss', policy, ...overrides };
  const h = underParent<SocketSessionActorRef>(
    socketSessionMachine.provide({ actors: { socket: raw.logic } }),
    'session',
    input,
  );
  const notices = () => h.heard.filter((e): e is SocketSessionNotice => e.type.startsWith('socketSession.'));
  return {
    ...h,
    raw,
    notices,
    /** Notices since the last call. */
    fresh: (() => {
      let seen = 0;
      return () => {
        const all = notices();
        const out = all.slice(seen);
        seen = all.length;
        return out;
      };
    })(),
    value: () => h.child.getSnapshot().value,
    sentFrames: (i: number) =>
      raw.made[i].commands.filter((c) => c.type === 'socket.send').map((c) => (c as { frame: unknown }).frame),
  };
}

describe('socketSession', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('opens the raw socket on the path and query, and tells connecting then open', () => {
    const t = start({ query: { mode: 'x' } });
    expect(t.raw.made.map((r) => r.input)).toEqual([{ path: '/ws/discuss', query: { mode: 'x' } }]);
    expect(t.fresh()).toEqual([{ type: 'socketSession.connecting', attempt: 0 }]);
    t.raw.last().open();
    expect(t.fresh()).toEqual([{ type: 'socketSession.open', attempt: 0 }]);
    expect(t.child.getSnapshot().hasTag('open')).toBe(true);
  });

  it('relays frames, protocol errors and errors; ignores unknown frame types', () => {
    const t = start();
    t.raw.last().tell({ type: 'socket.error', message: 'boom' });
    t.raw.last().open();
    t.fresh();
    t.raw.last().tell({ type: 'socket.frame', frame: { type: 'text', content: 'hi' } });
    t.raw.last().tell({ type: 'socket.unknown', frameType: 'something_new' });
    t.raw.last().tell({ type: 'socket.protocolError', frameType: 'argument', error: 'bad', direction: 'incoming' });
    t.raw.last().tell({ type: 'socket.error', message: 'late' });
    expect(t.fresh()).toEqual([
      { type: 'socketSession.frame', frame: { type: 'text', content: 'hi' } },
      { type: 'socketSession.protocolError', frameType: 'argument', error: 'bad', direction: 'incoming' },
      { type: 'socketSession.error', message: 'late', everOpened: true },
    ]);
    expect(t.notices()[1]).toEqual({ type: 'socketSession.error', message: 'boom', everOpened: false });
  });

  it('a burst goes on as one notice to a parent that takes batches, frame by frame to any other', () => {
    const frames = [
      { type: 'text', content: 'a' },
      { type: 'text', content: 'b' },
    ];
    const plain = start();
    plain.raw.last().open();
    plain.fresh();
    plain.raw.last().tell({ type: 'socket.frames', frames });
    expect(plain.fresh()).toEqual(frames.map((frame) => ({ type: 'socketSession.frame', frame })));
    const batching = start({ batches: true });
    batching.raw.last().open();
    batching.fresh();
    batching.raw.last().tell({ type: 'socket.frames', frames });
    expect(batching.fresh()).toEqual([{ type: 'socketSession.frames', frames }]);
  });

  it('forwards outgoing frames once open, and queues those sent before, after the first frame', () => {
    const t = start({ firstFrame: { config: 1 } });
    t.child.send({ type: 'socketSession.send', frame: { type: 'early' } });
    expect(t.raw.last().commands).toEqual([]);
    t.raw.last().open();
    t.child.send({ type: 'socketSession.send', frame: { type: 'stop' } });
    expect(t.sentFrames(0)).toEqual([{ config: 1 }, { type: 'early' }, { type: 'stop' }]);
    // An outgoing frame the raw socket refused comes back as a protocol error.
    t.raw.last().tell({ type: 'socket.protocolError', frameType: 'stop', error: 'bad', direction: 'outgoing' });
    expect(t.notices().at(-1)).toEqual({
      type: 'socketSession.protocolError',
      frameType: 'stop',
      error: 'bad',
      direction: 'outgoing',
    });
  });

  it('a connect time-out on the first attempt ends the session (no reconnect)', async () => {
    const t = start();
    t.fresh();
    await vi.advanceTimersByTimeAsync(policy.connectTimeoutMs - 1);
    expect(t.value()).toEqual({ live: 'connecting' });
    await vi.advanceTimersByTimeAsync(1);
    expect(t.fresh()).toEqual([
      { type: 'socketSession.timeout' },
      {
        type: 'socketSession.closed',
        code: 1006,
        reason: CONNECT_TIMEOUT_REASON,
        wasClean: false,
        gaveUp: false,
        everOpened: false,
      },
    ]);
    expect(t.value()).toBe('closed');
    expect(t.child.getSnapshot().status).toBe('done');
    expect(t.raw.last().stopped).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.raw.made).toHaveLength(1);
  });

  it('reconnects on listed codes after delayMs(1), delayMs(2), … and gives up when attempts run out', async () => {
    const t = start();
    t.raw.last().open();
    t.fresh();
    t.raw.last().close(1006, 'dropped');
    for (let attempt = 1; attempt <= policy.maxAttempts; attempt++) {
      expect(t.fresh()).toEqual([
        { type: 'socketSession.retrying', attempt, maxAttempts: 3, code: 1006, reason: attempt === 1 ? 'dropped' : '' },
      ]);
      expect(t.value()).toBe('waiting');
      expect(t.child.getSnapshot().hasTag('reconnecting')).toBe(true);
      await vi.advanceTimersByTimeAsync(policy.delayMs(attempt) - 1);
      expect(t.raw.made).toHaveLength(attempt);
      await vi.advanceTimersByTimeAsync(1);
      expect(t.raw.made).toHaveLength(attempt + 1);
      expect(t.fresh()).toEqual([{ type: 'socketSession.connecting', attempt }]);
      t.raw.last().close(1006);
    }
    expect(t.fresh()).toEqual([
      { type: 'socketSession.closed', code: 1006, reason: '', wasClean: false, gaveUp: true, everOpened: true },
    ]);
    expect(t.value()).toBe('closed');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.raw.made).toHaveLength(1 + policy.maxAttempts);
  });

  it('does not reconnect on a code that is not listed', async () => {
    for (const code of [1000, 1008, 1003]) {
      const t = start();
      t.raw.last().open();
      t.fresh();
      t.raw.last().close(code, 'why');
      expect(t.fresh()).toEqual([
        { type: 'socketSession.closed', code, reason: 'why', wasClean: code === 1000, gaveUp: false, everOpened: true },
      ]);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(t.raw.made).toHaveLength(1);
      t.root.stop();
    }
  });

  it('a successful reconnect tells open with its attempt and starts the count again', async () => {
    const t = start();
    t.raw.last().open();
    t.raw.last().close(1006);
    await vi.advanceTimersByTimeAsync(policy.delayMs(1));
    t.raw.last().close(1011);
    await vi.advanceTimersByTimeAsync(policy.delayMs(2));
    t.fresh();
    t.raw.last().open();
    expect(t.fresh()).toEqual([{ type: 'socketSession.open', attempt: 2 }]);
    expect(t.child.getSnapshot().context.attempt).toBe(0);
    t.raw.last().close(1006);
    expect(t.fresh()).toEqual([{ type: 'socketSession.retrying', attempt: 1, maxAttempts: 3, code: 1006, reason: '' }]);
    await vi.advanceTimersByTimeAsync(policy.delayMs(1));
    expect(t.raw.made).toHaveLength(4);
  });

  it('a connect time-out on a reconnect counts as a failed attempt', async () => {
    const t = start();
    t.raw.last().open();
    t.raw.last().close(1006);
    await vi.advanceTimersByTimeAsync(policy.delayMs(1));
    t.fresh();
    await vi.advanceTimersByTimeAsync(policy.connectTimeoutMs);
    expect(t.fresh()).toEqual([
      { type: 'socketSession.timeout' },
      { type: 'socketSession.retrying', attempt: 2, maxAttempts: 3, code: 1006, reason: CONNECT_TIMEOUT_REASON },
    ]);
    expect(t.raw.made[1].stopped).toBe(true);
    await vi.advanceTimersByTimeAsync(policy.delayMs(2));
    await vi.advanceTimersByTimeAsync(policy.connectTimeoutMs);
    await vi.advanceTimersByTimeAsync(policy.delayMs(3));
    t.fresh();
    await vi.advanceTimersByTimeAsync(policy.connectTimeoutMs);
    expect(t.fresh()).toEqual([
      { type: 'socketSession.timeout' },
      {
        type: 'socketSession.closed',
        code: 1006,
        reason: CONNECT_TIMEOUT_REASON,
        wasClean: false,
        gaveUp: true,
        everOpened: true,
      },
    ]);
    expect(t.raw.made).toHaveLength(4);
  });

  it('sends the first frame on every open, so a reconnect resumes the same session', async () => {
    const config = { session_id: 'session_1', agent_ids: ['a', 'b'] };
    const t = start({ firstFrame: config });
    t.raw.last().open();
    t.raw.last().close(1006);
    await vi.advanceTimersByTimeAsync(policy.delayMs(1));
    expect(t.sentFrames(1)).toEqual([]);
    t.raw.last().open();
    expect(t.sentFrames(0)).toEqual([config]);
    expect(t.sentFrames(1)).toEqual([config]);
  });

  it('the parent closes it with its code (default 1000), and it does not reconnect', async () => {
    const t = start();
    t.raw.last().open();
    t.fresh();
    t.child.send({ type: 'socketSession.close' });
    expect(t.raw.last().commands).toEqual([{ type: 'socket.close', code: 1000, reason: undefined }]);
    expect(t.fresh()).toEqual([
      { type: 'socketSession.closed', code: 1000, reason: '', wasClean: true, gaveUp: false, everOpened: true },
    ]);

    const u = start();
    u.raw.last().open();
    u.fresh();
    u.child.send({ type: 'socketSession.close', code: 1011, reason: 'going' });
    expect(u.fresh()).toEqual([
      { type: 'socketSession.closed', code: 1011, reason: 'going', wasClean: true, gaveUp: false, everOpened: true },
    ]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(u.raw.made).toHaveLength(1);
  });

  it('a close the socket never confirms still ends after a grace period; a close while waiting ends at once', async () => {
    const t = start();
    t.raw.last().open();
    // A raw socket that swallows its close command.
    t.raw.last().tell = () => undefined;
    t.child.send({ type: 'socketSession.close', code: 1000 });
    expect(t.value()).toEqual({ live: 'closing' });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(t.value()).toBe('closed');

    const u = start();
    u.raw.last().open();
    u.raw.last().close(1006);
    u.child.send({ type: 'socketSession.close' });
    expect(u.value()).toBe('closed');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(u.raw.made).toHaveLength(1);
  });

  it('with reconnectBeforeFirstOpen false, a socket that never opened does not reconnect', () => {
    const t = start({ policy: { ...policy, reconnectBeforeFirstOpen: false } });
    t.raw.last().close(1006);
    expect(t.notices().at(-1)).toEqual({
      type: 'socketSession.closed',
      code: 1006,
      reason: '',
      wasClean: false,
      gaveUp: false,
      everOpened: false,
    });
    const u = start();
    u.raw.last().close(1006);
    expect(u.value()).toBe('waiting');
  });
});
