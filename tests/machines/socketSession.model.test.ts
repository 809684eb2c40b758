// Model-based paths for socketSession: xstate/graph walks the chart, fed the events the raw socket actor would
// produce (open, frames, errors, closes), the parent's commands and the chart's own timers; every shortest path is
// replayed against a running session whose raw socket is a test double speaking those same events, on fake timers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, type AnyEventObject, type SnapshotFrom } from 'xstate';
import { TestModel } from 'xstate/graph';
import {
  socketSessionMachine,
  type SocketPolicy,
  type SocketSessionEvent,
  type SocketSessionInput,
} from '../../src/machines/socketSession.machine';
import type { SocketCommand, SocketEvent, SocketInput } from '../../src/model/socketEvents';
import { SOCKET_CLOSE_GRACE_MS } from '../../src/schemas/constants';
import { reachedValues, replayEachPath } from '../support/modelPaths';

type Snap = SnapshotFrom<typeof socketSessionMachine>;
type AfterEvent = { type: `xstate.after.${string}` };
type ModelEvent = SocketSessionEvent | AfterEvent;

const policy: SocketPolicy = { connectTimeoutMs: 100, reconnectOn: [1006], maxAttempts: 2, delayMs: (n) => n * 10 };
const input: SocketSessionInput = { path: '/ws/x', firstFrame: { hello: true }, policy };

/** The chart's timers, by the state that owns them, and how long each runs from a given snapshot. */
const AFTER = {
  'xstate.after.connectTimeout.socketSession.live.connecting': {
    state: 'socketSession.live.connecting',
    ms: () => policy.connectTimeoutMs,
  },
  'xstate.after.reconnectDelay.socketSession.waiting': {
    state: 'socketSession.waiting',
    ms: (s: Snap) => policy.delayMs(s.context.attempt),
  },
  'xstate.after.closeGrace.socketSession.live.closing': {
    state: 'socketSession.live.closing',
    ms: () => SOCKET_CLOSE_GRACE_MS,
  },
} as const;

const fixtures = {
  'socket.open': [{ type: 'socket.open' }],
  'socket.frame': [{ type: 'socket.frame', frame: { type: 'text' } }],
  'socket.frames': [{ type: 'socket.frames', frames: [{ type: 'text' }, { type: 'text' }] }],
  'socket.unknown': [{ type: 'socket.unknown', frameType: 'new' }],
  'socket.protocolError': [{ type: 'socket.protocolError', frameType: 'text', error: 'bad', direction: 'incoming' }],
  'socket.error': [{ type: 'socket.error', message: 'boom' }],
  'socket.closed': [
    { type: 'socket.closed', code: 1006, reason: '', wasClean: false },
    { type: 'socket.closed', code: 1000, reason: '', wasClean: true },
  ],
  'socketSession.send': [{ type: 'socketSession.send', frame: { type: 'stop' } }],
  'socketSession.close': [{ type: 'socketSession.close' }],
} satisfies { [K in SocketSessionEvent['type']]: Extract<SocketSessionEvent, { type: K }>[] };

const allEvents = [...Object.values(fixtures).flat(), ...Object.keys(AFTER).map((type) => ({ type }))] as ModelEvent[];

/** The raw socket speaks only while it exists (in `live`); timers fire only in the state that owns them. */
function canHappen(s: Snap, e: ModelEvent): boolean {
  if (s.status !== 'active') return false;
  if (e.type in AFTER) return s._nodes.some((n) => n.id === AFTER[e.type as keyof typeof AFTER].state);
  if (e.type === 'socket.open') return s.matches({ live: 'connecting' });
  if (e.type === 'socket.frame' || e.type === 'socket.frames')
    return s.matches({ live: 'open' }) || s.matches({ live: 'closing' });
  if (e.type.startsWith('socket.')) return s.matches('live');
  return true;
}

// The outbox is left out of the key so the graph stays finite (socketSession.test.ts covers what it holds).
const serializeState = (s: Snap) =>
  JSON.stringify([s.value, s.status, s.context.attempt, s.context.everOpened, s.context.ending]);

function sut() {
  let speak: ((e: SocketEvent<unknown>) => void) | null = null;
  const sockets: SocketCommand<unknown>[][] = [];
  const raw = fromCallback<SocketCommand<unknown>, SocketInput, SocketEvent<unknown>>(({ sendBack, receive }) => {
    const commands: SocketCommand<unknown>[] = [];
    sockets.push(commands);
    speak = sendBack;
    receive((c) => void commands.push(c));
    return () => (speak = null);
  });
  const actor = createActor(socketSessionMachine.provide({ actors: { socket: raw } }), { input }).start();
  const fromSocket = async ({ event }: { event: AnyEventObject }) => void speak!(event as SocketEvent<unknown>);
  const command = async ({ event }: { event: AnyEventObject }) => void actor.send(event as SocketSessionEvent);
  const timer = async ({ event }: { event: AnyEventObject }) => {
    await vi.advanceTimersByTimeAsync(AFTER[event.type as keyof typeof AFTER].ms(actor.getSnapshot()));
  };
  return {
    actor,
    sockets,
    exec: {
      'socket.open': fromSocket,
      'socket.frame': fromSocket,
      'socket.frames': fromSocket,
      'socket.unknown': fromSocket,
      'socket.protocolError': fromSocket,
      'socket.error': fromSocket,
      'socket.closed': fromSocket,
      'socketSession.send': command,
      'socketSession.close': command,
      ...Object.fromEntries(Object.keys(AFTER).map((type) => [type, timer])),
    } satisfies Record<SocketSessionEvent['type'], unknown>,
  };
}

describe('socketSession model', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const model = new TestModel(socketSessionMachine, {
    input,
    events: allEvents,
    serializeState: serializeState as never,
    filterEvents: canHappen as never,
  } as never);
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches every state the chart has', () => {
    expect(reachedValues(paths)).toEqual(
      ['"closed"', '"waiting"', '{"live":"closing"}', '{"live":"connecting"}', '{"live":"open"}'].sort(),
    );
  });

  it('reaches a gave-up ending and a timed-out ending', () => {
    const endings = paths.map((p) => (p.state as Snap).context.ending);
    expect(endings.some((e) => e.gaveUp)).toBe(true);
    expect(endings.some((e) => e.reason === 'connect timeout' && !e.gaveUp)).toBe(true);
  });

  replayEachPath<Snap>(paths, sut, (got, expected) => {
    expect(got.value).toEqual(expected.value);
    expect(got.status).toBe(expected.status);
    const { outbox: _got, ...gotContext } = got.context;
    const { outbox: _expected, ...expectedContext } = expected.context;
    expect(gotContext).toEqual(expectedContext);
  });
});
