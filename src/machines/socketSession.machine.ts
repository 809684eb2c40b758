// The one socket lifecycle of the app (docs/architecture.md#the-actor-tree): live updates, both discussion panels
// and the debugger each invoke a socketSession with a path, an optional first frame and a policy, and hear about it
// only through the notices below, sent to the `parent` their input names. The raw socket (src/services/socket.ts, `fromSocket(server, client)`)
// is the invoked `socket` actor; it is a placeholder here and provided by the composition root:
//   socketSessionMachine.provide({ actors: { socket: fromSocket(serverSchema, clientSchema) } })
//
//   live ─┬─ connecting ── socket.open ──► open ── socketSession.close ──► closing
//         │   (after connectTimeout)                                        │ socket.closed / after closeGrace
//         └─ socket.closed: reconnect code and attempts left ──► waiting    ▼
//                            otherwise ─────────────────────────────────► closed (final)
//   waiting ── after reconnectDelay (policy.delayMs(attempt)) ──► live
//
// - `firstFrame` is sent on EVERY open, before anything queued, so a reconnect re-sends the same configuration
//   (same session_id) and the server resumes.
// - A close whose code is in `policy.reconnectOn` reconnects while attempts remain (`socketSession.retrying`);
//   when they run out the session ends with `gaveUp: true`. Any other code ends it.
// - A connect time-out on the first attempt ends the session; on a reconnect it counts as a failed attempt.
//   A time-out is recorded as a close with CLOSE_ABNORMAL and the reason CONNECT_TIMEOUT_REASON.
// - Attempts count reconnects since the socket was last open; a successful open resets them.
// - Frames the parent sends while the socket is not open yet (connecting, waiting) are queued and sent after the
//   first frame on the next open; once closing or closed they are dropped.
import { and, assertEvent, assign, enqueueActions, fromCallback, setup } from 'xstate';
import type { ActorRefFrom, AnyActorLogic, AnyActorRef, SnapshotFrom } from 'xstate';
import { CLOSE_NORMAL, SOCKET_CLOSE_GRACE_MS } from '../schemas/constants';
import type { SocketCommand, SocketEvent, SocketInput } from '../model/socketEvents';
import { notProvided, type ParentInput } from './kit/actorKit';
import {
  closeOf,
  type SocketSessionContext,
  type SocketSessionEvent,
  type SocketSessionInput,
  type SocketSessionNotice,
} from './kit/socketSession';

export type { SocketPolicy } from '../model/socketPolicies';
export {
  CONNECT_TIMEOUT_REASON,
  type SocketSessionCommand,
  type SocketSessionContext,
  type SocketSessionEvent,
  type SocketSessionInput,
  type SocketSessionNotice,
} from './kit/socketSession';
/** Tells the parent its input named, if any (a standalone session, as in the model test, has nobody to tell). */
function tell(
  context: ParentInput,
  enqueue: { sendTo: (to: AnyActorRef, event: SocketSessionNotice) => void },
  notice: SocketSessionNotice,
) {
  if (context.parent) enqueue.sendTo(context.parent, notice);
}

