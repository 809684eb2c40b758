// The standard panel ('Enhanced Multi-Agent Discussion', part 2 §2, §4, §5, §7, §8). Parallel regions:
//   run      — idle → preparing (agent details) → session (connecting → live ⇄ reconnecting → stopping/closing)
//              → ended | failed. The socket is a socketSession child: 10 s connect time-out, up to 3 reconnects
//              on 1006 at 2 s × attempt, re-sending the same configuration (same session_id) so the server
//              resumes; the feed keys items by id, so a replayed frame never shows twice.
//   settings — loading (the user's saved Advanced Settings) → ready; every change is checked by the schema
//              bounds and saved.
//   tab      — Discussion | Reasoning Tree | Research | Analytics (the Reasoning tab steers the endpoint choice).
//   export   — idle → exporting (JSON or PDF, built from the feed by the provided exporter).
// Statuses (disconnected, connecting, connected, error) and the Live badge are tags, read by selectors.
import { assign, enqueueActions, fromPromise, setup, type ActorRefFrom, type AnyActorRef, type SnapshotFrom } from 'xstate';
import { applyFrame, closeOpenStreams, emptyFeed, type Feed } from '../model/feed';
import { selectCounts } from '../model/feedSelectors';
import { chooseEndpoint } from '../model/endpointChoice';
import { closeMessage, isAuthErrorText, socketErrorMessage } from '../model/connectionProblems';
import { buildStandardConfig, endpointName, startProblem } from '../model/standardConfig';
import {
  CLOSE_ABNORMAL, CLOSE_NORMAL, ENDPOINTS, STANDARD_CONNECT_TIMEOUT_MS, STANDARD_RECONNECT_BASE_DELAY_MS,
  STANDARD_RECONNECT_MAX_ATTEMPTS, sessionId as makeSessionId, type EndpointKey,
} from '../schemas/constants';
import type { Participant } from '../schemas/discussion';
import { DISCUSSION_MESSAGES } from '../schemas/messages';
import { defaults, standardPanelSettings, type StandardPanelSettings } from '../schemas/settings';
import type { StandardServerFrame } from '../schemas/standardSocket';
import type { AudioQueueNotice } from './audioQueue.machine';
import { endpointProbeMachine, type EndpointProbeActorRef } from './endpointProbe.machine';
import { selectAvailability, selectAvailableNames } from './endpointProbe.selectors';
import { socketSessionMachine, type SocketSessionInput, type SocketSessionNotice } from './socketSession.machine';
import { agentStatus, statusesReset } from '../model/discussionRelay';
import { notProvided, notifyToasts } from '../model/actorKit';

export const STANDARD_TABS = ['discussion', 'tree', 'research', 'analytics'] as const;
export type StandardTab = (typeof STANDARD_TABS)[number];
export type ExportFormat = 'json' | 'pdf';

/** What a run needs from the moment Start is pressed; kept after the run so it can be exported. */
export interface RunInfo {
  sessionId: string;
  endpoint: EndpointKey;
  agentIds: string[];
  context: string;
  token: string | null;
  connections: { source: string; target: string }[];
  /** The settings the run started with (export records them). */
  settings: StandardPanelSettings;
  /** Set when the run re-attaches to a running discussion (History): the server replays from this seq. */
  resumeFrom?: number;
}

export interface StandardDiscussionContext {
  draftContext: string;
  settings: StandardPanelSettings;
  run: RunInfo | null;
  participants: Participant[];
  feed: Feed;
  /** The dismissible banner (part 2 §8); null when nothing is wrong. */
  error: string | null;
  /** The current reconnect attempt (1..3) while reconnecting. */
  attempt: number;
  /** The socket reported an error before its close; the close then keeps this message. */
  pendingProblem: string | null;
}

