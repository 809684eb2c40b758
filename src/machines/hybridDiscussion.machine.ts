// The hybrid panel (part 2 §2, §4 'Hybrid discussion', §7, §8). Parallel regions:
//   run      — idle → connecting (10 s time-out) → connected (configuration sent; rounds counted from round_start /
//              round_end) → ended by discussion_ended, Stop, a close or a fatal error. Stop sends `stop`, then
//              closes with 1000 after 500 ms. A 1006 drop reconnects with the same session_id (the server resumes;
//              the feed keys by id, so nothing shows twice). The socket is a socketSession child, as in the
//              standard panel.
//   settings — the panel's settings (part 2 §9 defaults), locked while connected; templates fill several at once.
//   modes    — /api/ws/hybrid/modes (descriptions and best_for) for the mode picker; optional.
//   export   — idle → exporting (the hybrid PDF).
import { assign, enqueueActions, fromPromise, setup, type ActorRefFrom, type AnyActorRef, type SnapshotFrom } from 'xstate';
import { applyFrame, closeOpenStreams, emptyFeed, type Feed } from '../model/feed';
import { selectCounts } from '../model/feedSelectors';
import { hybridStartProblem, hybridTemplate, type HybridTemplateName } from '../model/hybridConfig';
import {
  CLOSE_ABNORMAL, CLOSE_NORMAL, ENDPOINTS, HYBRID_CONNECT_TIMEOUT_MS, STANDARD_RECONNECT_BASE_DELAY_MS,
  STANDARD_RECONNECT_MAX_ATTEMPTS, STOP_CLOSE_DELAY_MS, sessionId as makeSessionId,
} from '../schemas/constants';
import type { HybridModeInfo } from '../schemas/hybridMeta';
import { hybridConfig, type HybridServerFrame } from '../schemas/hybridSocket';
import { DISCUSSION_MESSAGES } from '../schemas/messages';
import { defaults, hybridSettings, type HybridSettings } from '../schemas/settings';
import type { AudioQueueNotice } from './audioQueue.machine';
import { socketSessionMachine, type SocketSessionInput, type SocketSessionNotice } from './socketSession.machine';
import { agentStatus, statusesReset } from '../model/discussionRelay';
import { notProvided, notifyToasts } from '../model/actorKit';

export interface HybridRun {
  sessionId: string;
  agentIds: string[];
  topic: string;
  token: string | null;
  settings: HybridSettings;
  startedAt: number;
}

export interface HybridDiscussionContext {
  topic: string;
  settings: HybridSettings;
  modes: (HybridModeInfo & { id: string })[];
  run: HybridRun | null;
  feed: Feed;
  error: string | null;
  pendingProblem: string | null;
}

export type HybridDiscussionEvent =
  | { type: 'hybrid.topic.change'; text: string }
  | { type: 'hybrid.template.apply'; template: HybridTemplateName }
  | { type: 'hybrid.settings.update'; settings: HybridSettings }
  | { type: 'hybrid.start'; agentIds: string[]; token: string | null; now: number }
  | { type: 'hybrid.stop' }
  | { type: 'hybrid.audio.interrupt' }
  | { type: 'hybrid.error.dismiss' }
  | { type: 'hybrid.export'; now: number }
  | SocketSessionNotice<HybridServerFrame>
  | AudioQueueNotice;

export interface HybridExportRequest {
  feed: Feed;
  run: HybridRun;
  now: number;
}

const policy: SocketSessionInput['policy'] = {
  connectTimeoutMs: HYBRID_CONNECT_TIMEOUT_MS,
  reconnectOn: [CLOSE_ABNORMAL],
  maxAttempts: STANDARD_RECONNECT_MAX_ATTEMPTS,
  delayMs: (attempt) => attempt * STANDARD_RECONNECT_BASE_DELAY_MS,
  // Only a running discussion reconnects; a socket that never opened is 'Failed to establish connection' at once.
  reconnectBeforeFirstOpen: false,
};

const frameOf = (event: HybridDiscussionEvent) => (event.type === 'socketSession.frame' ? event.frame : null);

/** The first message exactly as part 2 §7 (the token travels in the query only); tts_config is null when speech is off. */
export function buildHybridConfig(run: HybridRun) {
  const { tts, tts_speed, tts_volume, ...rest } = run.settings;
  return hybridConfig.parse({
    ...rest,
    agent_ids: run.agentIds,
    topic: run.topic,
    session_id: run.sessionId,
    tts,
    tts_config: tts ? { ...defaults.tts, enabled: true, speed: tts_speed, volume: tts_volume, max_length: 300, format: 'wav' } : null,
  });
}

