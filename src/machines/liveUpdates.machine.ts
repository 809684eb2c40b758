// Live updates (docs/product.md#workspace-states, #workspace-calls): /ws/updates and /ws/system, each a liveChannel
// with its own reconnects. Keeps what the footer and the debug view show: each channel's status and the last 10
// connection problems.
import { assign, setup, type ActorRefFrom, type AnyActorLogic, type SnapshotFrom } from 'xstate';
import { CONNECTION_ERROR_LOG_SIZE } from '../schemas/constants';
import {
  liveChannelMachine,
  withChannelSocket,
  type ChannelNotice,
  type ChannelStatus,
  type LiveChannelName,
} from './liveChannel.machine';

export interface ConnectionProblem {
  channel: LiveChannelName;
  message: string;
  code?: number;
}

export interface LiveUpdatesContext {
  channels: Record<LiveChannelName, ChannelStatus>;
  /** The last CONNECTION_ERROR_LOG_SIZE problems, oldest first. */
  errors: ConnectionProblem[];
}

export type LiveUpdatesEvent = ChannelNotice;

export const LIVE_PATHS: Record<LiveChannelName, string> = { updates: '/ws/updates', system: '/ws/system' };

export const liveUpdatesMachine = setup({
  types: {
    context: {} as LiveUpdatesContext,
    events: {} as LiveUpdatesEvent,
    children: {} as { updates: 'liveChannel'; system: 'liveChannel' },
  },
  actors: { liveChannel: liveChannelMachine },
}).createMachine({
  id: 'liveUpdates',
  context: { channels: { updates: 'connecting', system: 'connecting' }, errors: [] },
  invoke: [
    {
      src: 'liveChannel',
      id: 'updates',
      input: ({ self }) => ({
        channel: 'updates',
        path: LIVE_PATHS.updates,
        requestStatsOnOpen: false,
        resyncOnReconnect: true,
        parent: self,
      }),
    },
    {
      src: 'liveChannel',
      id: 'system',
      input: ({ self }) => ({
        channel: 'system',
        path: LIVE_PATHS.system,
        requestStatsOnOpen: true,
        resyncOnReconnect: false,
        parent: self,
      }),
    },
  ],
  on: {
    'channel.status': {
      actions: assign({ channels: ({ context, event }) => ({ ...context.channels, [event.channel]: event.status }) }),
    },
    'channel.problem': {
      actions: assign({
        errors: ({ context, event }) =>
          [...context.errors, { channel: event.channel, message: event.message, code: event.code }].slice(
            -CONNECTION_ERROR_LOG_SIZE,
          ),
      }),
    },
  },
});

/** liveUpdates with the given socket logic inside both channels (the composition root and tests use this). */
export function withLiveSocket(socket: AnyActorLogic) {
  return liveUpdatesMachine.provide({ actors: { liveChannel: withChannelSocket(socket) } });
}

export type LiveUpdatesActorRef = ActorRefFrom<typeof liveUpdatesMachine>;
export type LiveUpdatesSnapshot = SnapshotFrom<typeof liveUpdatesMachine>;

declare module './kit/systemRegistry' {
  interface SystemActors {
    liveUpdates: ActorRefFrom<typeof liveUpdatesMachine>;
  }
}
