// The standard panel ('Discussion', docs/product.md#discussions-screens, #discussions-states,
// #discussions-validation, #discussions-calls, #discussions-errors). Parallel regions:
//   run      — idle → preparing (agent details) → session (connecting → live ⇄ reconnecting → stopping/closing)
//              → ended | failed. The socket is a socketSession child: 10 s connect time-out, up to 3 reconnects
//              on 1006 at 2 s × attempt, re-sending the same configuration (same session_id) so the server
//              resumes; the feed keys items by id, so a replayed frame never shows twice.
//   settings — loading (the user's saved Advanced Settings) → ready; every change is checked by the schema
//              bounds and saved.
// Children beside them: the endpoint probe, the tabs (the Reasoning tab steers the endpoint choice) and the export
// (JSON or PDF, built from the feed by the provided exporter) — discussionTabs and discussionExport.
// Statuses (disconnected, connecting, connected, error) and the Live badge are tags, read by selectors.
// Shared with the hybrid panel: src/model/discussionSocket.ts, kit/discussionRelay.ts, kit/runActions.ts.
// Context: src/model/standardRun.ts.
import {
  assertEvent,
  assign,
  enqueueActions,
  fromPromise,
  sendTo,
  setup,
  type ActorRefFrom,
  type AnyActorRef,
  type SnapshotFrom,
} from 'xstate';
import {
  notProvided,
  panelContext,
  type PanelInput,
  withAttachedSources,
  type SourcesLiveAddEvent,
} from './kit/actorKit';
import { asksFirst, runActions, type UnreachableFacts } from './kit/runActions';
import {
  isAuthErrorFrame,
  isQuietStandardClose,
  socketErrorMessage,
  standardCloseBanner,
  type CloseFacts,
} from '../model/connectionProblems';
import { mayRelay, queueSpeech, relayAgentStatus, standardAudioItem, tellAudioQueue } from './kit/discussionRelay';
import { frameOf, isToolCallWaiting, playedStatus, retryBanner } from '../model/discussionSocket';
import { discussionSocketPolicy } from '../model/socketPolicies';
import { choiceOptions, chooseEndpoint } from '../model/endpointChoice';
import { buildStandardConfig, endpointName, startProblem } from '../model/standardConfig';
import { withSaved } from '../model/panelSettings';
import {
  exportRequestOf,
  continuedDraft,
  initialStandardContext,
  isResumable,
  resumedRun,
  startedRun,
  type ContinueFacts,
  type ExportFormat,
  type ResumeFacts,
  type RunInfo,
  type StandardDiscussionContext,
  type StandardTab,
} from '../model/standardRun';
import { ENDPOINTS, STANDARD_CONNECT_TIMEOUT_MS } from '../schemas/constants';
import type { Participant } from '../schemas/discussion';
import type { FormatRequest } from '../schemas/format';
import { DISCUSSION_MESSAGES } from '../schemas/messages';
import { standardPanelSettings, type StandardPanelSettings } from '../schemas/settings';
import type { StandardServerFrame } from '../schemas/standardSocket';
import type { AudioQueueItemInput, AudioQueueNotice } from './audioQueue.machine';
import { discussionExportMachine, type DiscussionExportEvent } from './discussionExport.machine';
import { discussionTabsMachine, type DiscussionTabsActorRef } from './discussionTabs.machine';
import { selectOpenTab } from './discussionTabs.selectors';
import { endpointProbeMachine, type EndpointProbeActorRef } from './endpointProbe.machine';
import { selectAvailability, selectAvailableNames } from './endpointProbe.selectors';
import { discussionRunSession, startQuestionRegion } from './discussionRun.states';
import { socketSessionMachine, type SocketSessionInput, type SocketSessionNotice } from './socketSession.machine';

export type StandardDiscussionEvent =
  | { type: 'panel.topic.change'; text: string }
  | ({
      type: 'panel.start';
      agentIds: string[];
      connections: { source: string; target: string }[];
    } & UnreachableFacts)
  /** The start question's answers: 'Start anyway' or Cancel. */
  | { type: 'panel.start.confirm' }
  | { type: 'panel.start.cancel' }
  /** Re-attach a running discussion (History). */
  | ({ type: 'panel.resume' } & ResumeFacts)
  /** History's 'Continue from here': the next Start continues a stored discussion from a turn. */
  | ({ type: 'panel.continue' } & ContinueFacts)
  | { type: 'panel.continue.cancel' }
  | { type: 'panel.stop' }
  | { type: 'panel.human.send'; text: string }
  /** Run (approve) or Refuse a tool call that waits for the person (docs/tools.md#approval). */
  | { type: 'panel.tool.answer'; id: string; approve: boolean }
  /** A source ticked or added in the Sources section (kit/actorKit.ts): sent while the run is live. */
  | SourcesLiveAddEvent
  /** The format's person: gives the floor, votes as judge, or ends the discussion (docs/protocol.md#formats). */
  | { type: 'panel.format.send'; frame: FormatRequest }
  | { type: 'panel.error.dismiss' }
  | { type: 'panel.tab.select'; tab: StandardTab }
  | { type: 'panel.settings.update'; settings: StandardPanelSettings }
  | { type: 'panel.settings.reset' }
  | { type: 'panel.endpoints.refresh' }
  | { type: 'panel.export'; format: ExportFormat }
  | SocketSessionNotice<StandardServerFrame>
  | AudioQueueNotice;