export type StandardDiscussionEvent =
  | { type: 'discussion.context.change'; text: string }
  | { type: 'discussion.start'; agentIds: string[]; token: string | null; connections: { source: string; target: string }[]; now: number }
  | { type: 'discussion.resume'; sessionId: string; endpoint: EndpointKey; agentIds: string[]; context: string; token: string | null }
  | { type: 'discussion.stop' }
  | { type: 'discussion.human.send'; text: string; timestamp: string }
  | { type: 'discussion.error.dismiss' }
  | { type: 'discussion.tab.select'; tab: StandardTab }
  | { type: 'discussion.settings.update'; settings: StandardPanelSettings }
  | { type: 'discussion.settings.reset' }
  | { type: 'discussion.endpoints.refresh' }
  | { type: 'discussion.export'; format: ExportFormat; now: number }
  | SocketSessionNotice<StandardServerFrame>
  | AudioQueueNotice;

export interface ExportRequest {
  format: ExportFormat;
  feed: Feed;
  run: RunInfo;
  now: number;
}

const policy: SocketSessionInput['policy'] = {
  connectTimeoutMs: STANDARD_CONNECT_TIMEOUT_MS,
  reconnectOn: [CLOSE_ABNORMAL],
  maxAttempts: STANDARD_RECONNECT_MAX_ATTEMPTS,
  delayMs: (attempt) => attempt * STANDARD_RECONNECT_BASE_DELAY_MS,
  // 'Up to 3 attempts while running' (part 2 §4): a socket that never opened reports 'Cannot connect' at once.
  reconnectBeforeFirstOpen: false,
};

/** What actions read of the running actor's own snapshot (absent in a pure transition, as xstate/graph makes). */
type OwnSnapshot = { children?: { endpointProbe?: EndpointProbeActorRef }; matches?: (value: { tab: StandardTab }) => boolean };

const frameOf = (event: StandardDiscussionEvent) => (event.type === 'socketSession.frame' ? event.frame : null);
const endpointLabel = (run: RunInfo | null) => (run ? endpointName(run.endpoint) : 'the server');