export const hybridDiscussionMachine = setup({
  types: {
    context: {} as HybridDiscussionContext,
    events: {} as HybridDiscussionEvent,
    tags: {} as 'idle' | 'connecting' | 'connected' | 'live' | 'reconnecting' | 'ended' | 'error' | 'exporting' | 'stopping',
    children: {} as { socket: 'socketSession'; modesLoader: 'loadModes'; exporter: 'exportHybridPdf' },
  },
  actors: {
    socketSession: socketSessionMachine,
    loadModes: fromPromise<(HybridModeInfo & { id: string })[]>(notProvided('hybridDiscussion', 'loadModes')),
    exportHybridPdf: fromPromise<void, HybridExportRequest>(notProvided('hybridDiscussion', 'exportHybridPdf')),
  },
  delays: {
    stopCloseDelay: STOP_CLOSE_DELAY_MS,
    /** After the close command, the run ends even if the close never comes back. */
    closeGrace: 1_000,
  },
  guards: {
    isStartValid: ({ context, event }) => event.type === 'hybrid.start' && hybridStartProblem(event.agentIds, context.topic) === null,
    isDiscussionEnded: ({ event }) => frameOf(event)?.type === 'discussion_ended',
    isFatalError: ({ event }) => {
      const frame = frameOf(event);
      return frame?.type === 'error' && frame.fatal === true;
    },
    isAbnormalGiveUp: ({ event }) => event.type === 'socketSession.closed' && event.code !== CLOSE_NORMAL && !!event.gaveUp,
    isUnexpectedClose: ({ context, event }) =>
      event.type === 'socketSession.closed' && (context.pendingProblem !== null || (event.code !== CLOSE_NORMAL && event.code !== 1001)),
    hasMessages: ({ context }) => selectCounts(context.feed).messages > 0,
    areSettingsValid: ({ event }) => event.type === 'hybrid.settings.update' && hybridSettings.safeParse(event.settings).success,
  },
  actions: {
    setTopic: assign({ topic: ({ context, event }) => (event.type === 'hybrid.topic.change' ? event.text : context.topic) }),
    applyTemplate: assign(({ context, event }) => {
      if (event.type !== 'hybrid.template.apply') return {};
      const t = hybridTemplate(event.template);
      return { settings: hybridSettings.parse({ ...context.settings, ...t.settings }), topic: context.topic.trim() ? context.topic : t.topic };
    }),
    applySettings: assign({ settings: ({ context, event }) => (event.type === 'hybrid.settings.update' ? hybridSettings.parse(event.settings) : context.settings) }),
    explainStartProblem: assign({ error: ({ context, event }) => (event.type === 'hybrid.start' ? hybridStartProblem(event.agentIds, context.topic) : context.error) }),
    beginRun: assign(({ context, event }) => {
      if (event.type !== 'hybrid.start') return {};
      return {
        run: {
          sessionId: makeSessionId(event.now), agentIds: [...new Set(event.agentIds)], topic: context.topic.trim(), token: event.token,
          settings: context.settings, startedAt: event.now,
        },
        feed: emptyFeed, error: null, pendingProblem: null,
      };
    }),
    applyIncoming: assign({ feed: ({ context, event }) => {
      const frame = frameOf(event);
      return frame ? applyFrame(context.feed, frame) : context.feed;
    } }),
    showServerError: assign({ error: ({ context, event }) => {
      const frame = frameOf(event);
      return frame?.type === 'error' ? frame.message : context.error;
    } }),
    relayAgentStatus: enqueueActions(({ event, system, enqueue }) => {
      const frame = frameOf(event);
      const workspace = system.get('workspace');
      if (!frame || !workspace) return;
      if (frame.type === 'agent_status') enqueue.sendTo(workspace, agentStatus(frame.agent_id, frame.status));
      // An agent whose turn is streaming holds the floor while it writes; the server's statuses take over after.
      else if (frame.type === 'agent_message_start') enqueue.sendTo(workspace, agentStatus(frame.agent_id, 'responding'));
    }),
    queueAudio: enqueueActions(({ context, event, system, self, enqueue }) => {
      const frame = frameOf(event);
      const queue = system.get('audioQueue') as AnyActorRef | undefined;
      if (!frame || !queue || !context.run?.settings.tts) return;
      if (frame.type === 'audio_message') {
        enqueue.sendTo(queue, {
          type: 'audio.enqueue', replyTo: self,
          item: {
            audioId: frame.audio_id, messageId: frame.message_id ?? null, url: frame.audio_url, agentId: frame.agent_id, agentName: frame.agent_name,
            speed: context.run.settings.tts_speed, volume: context.run.settings.tts_volume, requiresAck: true, synchronized: true,
          },
        });
      }
    }),
    markSpeaking: enqueueActions(({ event, system, enqueue }) => {
      const workspace = system.get('workspace');
      if (event.type === 'audio.started' && workspace) enqueue.sendTo(workspace, agentStatus(event.item.agentId, 'speaking'));
    }),
    markIdle: enqueueActions(({ event, system, enqueue }) => {
      const workspace = system.get('workspace');
      if (event.type === 'audio.finished' && workspace) enqueue.sendTo(workspace, agentStatus(event.item.agentId, 'idle'));
    }),
    /** The server paces turns by real playback: each completed clip is acknowledged. */
    acknowledgeAudio: enqueueActions(({ event, enqueue }) => {
      if (event.type !== 'audio.finished' || event.status !== 'completed') return;
      enqueue.sendTo('socket', { type: 'socketSession.send', frame: { type: 'audio_acknowledgment', audio_id: event.item.audioId, status: 'played', timestamp: new Date().toISOString() } });
    }),
    sendStop: enqueueActions(({ enqueue }) => enqueue.sendTo('socket', { type: 'socketSession.send', frame: { type: 'stop' } })),
    closeSocket: enqueueActions(({ enqueue }) => enqueue.sendTo('socket', { type: 'socketSession.close', code: CLOSE_NORMAL, reason: 'discussion over' })),
    interruptAudio: enqueueActions(({ system, enqueue }) => {
      const queue = system.get('audioQueue');
      if (queue) enqueue.sendTo(queue, { type: 'audio.interrupt' });
    }),
    stopSpeech: enqueueActions(({ system, enqueue }) => {
      const queue = system.get('audioQueue');
      if (queue) enqueue.sendTo(queue, { type: 'audio.clear' });
    }),
    resetStatuses: enqueueActions(({ system, enqueue }) => {
      const workspace = system.get('workspace');
      if (workspace) enqueue.sendTo(workspace, statusesReset());
    }),
    showRetrying: assign(({ event }) =>
      event.type === 'socketSession.retrying' ? { error: DISCUSSION_MESSAGES.connectionLostRetrying(event.attempt, event.maxAttempts), pendingProblem: null } : {},
    ),
    /** An open (first or resumed) clears the banner and forgets the socket error that came before a drop. */
    clearError: assign({ error: null, pendingProblem: null }),
    rememberSocketError: assign({
      pendingProblem: ({ event, context }) =>
        event.type === 'socketSession.error' ? (event.everOpened ? DISCUSSION_MESSAGES.hybridConnectionError : DISCUSSION_MESSAGES.hybridEstablishFailed) : context.pendingProblem,
    }),
    rememberTimeout: assign({ pendingProblem: DISCUSSION_MESSAGES.hybridTimeout }),
    showProtocolError: assign({
      error: ({ context, event }) => {
        if (event.type !== 'socketSession.protocolError') return context.error;
        // An outgoing frame refused by its schema on the way out is the configuration failing to send.
        return event.direction === 'outgoing' ? DISCUSSION_MESSAGES.hybridConfigFailed : DISCUSSION_MESSAGES.protocolError(event.frameType);
      },
    }),
    explainClose: assign({
      error: ({ context, event }) => {
        if (event.type !== 'socketSession.closed') return context.error;
        if (event.gaveUp) return DISCUSSION_MESSAGES.connectionLost(ENDPOINTS.hybrid.name);
        if (context.pendingProblem) return context.pendingProblem;
        if (event.code === 1008 || event.code === 1002) return DISCUSSION_MESSAGES.authFailed;
        if (event.code === CLOSE_NORMAL || event.code === 1001) return context.error;
        return DISCUSSION_MESSAGES.closedUnexpectedly(event.code, event.reason);
      },
      pendingProblem: null,
    }),
    dismissError: assign({ error: null }),
    /** A turn still streaming when the run is over will get no final frame. */
    closeStreams: assign({ feed: ({ context }) => closeOpenStreams(context.feed) }),
    notify: enqueueActions(notifyToasts),
  },
}).createMachine({
  id: 'hybridDiscussion',
  type: 'parallel',
  context: {
    topic: '',
    settings: defaults.hybrid,
    modes: [],
    run: null,
    feed: emptyFeed,
    error: null,
    pendingProblem: null,
  },
  on: {
    'hybrid.topic.change': { actions: 'setTopic' },
    'hybrid.error.dismiss': { actions: 'dismissError' },
    'hybrid.audio.interrupt': { actions: 'interruptAudio' },
  },
  states: {
    run: {
      initial: 'idle',
      states: {
        idle: {
          tags: 'idle',
          on: {
            'hybrid.start': [{ guard: 'isStartValid', target: 'session', actions: 'beginRun' }, { actions: 'explainStartProblem' }],
            'hybrid.template.apply': { actions: 'applyTemplate' },
            'hybrid.settings.update': { guard: 'areSettingsValid', actions: 'applySettings' },
          },
        },
        session: {
          invoke: {
            src: 'socketSession',
            id: 'socket',
            input: ({ context }): SocketSessionInput => ({ path: ENDPOINTS.hybrid.path, firstFrame: buildHybridConfig(context.run!), policy }),
          },
          initial: 'connecting',
          states: {
            connecting: { tags: 'connecting', on: { 'hybrid.stop': 'stopping' } },
            connected: {
              tags: ['connected', 'live'],
              on: {
                'socketSession.retrying': { target: 'reconnecting', actions: 'showRetrying' },
                'hybrid.stop': 'stopping',
              },
            },
            reconnecting: {
              tags: ['connecting', 'live', 'reconnecting'],
              on: { 'socketSession.retrying': { actions: 'showRetrying' }, 'hybrid.stop': 'stopping' },
            },
            stopping: {
              tags: ['connected', 'stopping'],
              entry: ['sendStop', 'stopSpeech'],
              after: { stopCloseDelay: 'closing' },
            },
            closing: {
              tags: ['connected', 'stopping'],
              entry: 'closeSocket',
              after: { closeGrace: '#hybridDiscussion.run.ended' },
            },
          },
          on: {
            'socketSession.open': { target: '.connected', actions: 'clearError' },
            'socketSession.frame': [
              { guard: 'isDiscussionEnded', target: '.closing', actions: 'applyIncoming' },
              { guard: 'isFatalError', target: '.closing', actions: ['applyIncoming', 'showServerError'] },
              { actions: ['applyIncoming', 'showServerError', 'relayAgentStatus', 'queueAudio'] },
            ],
            'socketSession.protocolError': { actions: 'showProtocolError' },
            'socketSession.error': { actions: 'rememberSocketError' },
            'socketSession.timeout': { actions: 'rememberTimeout' },
            'socketSession.closed': [
              { guard: 'isUnexpectedClose', target: 'failed', actions: 'explainClose' },
              { target: 'ended', actions: 'explainClose' },
            ],
            'audio.started': { actions: 'markSpeaking' },
            'audio.finished': { actions: ['markIdle', 'acknowledgeAudio'] },
          },
          exit: ['resetStatuses', 'closeStreams'],
        },
        ended: {
          tags: 'ended',
          on: {
            'hybrid.start': [{ guard: 'isStartValid', target: 'session', actions: 'beginRun' }, { actions: 'explainStartProblem' }],
            'hybrid.template.apply': { actions: 'applyTemplate' },
            'hybrid.settings.update': { guard: 'areSettingsValid', actions: 'applySettings' },
          },
        },
        failed: {
          tags: ['ended', 'error'],
          on: {
            'hybrid.start': [{ guard: 'isStartValid', target: 'session', actions: 'beginRun' }, { actions: 'explainStartProblem' }],
            'hybrid.template.apply': { actions: 'applyTemplate' },
            'hybrid.settings.update': { guard: 'areSettingsValid', actions: 'applySettings' },
          },
        },
      },
    },
    modes: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'loadModes',
            id: 'modesLoader',
            onDone: { target: 'loaded', actions: assign({ modes: ({ event }) => event.output }) },
            // Optional: without the list the picker shows the four modes by name.
            onError: 'unavailable',
          },
        },
        loaded: {},
        unavailable: {},
      },
    },
    export: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'hybrid.export': [
              { guard: 'hasMessages', target: 'exporting' },
              { actions: { type: 'notify', params: { kind: 'error', text: DISCUSSION_MESSAGES.nothingToExport } } },
            ],
          },
        },
        exporting: {
          tags: 'exporting',
          invoke: {
            src: 'exportHybridPdf',
            id: 'exporter',
            input: ({ context, event }) => ({ feed: context.feed, run: context.run!, now: (event as { now: number }).now }),
            onDone: 'idle',
            onError: { target: 'idle', actions: { type: 'notify', params: { kind: 'error', text: DISCUSSION_MESSAGES.hybridPdfFailed } } },
          },
        },
      },
    },
  },
});

export type HybridDiscussionActorRef = ActorRefFrom<typeof hybridDiscussionMachine>;
export type HybridDiscussionSnapshot = SnapshotFrom<typeof hybridDiscussionMachine>;