// 'Up to 3 attempts while running' (docs/product.md#discussions-states): a socket that never opened reports 'Cannot
// connect' at once.
const policy: SocketSessionInput['policy'] = discussionSocketPolicy(STANDARD_CONNECT_TIMEOUT_MS);

/** What actions read of the running actor's own snapshot (absent in a pure transition, as xstate/graph makes). */
type OwnSnapshot = { children?: { endpointProbe?: EndpointProbeActorRef; tabs?: DiscussionTabsActorRef } };
const ownSnapshot = (self: AnyActorRef) => self.getSnapshot() as OwnSnapshot | undefined;
const availableNames = (self: AnyActorRef) => {
  const probe = ownSnapshot(self)?.children?.endpointProbe;
  return probe ? selectAvailableNames(probe.getSnapshot()) : '';
};

const startProblemOf = (context: StandardDiscussionContext, start: { agentIds: string[] }) =>
  startProblem({ agentIds: start.agentIds, context: context.draftContext, token: context.token });
const endpointLabel = (run: RunInfo | null) => (run ? endpointName(run.endpoint) : 'the server');
const closeFacts = (run: RunInfo | null, e: { code: number; reason: string; gaveUp: boolean }): CloseFacts => ({
  code: e.code,
  reason: e.reason,
  gaveUp: e.gaveUp,
  endpointName: endpointLabel(run),
});

const clearSpeech = (args: Parameters<typeof tellAudioQueue>[0]) => tellAudioQueue(args, { type: 'audio.clear' });

/** Idle, ended and failed start a new run, or re-attach to a running one, the same way. */
const startOrResume = {
  'panel.start': [
    // Asked first (the startQuestion region): the run waits for the answer.
    { guard: 'needsStartQuestion' },
    { guard: 'isStartValid', target: 'preparing', actions: ['readClock', 'beginRun'] },
    { actions: 'explainStartProblem' },
  ],
  'panel.resume': { guard: 'isResumable', target: 'preparing', actions: 'resumeRun' },
} as const;