export const standardDiscussionMachine = setup({
  types: {
    context: {} as StandardDiscussionContext,
    events: {} as StandardDiscussionEvent,
    tags: {} as 'disconnected' | 'connecting' | 'connected' | 'error' | 'live' | 'reconnecting' | 'exporting' | 'settingsLoading',
    children: {} as { socket: 'socketSession'; endpointProbe: 'endpointProbe'; agentDetails: 'loadAgentDetails'; settingsLoader: 'loadSettings'; exporter: 'exportDiscussion' },
  },
  actors: {
    socketSession: socketSessionMachine,
    endpointProbe: endpointProbeMachine,
    /** GET /agents/{id} for each selected agent; a failure gives the fallback name (logged only). */
    loadAgentDetails: fromPromise<Participant[], { agentIds: string[] }>(notProvided('standardDiscussion', 'loadAgentDetails')),
    loadSettings: fromPromise<StandardPanelSettings | null>(notProvided('standardDiscussion', 'loadSettings')),
    exportDiscussion: fromPromise<void, ExportRequest>(notProvided('standardDiscussion', 'exportDiscussion')),
  },
  delays: {
    /** Stop sends `stop`, then closes; if the close never comes back, the run ends anyway. */
    closeGrace: 1_000,
  },
  guards: {
    isStartValid: ({ context, event }) =>
      event.type === 'discussion.start' && startProblem({ agentIds: event.agentIds, context: context.draftContext, token: event.token }) === null,
    isResumable: ({ event }) => event.type === 'discussion.resume' && event.sessionId.length > 0 && new Set(event.agentIds).size >= 2,
    isDiscussionEnded: ({ event }) => frameOf(event)?.type === 'discussion_ended',
    isAuthError: ({ event }) => {
      const frame = frameOf(event);
      return frame?.type === 'error' && isAuthErrorText(`${frame.message} ${frame.error ?? ''}`);
    },
    isHumanMessageSendable: ({ context, event }) =>
      event.type === 'discussion.human.send' && event.text.trim().length > 0 && context.settings.basic.humanParticipation,
    isQuietClose: ({ context, event }) =>
      event.type === 'socketSession.closed' && context.pendingProblem === null &&
      closeMessage({ code: event.code, reason: event.reason, gaveUp: event.gaveUp, endpointName: endpointLabel(context.run) }) === null,
    hasMessages: ({ context }) => selectCounts(context.feed).messages > 0,
    areSettingsValid: ({ event }) => event.type === 'discussion.settings.update' && standardPanelSettings.safeParse(event.settings).success,
  },
  actions: {
    /** Provided: writes the settings to local storage under the signed-in user. */
    saveSettings: (_, _params: { settings: StandardPanelSettings }) => {},
    setDraftContext: assign({ draftContext: ({ context, event }) => (event.type === 'discussion.context.change' ? event.text : context.draftContext) }),
    explainStartProblem: assign({
      error: ({ context, event }) =>
        event.type === 'discussion.start' ? startProblem({ agentIds: event.agentIds, context: context.draftContext, token: event.token }) : context.error,
    }),
    beginRun: assign(({ context, event, self }) => {
      if (event.type !== 'discussion.start') return {};
      // The running actor's snapshot (the probe child, the tab); a pure transition (xstate/graph) has none.
      const current = self.getSnapshot() as OwnSnapshot | undefined;
      const probe = current?.children?.endpointProbe;
      const availability = probe ? selectAvailability(probe.getSnapshot()) : null;
      const s = context.settings;
      const endpoint = chooseEndpoint(
        {
          multiRound: s.reasoning.enableMultiRound,
          useACL: s.communication.useACL,
          enableInterrupts: s.communication.enableInterrupts,
          enhancedMode: s.basic.mode === 'enhanced',
          research: s.research.enableResearch,
          hybridMode: s.basic.hybridMode || s.basic.mode === 'hybrid',
          reasoningTabActive: typeof current?.matches === 'function' && current.matches({ tab: 'tree' }),
        },
        availability ?? { basic: 'unknown', enhanced: 'unknown', multi_round: 'unknown', hybrid: 'unknown' },
      );
      const agentIds = [...new Set(event.agentIds)];
      return {
        run: {
          sessionId: makeSessionId(event.now), endpoint, agentIds, context: context.draftContext.trim(), token: event.token,
          connections: event.connections, settings: s,
        },
        participants: [],
        feed: emptyFeed,
        error: null,
        attempt: 0,
        pendingProblem: null,
      };
    }),
    /**
     * Re-attaches to a running discussion (History → Resume): a run with that session id, endpoint, agents and
     * context, asking the server to replay from the start (resume_from 0): the feed starts empty and keys items
     * by id, so nothing shows twice, and a later reconnect re-sends the same configuration.
     */
    resumeRun: assign(({ context, event }) => {
      if (event.type !== 'discussion.resume') return {};
      return {
        run: {
          sessionId: event.sessionId, endpoint: event.endpoint, agentIds: [...new Set(event.agentIds)], context: event.context, token: event.token,
          connections: [], settings: context.settings, resumeFrom: 0,
        },
        draftContext: event.context,
        participants: [],
        feed: emptyFeed,
        error: null,
        attempt: 0,
        pendingProblem: null,
      };
    }),
    setParticipants: assign({ participants: (_, params: { participants: Participant[] }) => params.participants }),
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
    /** Speech on: an audio frame (or a message carrying audio_url) goes to the shared audio queue. */
    queueAudio: enqueueActions(({ context, event, system, self, enqueue }) => {
      const frame = frameOf(event);
      const queue = system.get('audioQueue') as AnyActorRef | undefined;
      if (!frame || !queue || !context.run?.settings.basic.tts) return;
      if (frame.type === 'audio') {
        enqueue.sendTo(queue, {
          type: 'audio.enqueue', replyTo: self,
          item: { audioId: frame.audio_id ?? frame.audio_url, messageId: frame.message_id ?? null, url: frame.audio_url, agentId: frame.agent_id, text: frame.text, requiresAck: true },
        });
      } else if (frame.type === 'agent_message' && frame.audio_url) {
        enqueue.sendTo(queue, {
          type: 'audio.enqueue', replyTo: self,
          item: { audioId: frame.audio_id ?? frame.audio_url, messageId: frame.id, url: frame.audio_url, agentId: frame.agent_id, agentName: frame.agent_name, text: frame.content, requiresAck: true },
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
    acknowledgePlayed: enqueueActions(({ event, enqueue }) => {
      if (event.type !== 'audio.finished' || event.status !== 'completed') return;
      const { audioId, messageId, agentId } = event.item;
      enqueue.sendTo('socket', { type: 'socketSession.send', frame: { type: 'status', status: 'played', audio_id: audioId, agent_id: agentId, ...(messageId ? { message_id: messageId } : {}) } });
    }),
    sendHumanMessage: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'discussion.human.send') return;
      const text = event.text.trim();
      enqueue.sendTo('socket', { type: 'socketSession.send', frame: { type: 'human_message', text, timestamp: event.timestamp } });
      enqueue.assign({ feed: applyFrame(context.feed, { type: 'human_message_local', id: `human-${event.timestamp}-${text.length}`, text, timestamp: event.timestamp }) });
    }),
    sendStop: enqueueActions(({ enqueue }) => enqueue.sendTo('socket', { type: 'socketSession.send', frame: { type: 'stop' } })),
    closeSocket: enqueueActions(({ enqueue }) => enqueue.sendTo('socket', { type: 'socketSession.close', code: CLOSE_NORMAL, reason: 'discussion over' })),
    stopSpeech: enqueueActions(({ system, enqueue }) => {
      const queue = system.get('audioQueue');
      if (queue) enqueue.sendTo(queue, { type: 'audio.clear' });
    }),
    resetStatuses: enqueueActions(({ system, enqueue }) => {
      const workspace = system.get('workspace');
      if (workspace) enqueue.sendTo(workspace, statusesReset());
    }),
    // A socket error before the drop is part of the drop: the retry message replaces it.
    showRetrying: assign(({ event }) =>
      event.type === 'socketSession.retrying'
        ? { attempt: event.attempt, error: DISCUSSION_MESSAGES.connectionLostRetrying(event.attempt, event.maxAttempts), pendingProblem: null }
        : {},
    ),
    /** An open (first or resumed) forgets the socket error that came before the drop: it is not this socket's. */
    clearRetrying: assign(({ context }) => ({ attempt: 0, error: context.attempt > 0 ? null : context.error, pendingProblem: null })),
    rememberSocketError: assign({
      pendingProblem: ({ context, event, self }) => {
        if (event.type !== 'socketSession.error') return context.pendingProblem;
        const probe = (self.getSnapshot() as OwnSnapshot | undefined)?.children?.endpointProbe;
        const names = probe ? selectAvailableNames(probe.getSnapshot()) : '';
        return socketErrorMessage(event.everOpened, endpointLabel(context.run), names);
      },
    }),
    rememberTimeout: assign({ pendingProblem: ({ context }) => DISCUSSION_MESSAGES.connectionTimeout(endpointLabel(context.run)) }),
    showProtocolError: assign({ error: ({ context, event }) => (event.type === 'socketSession.protocolError' ? DISCUSSION_MESSAGES.protocolError(event.frameType) : context.error) }),
    explainClose: assign({
      error: ({ context, event }) => {
        if (event.type !== 'socketSession.closed') return context.error;
        const byCode = closeMessage({ code: event.code, reason: event.reason, gaveUp: event.gaveUp, endpointName: endpointLabel(context.run) });
        if (byCode === DISCUSSION_MESSAGES.authFailed) return byCode;
        // Reconnects ran out: 'Connection lost to {endpoint}' (part 2 §8), even though each refused attempt
        // was also reported as a socket error.
        if (event.gaveUp && byCode) return byCode;
        return context.pendingProblem ?? byCode ?? context.error;
      },
      pendingProblem: null,
    }),
    dismissError: assign({ error: null }),
    /** A turn still streaming when the run is over will get no final frame. */
    closeStreams: assign({ feed: ({ context }) => closeOpenStreams(context.feed) }),
    applySettings: assign({ settings: ({ context, event }) => (event.type === 'discussion.settings.update' ? standardPanelSettings.parse(event.settings) : context.settings) }),
    resetSettings: assign({ settings: () => standardPanelSettings.parse({}) }),
    toggleSpeechQueue: enqueueActions(({ context, event, system, enqueue }) => {
      const queue = system.get('audioQueue');
      if (event.type !== 'discussion.settings.update' || !queue) return;
      if (event.settings.basic.tts === context.settings.basic.tts) return;
      enqueue.sendTo(queue, { type: event.settings.basic.tts ? 'audio.enable' : 'audio.disable' });
    }),
    refreshEndpoints: enqueueActions(({ enqueue }) => enqueue.sendTo('endpointProbe', { type: 'endpoints.refresh' })),
    notify: enqueueActions(notifyToasts),
  },
}).createMachine({
  id: 'standardDiscussion',
  type: 'parallel',
  context: {
    draftContext: '',
    settings: defaults.standardPanel,
    run: null,
    participants: [],
    feed: emptyFeed,
    error: null,
    attempt: 0,
    pendingProblem: null,
  },
  invoke: { src: 'endpointProbe', id: 'endpointProbe' },
  on: {
    'discussion.context.change': { actions: 'setDraftContext' },
    'discussion.error.dismiss': { actions: 'dismissError' },
    'discussion.endpoints.refresh': { actions: 'refreshEndpoints' },
  },
  states: {
    run: {
      initial: 'idle',
      states: {
        idle: {
          tags: 'disconnected',
          on: {
            'discussion.start': [
              { guard: 'isStartValid', target: 'preparing', actions: 'beginRun' },
              { actions: 'explainStartProblem' },
            ],
            'discussion.resume': { guard: 'isResumable', target: 'preparing', actions: 'resumeRun' },
          },
        },
        preparing: {
          tags: 'connecting',
          invoke: {
            src: 'loadAgentDetails',
            id: 'agentDetails',
            input: ({ context }) => ({ agentIds: context.run?.agentIds ?? [] }),
            onDone: { target: 'session', actions: { type: 'setParticipants', params: ({ event }) => ({ participants: event.output }) } },
            // Agent detail failures are logged only (part 2 §8); the discussion starts with what the server says.
            onError: 'session',
          },
          on: { 'discussion.stop': 'ended' },
        },
        session: {
          invoke: {
            src: 'socketSession',
            id: 'socket',
            input: ({ context }): SocketSessionInput => {
              const run = context.run!;
              return {
                path: ENDPOINTS[run.endpoint].path,
                firstFrame: buildStandardConfig({
                  endpoint: run.endpoint, agentIds: run.agentIds, sessionId: run.sessionId, context: run.context,
                  token: run.token, settings: run.settings, connections: run.connections, resumeFrom: run.resumeFrom,
                }),
                policy,
              };
            },
          },
          initial: 'connecting',
          states: {
            connecting: { tags: 'connecting', on: { 'discussion.stop': 'stopping' } },
            live: {
              tags: ['connected', 'live'],
              on: {
                'discussion.human.send': { guard: 'isHumanMessageSendable', actions: 'sendHumanMessage' },
                'socketSession.retrying': { target: 'reconnecting', actions: 'showRetrying' },
                'discussion.stop': 'stopping',
              },
            },
            reconnecting: {
              tags: ['connecting', 'live', 'reconnecting'],
              on: { 'socketSession.retrying': { actions: 'showRetrying' }, 'discussion.stop': 'stopping' },
            },
            stopping: {
              tags: 'connected',
              entry: ['sendStop', 'closeSocket'],
              after: { closeGrace: '#standardDiscussion.run.ended' },
            },
            closing: {
              tags: 'connected',
              entry: 'closeSocket',
              after: { closeGrace: '#standardDiscussion.run.ended' },
            },
          },
          on: {
            'socketSession.open': { target: '.live', actions: 'clearRetrying' },
            'socketSession.frame': [
              { guard: 'isDiscussionEnded', target: '.closing', actions: 'applyIncoming' },
              { guard: 'isAuthError', target: '.closing', actions: ['applyIncoming', 'showServerError'] },
              { actions: ['applyIncoming', 'showServerError', 'relayAgentStatus', 'queueAudio'] },
            ],
            'socketSession.protocolError': { actions: 'showProtocolError' },
            'socketSession.error': { actions: 'rememberSocketError' },
            'socketSession.timeout': { actions: 'rememberTimeout' },
            'socketSession.closed': [
              { guard: 'isQuietClose', target: 'ended', actions: 'explainClose' },
              { target: 'failed', actions: 'explainClose' },
            ],
            'audio.started': { actions: 'markSpeaking' },
            'audio.finished': { actions: ['markIdle', 'acknowledgePlayed'] },
          },
          exit: ['stopSpeech', 'resetStatuses', 'closeStreams'],
        },
        ended: {
          tags: 'disconnected',
          on: {
            'discussion.start': [
              { guard: 'isStartValid', target: 'preparing', actions: 'beginRun' },
              { actions: 'explainStartProblem' },
            ],
            'discussion.resume': { guard: 'isResumable', target: 'preparing', actions: 'resumeRun' },
          },
        },
        failed: {
          tags: 'error',
          on: {
            'discussion.start': [
              { guard: 'isStartValid', target: 'preparing', actions: 'beginRun' },
              { actions: 'explainStartProblem' },
            ],
            'discussion.resume': { guard: 'isResumable', target: 'preparing', actions: 'resumeRun' },
          },
        },
      },
    },
    settings: {
      initial: 'loading',
      states: {
        loading: {
          tags: 'settingsLoading',
          invoke: {
            src: 'loadSettings',
            id: 'settingsLoader',
            onDone: {
              target: 'ready',
              actions: assign({ settings: ({ context, event }) => {
                const parsed = standardPanelSettings.safeParse(event.output ?? {});
                return parsed.success ? parsed.data : context.settings;
              } }),
            },
            onError: 'ready',
          },
        },
        ready: {
          on: {
            'discussion.settings.update': { guard: 'areSettingsValid', actions: ['toggleSpeechQueue', 'applySettings', { type: 'saveSettings', params: ({ context }) => ({ settings: context.settings }) }] },
            'discussion.settings.reset': { actions: ['resetSettings', { type: 'saveSettings', params: ({ context }) => ({ settings: context.settings }) }] },
          },
        },
      },
    },
    tab: {
      initial: 'discussion',
      on: {
        'discussion.tab.select': [
          { guard: ({ event }) => event.tab === 'discussion', target: '.discussion' },
          { guard: ({ event }) => event.tab === 'tree', target: '.tree' },
          { guard: ({ event }) => event.tab === 'research', target: '.research' },
          { target: '.analytics' },
        ],
      },
      states: { discussion: {}, tree: {}, research: {}, analytics: {} },
    },
    export: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'discussion.export': [
              { guard: 'hasMessages', target: 'exporting' },
              { actions: { type: 'notify', params: { kind: 'error', text: DISCUSSION_MESSAGES.nothingToExport } } },
            ],
          },
        },
        exporting: {
          tags: 'exporting',
          invoke: {
            src: 'exportDiscussion',
            id: 'exporter',
            input: ({ context, event }) => {
              const e = event as Extract<StandardDiscussionEvent, { type: 'discussion.export' }>;
              return { format: e.format, feed: context.feed, run: context.run!, now: e.now };
            },
            onDone: 'idle',
            onError: {
              target: 'idle',
              actions: { type: 'notify', params: ({ event }) => ({ kind: 'error', text: `Export failed: ${event.error instanceof Error ? event.error.message : String(event.error)}` }) },
            },
          },
        },
      },
    },
  },
});

export type StandardDiscussionActorRef = ActorRefFrom<typeof standardDiscussionMachine>;
export type StandardDiscussionSnapshot = SnapshotFrom<typeof standardDiscussionMachine>;