export const socketSessionMachine = setup({
  types: {
    context: {} as SocketSessionContext,
    events: {} as SocketSessionEvent,
    input: {} as SocketSessionInput,
    tags: {} as 'open' | 'reconnecting' | 'closed',
    children: {} as { socket: 'socket' },
  },
  actors: {
    socket: fromCallback<SocketCommand<unknown>, SocketInput, SocketEvent<unknown>>(
      notProvided('socketSession', 'socket'),
    ),
  },
  delays: {
    connectTimeout: ({ context }) => context.policy.connectTimeoutMs,
    reconnectDelay: ({ context }) => context.policy.delayMs(context.attempt),
    closeGrace: SOCKET_CLOSE_GRACE_MS,
  },
  guards: {
    isReconnectClose: ({ context, event }) => {
      assertEvent(event, 'socket.closed');
      return (
        context.policy.reconnectOn.includes(event.code) &&
        (context.everOpened || context.policy.reconnectBeforeFirstOpen !== false)
      );
    },
    isReconnecting: ({ context }) => context.attempt > 0,
    hasAttemptsLeft: ({ context }) => context.attempt < context.policy.maxAttempts,
  },
  actions: {
    countAttempt: assign({ attempt: ({ context }) => context.attempt + 1 }),
    markOpen: assign({ attempt: 0, everOpened: true }),
    sendFirstFrame: enqueueActions(({ context, enqueue }) => {
      if (context.firstFrame !== undefined)
        enqueue.sendTo('socket', { type: 'socket.send', frame: context.firstFrame } satisfies SocketCommand<unknown>);
    }),
    flushOutbox: enqueueActions(({ context, enqueue }) => {
      for (const frame of context.outbox)
        enqueue.sendTo('socket', { type: 'socket.send', frame } satisfies SocketCommand<unknown>);
      enqueue.assign({ outbox: [] });
    }),
    queueFrame: assign({
      outbox: ({ context, event }) => {
        assertEvent(event, 'socketSession.send');
        return [...context.outbox, event.frame];
      },
    }),
    forwardFrame: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'socketSession.send');
      enqueue.sendTo('socket', { type: 'socket.send', frame: event.frame } satisfies SocketCommand<unknown>);
    }),
    closeSocket: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'socketSession.close');
      enqueue.sendTo('socket', {
        type: 'socket.close',
        code: event.code ?? CLOSE_NORMAL,
        reason: event.reason,
      } satisfies SocketCommand<unknown>);
    }),
    /** The parent's own close: recorded as clean, never a reason to reconnect. */
    recordRequestedClose: assign({
      ending: ({ event }) => {
        assertEvent(event, 'socketSession.close');
        return { code: event.code ?? CLOSE_NORMAL, reason: event.reason ?? '', wasClean: true, gaveUp: false };
      },
    }),
    /** Keeps the code the parent asked for; the socket's own report adds whether it was clean. */
    recordClosedAfterRequest: assign({
      ending: ({ context, event }) => {
        assertEvent(event, 'socket.closed');
        return { ...context.ending, wasClean: event.wasClean };
      },
    }),
    recordEnding: assign({
      ending: ({ event }, params: { gaveUp: boolean }) => ({ ...closeOf(event), gaveUp: params.gaveUp }),
    }),
    tellConnecting: enqueueActions(({ context, enqueue }) => {
      tell(context, enqueue, { type: 'socketSession.connecting', attempt: context.attempt });
    }),
    tellOpen: enqueueActions(({ context, enqueue }) => {
      tell(context, enqueue, { type: 'socketSession.open', attempt: context.attempt });
    }),
    tellFrame: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'socket.frame');
      tell(context, enqueue, { type: 'socketSession.frame', frame: event.frame });
    }),
    /** Frames that arrived together: as one notice to a parent that takes batches, one by one to any other. */
    tellFrames: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'socket.frames');
      if (context.batches) tell(context, enqueue, { type: 'socketSession.frames', frames: event.frames });
      else for (const frame of event.frames) tell(context, enqueue, { type: 'socketSession.frame', frame });
    }),
    tellProtocolError: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'socket.protocolError');
      const { frameType, error, direction } = event;
      tell(context, enqueue, { type: 'socketSession.protocolError', frameType, error, direction });
    }),
    tellError: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'socket.error');
      tell(context, enqueue, { type: 'socketSession.error', message: event.message, everOpened: context.everOpened });
    }),
    tellTimeout: enqueueActions(({ context, enqueue }) => tell(context, enqueue, { type: 'socketSession.timeout' })),
    /** After countAttempt: the attempt told is the reconnect about to be made. */
    tellRetrying: enqueueActions(({ context, event, enqueue }) => {
      const { code, reason } = closeOf(event);
      tell(context, enqueue, {
        type: 'socketSession.retrying',
        attempt: context.attempt,
        maxAttempts: context.policy.maxAttempts,
        code,
        reason,
      });
    }),
    tellClosed: enqueueActions(({ context, enqueue }) => {
      tell(context, enqueue, { type: 'socketSession.closed', ...context.ending, everOpened: context.everOpened });
    }),
  },
}).createMachine({
  id: 'socketSession',
  context: ({ input }) => ({
    ...input,
    attempt: 0,
    everOpened: false,
    outbox: [],
    ending: { code: CLOSE_NORMAL, reason: '', wasClean: true, gaveUp: false },
  }),
  initial: 'live',
  states: {
    live: {
      invoke: { src: 'socket', id: 'socket', input: ({ context }) => ({ path: context.path, query: context.query }) },
      initial: 'connecting',
      on: {
        // Unknown frame types were already logged by the raw socket; the spec says to ignore them.
        'socket.unknown': {},
        'socket.frame': { actions: 'tellFrame' },
        'socket.frames': { actions: 'tellFrames' },
        'socket.protocolError': { actions: 'tellProtocolError' },
        'socket.error': { actions: 'tellError' },
        'socket.closed': [
          {
            guard: and(['isReconnectClose', 'hasAttemptsLeft']),
            target: 'waiting',
            actions: ['countAttempt', 'tellRetrying'],
          },
          { guard: 'isReconnectClose', target: 'closed', actions: { type: 'recordEnding', params: { gaveUp: true } } },
          { target: 'closed', actions: { type: 'recordEnding', params: { gaveUp: false } } },
        ],
        'socketSession.close': { target: '.closing', actions: ['recordRequestedClose', 'closeSocket'] },
      },
      states: {
        connecting: {
          entry: 'tellConnecting',
          on: {
            'socket.open': { target: 'open', actions: ['sendFirstFrame', 'flushOutbox', 'tellOpen', 'markOpen'] },
            'socketSession.send': { actions: 'queueFrame' },
          },
          after: {
            connectTimeout: [
              {
                guard: and(['isReconnecting', 'hasAttemptsLeft']),
                target: '#socketSession.waiting',
                actions: ['tellTimeout', 'countAttempt', 'tellRetrying'],
              },
              {
                guard: 'isReconnecting',
                target: '#socketSession.closed',
                actions: ['tellTimeout', { type: 'recordEnding', params: { gaveUp: true } }],
              },
              {
                target: '#socketSession.closed',
                actions: ['tellTimeout', { type: 'recordEnding', params: { gaveUp: false } }],
              },
            ],
          },
        },
        open: {
          tags: 'open',
          on: {
            'socketSession.send': { actions: 'forwardFrame' },
          },
        },
        closing: {
          on: {
            'socket.closed': { target: '#socketSession.closed', actions: 'recordClosedAfterRequest' },
            'socketSession.close': {},
          },
          // A socket that never reports its close (a dead peer) does not keep the session open.
          after: { closeGrace: '#socketSession.closed' },
        },
      },
    },
    waiting: {
      tags: 'reconnecting',
      on: {
        'socketSession.send': { actions: 'queueFrame' },
        'socketSession.close': { target: 'closed', actions: 'recordRequestedClose' },
      },
      after: { reconnectDelay: 'live' },
    },
    closed: {
      type: 'final',
      tags: 'closed',
      entry: 'tellClosed',
    },
  },
});

/** socketSession with the given raw socket logic (the composition root and tests use this). */
export function withSessionSocket(socket: AnyActorLogic) {
  return socketSessionMachine.provide({ actors: { socket } });
}

export type SocketSessionActorRef = ActorRefFrom<typeof socketSessionMachine>;
export type SocketSessionSnapshot = SnapshotFrom<typeof socketSessionMachine>;