export const standardDiscussionMachine = setup({
  types: {
    input: {} as PanelInput,
    context: {} as StandardDiscussionContext,
    events: {} as StandardDiscussionEvent,
    tags: {} as
      | 'disconnected'
      | 'connecting'
      | 'connected'
      | 'error'
      | 'live'
      | 'reconnecting'
      | 'stopping'
      | 'settingsLoading'
      | 'confirmingStart',
    children: {} as {
      socket: 'socketSession';
      endpointProbe: 'endpointProbe';
      agentDetails: 'loadAgentDetails';
      settingsLoader: 'loadSettings';
      tabs: 'tabs';
      exporter: 'exportDiscussion';
    },
  },
  actors: {
    socketSession: socketSessionMachine,
    endpointProbe: endpointProbeMachine,
    /** GET /agents/{id} for each selected agent; a failure gives the fallback name (logged only). */
    loadAgentDetails: fromPromise<Participant[], { agentIds: string[] }>(
      notProvided('standardDiscussion', 'loadAgentDetails'),
    ),
    loadSettings: fromPromise<StandardPanelSettings | null>(notProvided('standardDiscussion', 'loadSettings')),
    tabs: discussionTabsMachine,
    /** Provided with its writer (`withExporter`). */
    exportDiscussion: discussionExportMachine,
  },
  delays: {
    /** Stop sends `stop` and closes at once; if the close never comes back, the run ends anyway. */
    stopCloseDelay: 0,
    closeGrace: 1_000,
  },
  guards: {
    isStartValid: ({ context, event }) => {
      assertEvent(event, 'panel.start');
      return startProblemOf(context, event) === null;
    },
    needsStartQuestion: ({ context, event }) => {
      assertEvent(event, 'panel.start');
      return asksFirst(event) && startProblemOf(context, event) === null;
    },
    isResumable: ({ event }) => {
      assertEvent(event, 'panel.resume');
      return isResumable(event);
    },
    /** discussion_ended, or an authentication error: the server will say no more. */
    isFinalFrame: ({ event }) => frameOf(event)?.type === 'discussion_ended' || isAuthErrorFrame(frameOf(event)),
    isRelayedFrame: ({ context, event }) => mayRelay(event, !!context.run?.settings.basic.tts),
    isHumanMessageSendable: ({ context, event }) => {
      assertEvent(event, 'panel.human.send');
      return event.text.trim().length > 0 && context.settings.basic.humanParticipation;
    },
    isToolCallWaiting: ({ context, event }) => {
      assertEvent(event, 'panel.tool.answer');
      return isToolCallWaiting(context.feed, event.id);
    },
    isFailedClose: ({ context, event }) => {
      assertEvent(event, 'socketSession.closed');
      return !isQuietStandardClose(closeFacts(context.run, event), context);
    },
    areSettingsValid: ({ event }) => {
      assertEvent(event, 'panel.settings.update');
      return standardPanelSettings.safeParse(event.settings).success;
    },
  },
  actions: {
    /** Provided: writes the settings to local storage under the signed-in user. */
    saveSettings: (_, _params: { settings: StandardPanelSettings }) =>
      void notProvided('standardDiscussion', 'saveSettings')(),
    setDraftContext: assign({
      draftContext: ({ event }) => {
        assertEvent(event, 'panel.topic.change');
        return event.text;
      },
    }),
    explainStartProblem: assign({
      error: ({ context, event }) => {
        assertEvent(event, 'panel.start');
        return startProblemOf(context, event);
      },
    }),
    /** The endpoint is chosen now, from the settings, the open tab and what the probe child has found so far. */
    beginRun: assign(({ context, event, self }) => {
      assertEvent(event, 'panel.start');
      const current = ownSnapshot(self);
      const probe = current?.children?.endpointProbe;
      const reasoningTabActive = selectOpenTab(current?.children?.tabs?.getSnapshot()) === 'tree';
      const endpoint = chooseEndpoint(
        choiceOptions(context.settings, reasoningTabActive),
        probe ? selectAvailability(probe.getSnapshot()) : {},
      );
      return startedRun(context, { ...event, endpoint });
    }),
    resumeRun: assign(({ context, event }) => {
      assertEvent(event, 'panel.resume');
      return resumedRun(context, event);
    }),
    setParticipants: assign({ participants: (_, params: { participants: Participant[] }) => params.participants }),
    /** The canvas's agent status; with speech on, an audio frame (or a message carrying audio_url) to the audio queue. */
    relayIncoming: enqueueActions((args) => {
      relayAgentStatus(args);
      if (args.context.run?.settings.basic.tts)
        queueSpeech(args, standardAudioItem(frameOf(args.event)) satisfies AudioQueueItemInput | null);
    }),
    acknowledgeAudio: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'audio.finished');
      if (event.status === 'completed') enqueue.sendTo('socket', playedStatus(event.item));
    }),
    /** Whatever way the run ends, its speech goes with it. */
    endSpeech: enqueueActions(clearSpeech),
    showRetrying: assign(({ event }) => {
      assertEvent(event, 'socketSession.retrying');
      return { attempt: event.attempt, ...retryBanner(event) };
    }),
    /** An open (first or resumed) forgets the socket error that came before the drop: it is not this socket's. */
    clearRetrying: assign(({ context }) => ({
      attempt: 0,
      error: context.attempt > 0 ? null : context.error,
      pendingProblem: null,
    })),
    rememberSocketError: assign({
      pendingProblem: ({ context, event, self }) => {
        assertEvent(event, 'socketSession.error');
        return socketErrorMessage(event.everOpened, endpointLabel(context.run), availableNames(self));
      },
    }),
    rememberTimeout: assign({
      pendingProblem: ({ context }) => DISCUSSION_MESSAGES.connectionTimeout(endpointLabel(context.run)),
    }),
    showProtocolError: assign({
      error: ({ event }) => {
        assertEvent(event, 'socketSession.protocolError');
        return DISCUSSION_MESSAGES.protocolError(event.frameType);
      },
    }),
    explainClose: assign(({ context, event }) => {
      assertEvent(event, 'socketSession.closed');
      return { error: standardCloseBanner(closeFacts(context.run, event), context), pendingProblem: null };
    }),
    applySettings: assign({
      settings: ({ event }) => {
        assertEvent(event, 'panel.settings.update');
        return standardPanelSettings.parse(event.settings);
      },
    }),
    resetSettings: assign({ settings: () => standardPanelSettings.parse({}) }),
    toggleSpeechQueue: enqueueActions((args) => {
      const { context, event } = args;
      assertEvent(event, 'panel.settings.update');
      if (event.settings.basic.tts === context.settings.basic.tts) return;
      tellAudioQueue(args, { type: event.settings.basic.tts ? 'audio.enable' : 'audio.disable' });
    }),
    refreshEndpoints: sendTo('endpointProbe', { type: 'endpoints.refresh' }),
    selectTab: sendTo('tabs', ({ event }) => {
      assertEvent(event, 'panel.tab.select');
      return { type: 'tab.select', tab: event.tab };
    }),
    exportFeed: sendTo('exporter', ({ context, event }) => {
      assertEvent(event, 'panel.export');
      return { type: 'export.start', request: exportRequestOf(context, event.format) } satisfies DiscussionExportEvent;
    }),
  },
})
  // The run's actions both panels share (kit/runActions.ts), under the names discussionRun.states.ts uses.
  .extend({
    actions: runActions<StandardDiscussionContext, StandardDiscussionEvent>({
      machine: 'standardDiscussion',
      humanSend: 'panel.human.send',
      formatSend: 'panel.format.send',
      toolAnswer: 'panel.tool.answer',
    }),
  })
  .createMachine({
    id: 'standardDiscussion',
    type: 'parallel',
    context: panelContext(initialStandardContext),
    entry: 'readSessionToken',
    on: {
      'panel.tab.select': { actions: 'selectTab' },
      'panel.export': { actions: 'exportFeed' },
      'panel.topic.change': { actions: 'setDraftContext' },
      'panel.continue': {
        actions: assign(({ event }) => continuedDraft(event)),
      },
      'panel.continue.cancel': { actions: assign({ continuation: null }) },
      'panel.error.dismiss': { actions: 'dismissError' },
      'panel.endpoints.refresh': { actions: 'refreshEndpoints' },
    },
    // The probe tells the endpoint choice what answers; the tabs and the export are children of their own.
    invoke: [
      { src: 'endpointProbe', id: 'endpointProbe' },
      { src: 'tabs', id: 'tabs' },
      { src: 'exportDiscussion', id: 'exporter', input: { failureText: DISCUSSION_MESSAGES.exportFailed } },
    ],
    states: {
      run: {
        initial: 'idle',
        states: {
          idle: { tags: 'disconnected', on: startOrResume },
          preparing: {
            tags: 'connecting',
            invoke: {
              src: 'loadAgentDetails',
              id: 'agentDetails',
              input: ({ context }) => ({ agentIds: context.run?.agentIds ?? [] }),
              onDone: {
                target: 'session',
                actions: { type: 'setParticipants', params: ({ event }) => ({ participants: event.output }) },
              },
              // Agent detail failures are logged only (docs/product.md#discussions-errors); the discussion starts with
              // what the server says.
              onError: 'session',
            },
            on: { 'panel.stop': 'ended' },
          },
          session: {
            invoke: {
              src: 'socketSession',
              id: 'socket',
              input: ({ context, self }): SocketSessionInput => ({
                path: ENDPOINTS[context.run!.endpoint].path,
                firstFrame: withAttachedSources(buildStandardConfig(context.run!), self.system),
                policy,
                parent: self,
              }),
            },
            ...discussionRunSession('panel.stop', {
              'panel.human.send': { guard: 'isHumanMessageSendable', actions: ['readClock', 'sendHumanMessage'] },
              'panel.format.send': { actions: 'sendFormatRequest' },
              'panel.tool.answer': { guard: 'isToolCallWaiting', actions: 'sendToolApproval' },
              'sources.live.add': { actions: 'sendSourcesAdd' },
            }),
          },
          ended: { tags: 'disconnected', on: startOrResume },
          failed: { tags: 'error', on: startOrResume },
        },
      },
      startQuestion: startQuestionRegion({
        start: 'panel.start',
        confirm: 'panel.start.confirm',
        cancel: 'panel.start.cancel',
        resume: 'panel.resume',
      }),
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
                actions: assign({ settings: ({ context, event }) => withSaved(context.settings, event.output) }),
              },
              onError: 'ready',
            },
          },
          ready: {
            on: {
              'panel.settings.update': {
                guard: 'areSettingsValid',
                actions: [
                  'toggleSpeechQueue',
                  'applySettings',
                  { type: 'saveSettings', params: ({ context }) => ({ settings: context.settings }) },
                ],
              },
              'panel.settings.reset': {
                actions: [
                  'resetSettings',
                  { type: 'saveSettings', params: ({ context }) => ({ settings: context.settings }) },
                ],
              },
            },
          },
        },
      },
    },
  });

export type StandardDiscussionActorRef = ActorRefFrom<typeof standardDiscussionMachine>;
export type StandardDiscussionSnapshot = SnapshotFrom<typeof standardDiscussionMachine>;

declare module './kit/systemRegistry' {
  interface SystemActors {
    standardDiscussion: ActorRefFrom<typeof standardDiscussionMachine>;
  }
}
