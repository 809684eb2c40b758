// One live-update socket with its reconnect rule (docs/product.md#workspace-calls): up to LIVE_RECONNECT_MAX_ATTEMPTS
// attempts, LIVE_RECONNECT_BASE_DELAY_MS × the attempt number apart, none after a normal close (1000). The socket
// lifecycle itself is a socketSession (the app's one socket chart) with that policy; this machine translates its
// notices: valid frames go to the workspace as 'live.frame', status changes and problems go to the parent
// (liveUpdates), giving up raises the 'Connection issue' toast. New with socketSession: a first connect that does not
// open within LIVE_CONNECT_TIMEOUT_MS ends the channel like giving up does (problem + toast + closed).
//   live (session running: connecting → connected ⇄ reconnecting) → closed
import {
  assertEvent,
  assign,
  enqueueActions,
  setup,
  type ActorRefFrom,
  type AnyActorLogic,
  type SnapshotFrom,
} from 'xstate';
import { CLOSE_CODE_EXPLANATIONS, CLOSE_NORMAL } from '../schemas/constants';
import type { LiveClientFrame, LiveServerFrame } from '../schemas/liveUpdates';
import { DISCUSSION_MESSAGES, SHELL_MESSAGES } from '../schemas/messages';
import { socketSessionMachine, type SocketSessionCommand, type SocketSessionNotice } from './socketSession.machine';
import { LIVE_SOCKET_POLICY } from '../model/socketPolicies';
import { notifyToasts, type ParentInput } from './kit/actorKit';
import { systemActor } from './kit/systemRegistry';

export type LiveChannelName = 'updates' | 'system';
export type ChannelStatus = 'connecting' | 'connected' | 'reconnecting' | 'closed';

