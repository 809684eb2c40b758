// One live-update socket with its reconnect rule (part 1 §7): up to LIVE_RECONNECT_MAX_ATTEMPTS attempts,
// LIVE_RECONNECT_BASE_DELAY_MS × the attempt number apart, none after a normal close (1000). Valid frames go to
// the workspace as 'live.frame'; status changes and problems go to the parent (liveUpdates).
//   live (socket open or opening: connecting → connected) → waiting (delay) → live … → closed
import { assign, enqueueActions, fromCallback, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import {
  CLOSE_CODE_EXPLANATIONS,
  CLOSE_NORMAL,
  LIVE_RECONNECT_BASE_DELAY_MS,
  LIVE_RECONNECT_MAX_ATTEMPTS,
} from '../schemas/constants';
import type { LiveClientFrame, LiveServerFrame } from '../schemas/liveUpdates';
import { DISCUSSION_MESSAGES, SHELL_MESSAGES } from '../schemas/messages';
import type { SocketCommand, SocketEvent, SocketInput } from './socketEvents';
import type { ToastRequest } from './toastRequest';

export type LiveChannelName = 'updates' | 'system';
export type ChannelStatus = 'connecting' | 'connected' | 'reconnecting' | 'closed';

export interface LiveChannelInput {
  channel: LiveChannelName;
  path: string;
  /** /ws/system asks for stats as soon as it opens. */
  requestStatsOnOpen: boolean;
  /** /ws/updates: after a reconnect, changes made while the socket was down were missed; the workspace reloads. */
  resyncOnReconnect: boolean;
}

export interface LiveChannelContext extends LiveChannelInput {
  /** Reconnect attempts since the socket was last open. */
  attempt: number;
}

/** What a channel tells its parent. */
export type ChannelNotice =
  | { type: 'channel.status'; channel: LiveChannelName; status: ChannelStatus; attempt: number }
  | { type: 'channel.problem'; channel: LiveChannelName; message: string; code?: number };

export type LiveChannelEvent = SocketEvent<LiveServerFrame>;

/** What the workspace receives for every valid frame, and after a reconnect of /ws/updates. */
export type LiveFrameEvent = { type: 'live.frame'; frame: LiveServerFrame };
export type LiveResyncEvent = { type: 'live.resync' };

export function describeClose(code: number, reason: string) {
  const meaning = CLOSE_CODE_EXPLANATIONS[code];
  return `Closed with code ${code}${meaning ? ` (${meaning})` : ''}${reason ? `: ${reason}` : ''}`;
}

const getStats: SocketCommand<LiveClientFrame> = { type: 'socket.send', frame: { type: 'get_stats' } };

export const liveChannelMachine = setup({
  types: {
    context: {} as LiveChannelContext,
    events: {} as LiveChannelEvent,
    input: {} as LiveChannelInput,
    tags: {} as 'connected' | 'reconnecting' | 'closed',
    children: {} as { socket: 'socket' },
  },
  actors: {
    socket: fromCallback<SocketCommand<LiveClientFrame>, SocketInput, LiveChannelEvent>(() => undefined),
  },
  delays: {
    reconnectDelay: ({ context }) => context.attempt * LIVE_RECONNECT_BASE_DELAY_MS,
  },
  guards: {
    isNormalClose: ({ event }) => event.type === 'socket.closed' && event.code === CLOSE_NORMAL,
    canRetry: ({ context }) => context.attempt < LIVE_RECONNECT_MAX_ATTEMPTS,
  },
  actions: {
    countAttempt: assign({ attempt: ({ context }) => context.attempt + 1 }),
    resetAttempts: assign({ attempt: 0 }),
    requestStats: enqueueActions(({ context, enqueue }) => {
      if (context.requestStatsOnOpen) enqueue.sendTo('socket', getStats);
    }),
    forwardFrame: enqueueActions(({ event, system, enqueue }) => {
      if (event.type !== 'socket.frame') return;
      const workspace = system.get('workspace');
      const forward: LiveFrameEvent = { type: 'live.frame', frame: event.frame };
      if (workspace) enqueue.sendTo(workspace, forward);
    }),
    resyncWorkspace: enqueueActions(({ context, system, enqueue }) => {
      const workspace = system.get('workspace');
      const resync: LiveResyncEvent = { type: 'live.resync' };
      if (workspace && context.resyncOnReconnect && context.attempt > 0) enqueue.sendTo(workspace, resync);
    }),
    report: enqueueActions(({ context, self, enqueue }, params: { status: ChannelStatus }) => {
      if (self._parent) enqueue.sendParent({ type: 'channel.status', channel: context.channel, status: params.status, attempt: context.attempt } satisfies ChannelNotice);
    }),
    reportProblem: enqueueActions(({ context, event, self, enqueue }) => {
      if (!self._parent) return;
      let message: string | null = null;
      let code: number | undefined;
      if (event.type === 'socket.closed') {
        message = describeClose(event.code, event.reason);
        code = event.code;
      } else if (event.type === 'socket.error') message = event.message;
      else if (event.type === 'socket.protocolError') message = DISCUSSION_MESSAGES.protocolError(event.frameType);
      if (message) enqueue.sendParent({ type: 'channel.problem', channel: context.channel, message, code } satisfies ChannelNotice);
    }),
    notify: enqueueActions(({ system, enqueue }, params: ToastRequest) => {
      const toasts = system.get('toasts');
      if (toasts) enqueue.sendTo(toasts, { type: 'toast.show', ...params });
    }),
  },
}).createMachine({
  id: 'liveChannel',
  context: ({ input }) => ({ ...input, attempt: 0 }),
  initial: 'live',
  states: {
    live: {
      invoke: { src: 'socket', id: 'socket', input: ({ context }) => ({ path: context.path }) },
      initial: 'connecting',
      on: {
        'socket.frame': { actions: 'forwardFrame' },
        'socket.protocolError': { actions: 'reportProblem' },
        'socket.error': { actions: 'reportProblem' },
        // Unknown frame types were already logged by the socket; the spec says to ignore them.
        'socket.closed': [
          { guard: 'isNormalClose', target: 'closed' },
          { guard: 'canRetry', target: 'waiting', actions: ['reportProblem', 'countAttempt'] },
          { target: 'closed', actions: ['reportProblem', { type: 'notify', params: { kind: 'error', text: SHELL_MESSAGES.connectionIssue } }] },
        ],
      },
      states: {
        connecting: {
          entry: { type: 'report', params: ({ context }) => ({ status: context.attempt > 0 ? 'reconnecting' : 'connecting' }) },
          on: {
            // The resync looks at the attempt count, so it runs before the count is reset.
            'socket.open': { target: 'connected', actions: ['resyncWorkspace', 'resetAttempts'] },
          },
        },
        connected: {
          tags: 'connected',
          entry: [{ type: 'report', params: { status: 'connected' } }, 'requestStats'],
        },
      },
    },
    waiting: {
      tags: 'reconnecting',
      entry: { type: 'report', params: { status: 'reconnecting' } },
      after: { reconnectDelay: 'live' },
    },
    closed: {
      tags: 'closed',
      entry: { type: 'report', params: { status: 'closed' } },
    },
  },
});

export type LiveChannelActorRef = ActorRefFrom<typeof liveChannelMachine>;
export type LiveChannelSnapshot = SnapshotFrom<typeof liveChannelMachine>;