export interface LiveChannelInput extends ParentInput {
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

export type LiveChannelEvent = SocketSessionNotice<LiveServerFrame>;

/** What the workspace receives for every valid frame, and after a reconnect of /ws/updates. */
export type LiveFrameEvent = { type: 'live.frame'; frame: LiveServerFrame };
export type LiveResyncEvent = { type: 'live.resync' };

export function describeClose(code: number, reason: string) {
  const meaning = CLOSE_CODE_EXPLANATIONS[code];
  return `Closed with code ${code}${meaning ? ` (${meaning})` : ''}${reason ? `: ${reason}` : ''}`;
}

const getStats: SocketSessionCommand = {
  type: 'socketSession.send',
  frame: { type: 'get_stats' } satisfies LiveClientFrame,
};

export const liveChannelMachine = setup({
  types: {
    context: {} as LiveChannelContext,
    events: {} as LiveChannelEvent,
    input: {} as LiveChannelInput,
    tags: {} as 'connected' | 'reconnecting' | 'closed',
    children: {} as { session: 'socketSession' },
  },
  actors: { socketSession: socketSessionMachine },
  guards: {
    isNormalClose: ({ event }) => {
      assertEvent(event, 'socketSession.closed');
      return event.code === CLOSE_NORMAL;
    },
    isReconnect: ({ event }) => {
      assertEvent(event, 'socketSession.open');
      return event.attempt > 0;
    },
  },
  actions: {
    recordAttempt: assign({
      attempt: ({ event }) => {
        assertEvent(event, ['socketSession.connecting', 'socketSession.retrying']);
        return event.attempt;
      },
    }),
    resetAttempts: assign({ attempt: 0 }),
    requestStats: enqueueActions(({ context, enqueue }) => {
      if (context.requestStatsOnOpen) enqueue.sendTo('session', getStats);
    }),
    forwardFrame: enqueueActions(({ event, system, enqueue }) => {
      assertEvent(event, 'socketSession.frame');
      const forward: LiveFrameEvent = { type: 'live.frame', frame: event.frame };
      // A built-in model download's progress is the Built-in section's (there while the Models dialog is open);
      // other model frames (pulls, changed connections) are the models chart's; every other one the workspace's.
      const type = event.frame.type;
      const to = systemActor(
        system,
        type === 'model_download' ? 'builtinModels' : type.startsWith('model_') ? 'models' : 'workspace',
      );
      if (to) enqueue.sendTo(to, forward);
    }),
    resyncWorkspace: enqueueActions(({ context, system, enqueue }) => {
      const resync: LiveResyncEvent = { type: 'live.resync' };
      if (!context.resyncOnReconnect) return;
      for (const to of [systemActor(system, 'workspace'), systemActor(system, 'models')])
        if (to) enqueue.sendTo(to, resync);
    }),
    report: enqueueActions(({ context, enqueue }, params: { status: ChannelStatus }) => {
      if (context.parent)
        enqueue.sendTo(context.parent, {
          type: 'channel.status',
          channel: context.channel,
          status: params.status,
          attempt: context.attempt,
        } satisfies ChannelNotice);
    }),
    reportProblem: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, [
        'socketSession.retrying',
        'socketSession.closed',
        'socketSession.error',
        'socketSession.protocolError',
      ]);
      const parent = context.parent;
      if (!parent) return;
      let message: string | null = null;
      let code: number | undefined;
      if (
        event.type === 'socketSession.retrying' ||
        (event.type === 'socketSession.closed' && event.code !== CLOSE_NORMAL)
      ) {
        message = describeClose(event.code, event.reason);
        code = event.code;
      } else if (event.type === 'socketSession.error') message = event.message;
      else if (event.type === 'socketSession.protocolError')
        message = DISCUSSION_MESSAGES.protocolError(event.frameType);
      if (message)
        enqueue.sendTo(parent, {
          type: 'channel.problem',
          channel: context.channel,
          message,
          code,
        } satisfies ChannelNotice);
    }),
    notify: enqueueActions(notifyToasts),
  },
}).createMachine({
  id: 'liveChannel',
  context: ({ input }) => ({ ...input, attempt: 0 }),
  initial: 'live',
  states: {
    live: {
      invoke: {
        src: 'socketSession',
        id: 'session',
        input: ({ context, self }) => ({ path: context.path, policy: LIVE_SOCKET_POLICY, parent: self }),
      },
      initial: 'connecting',
      on: {
        'socketSession.frame': { actions: 'forwardFrame' },
        'socketSession.protocolError': { actions: 'reportProblem' },
        'socketSession.error': { actions: 'reportProblem' },
        'socketSession.retrying': { target: '.reconnecting', actions: ['reportProblem', 'recordAttempt'] },
        // A time-out is followed by 'retrying' or 'closed', which say what happens next.
        'socketSession.timeout': {},
        'socketSession.closed': [
          { guard: 'isNormalClose', target: 'closed' },
          {
            target: 'closed',
            actions: [
              'reportProblem',
              { type: 'notify', params: { kind: 'error', text: SHELL_MESSAGES.connectionIssue } },
            ],
          },
        ],
      },
      states: {
        connecting: {
          entry: {
            type: 'report',
            params: ({ context }) => ({ status: context.attempt > 0 ? 'reconnecting' : 'connecting' }),
          },
          on: {
            'socketSession.connecting': { actions: 'recordAttempt' },
            'socketSession.open': [
              // The resync looks at whether this open is a reconnect, so it runs before the count is reset.
              { guard: 'isReconnect', target: 'connected', actions: ['resyncWorkspace', 'resetAttempts'] },
              { target: 'connected', actions: 'resetAttempts' },
            ],
          },
        },
        connected: {
          tags: 'connected',
          entry: [{ type: 'report', params: { status: 'connected' } }, 'requestStats'],
        },
        reconnecting: {
          tags: 'reconnecting',
          entry: { type: 'report', params: { status: 'reconnecting' } },
          on: { 'socketSession.connecting': { target: 'connecting', actions: 'recordAttempt' } },
        },
      },
    },
    closed: {
      tags: 'closed',
      entry: { type: 'report', params: { status: 'closed' } },
    },
  },
});

/** liveChannel with the given raw socket logic inside its socketSession. */
export function withChannelSocket(socket: AnyActorLogic) {
  return liveChannelMachine.provide({
    actors: { socketSession: socketSessionMachine.provide({ actors: { socket } }) },
  });
}

export type LiveChannelActorRef = ActorRefFrom<typeof liveChannelMachine>;
export type LiveChannelSnapshot = SnapshotFrom<typeof liveChannelMachine>;
