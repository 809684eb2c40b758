// The hybrid panel (docs/product.md#discussions-screens, #discussions-states 'Hybrid discussion', #discussions-calls,
// #discussions-errors). One region, the run (a one-shot list beside it needs no region of its own: a second region
// was also a second walk of the chart for every frame):
//   run      — idle → connecting (10 s time-out) → connected (configuration sent; rounds counted from round_start /
//              round_end) → ended by discussion_ended, Stop, a close or a fatal error. Stop sends `stop`, then
//              closes with 1000 after 500 ms. A 1006 drop reconnects with the same session_id (the server resumes;
//              the feed keys by id, so nothing shows twice). The socket is a socketSession child, as in the
//              standard panel. History re-attaches a running one ('panel.resume': same session_id, resume_from).
// Context besides the run: the panel's settings (docs/product.md#discussions-limits defaults), locked while
// connected, templates filling several at once; the saved settings and /api/ws/hybrid/modes (descriptions and
// best_for, for the mode picker; optional) come from two loader children.
// The export (the hybrid PDF, or the same export as JSON) is a discussionExport child.
// Shared with the standard panel: src/model/discussionSocket.ts, kit/discussionRelay.ts, kit/runActions.ts.
// Context: src/model/hybridRun.ts.
import {
  assertEvent,
  assign,
  enqueueActions,
  fromCallback,
  fromPromise,
  sendTo,
  setup,
  type ActorRefFrom,
  type EventObject,
  type SnapshotFrom,
} from 'xstate';
import {
  notProvided,
  panelContext,
  type PanelInput,
  type TickerInput,
  withAttachedSources,
  type SourcesLiveAddEvent,
} from './kit/actorKit';
import { asksFirst, runActions, type UnreachableFacts } from './kit/runActions';
import {
  hybridCloseBanner,
  hybridProtocolMessage,
  hybridSocketErrorMessage,
  isHybridFailedClose,
} from '../model/connectionProblems';
import { hybridAudioItem, mayRelay, queueSpeech, relayAgentStatus, tellAudioQueue } from './kit/discussionRelay';
import { audioAcknowledgment, frameOf, isToolCallWaiting, retryBanner } from '../model/discussionSocket';
import { discussionSocketPolicy } from '../model/socketPolicies';
import { buildHybridConfig, hybridStartProblem, withTemplate, type HybridTemplateName } from '../model/hybridConfig';
import {
  continuedHybridDraft,
  hybridExportRequestOf,
  initialHybridContext,
  isHybridResumable,
  resumedHybridRun,
  startedHybridRun,
  type HybridContinueFacts,
  type HybridDiscussionContext,
  type HybridResumeFacts,
} from '../model/hybridRun';
import { ENDPOINTS, HYBRID_CONNECT_TIMEOUT_MS, STOP_CLOSE_DELAY_MS } from '../schemas/constants';
import type { FormatRequest } from '../schemas/format';
import type { HybridModeInfo } from '../schemas/hybridMeta';
import type { HybridServerFrame } from '../schemas/hybridSocket';
import { DISCUSSION_MESSAGES } from '../schemas/messages';
import { hybridSettings, type HybridSettings } from '../schemas/settings';
import type { AudioQueueItemInput, AudioQueueNotice } from './audioQueue.machine';
import { discussionExportMachine, type DiscussionExportEvent } from './discussionExport.machine';
import { discussionRunSession, startQuestionRegion } from './discussionRun.states';
import { socketSessionMachine, type SocketSessionInput, type SocketSessionNotice } from './socketSession.machine';

export type HybridDiscussionEvent =
  | { type: 'panel.topic.change'; text: string }
  | { type: 'panel.template.apply'; template: HybridTemplateName }
  | { type: 'panel.settings.update'; settings: HybridSettings }
  | ({ type: 'panel.start'; agentIds: string[] } & UnreachableFacts)
  /** The start question's answers: 'Start anyway' or Cancel. */
  | { type: 'panel.start.confirm' }
  | { type: 'panel.start.cancel' }
  /** Re-attach a running discussion (History). */
  | ({ type: 'panel.resume' } & HybridResumeFacts)
  /** History's 'Continue from here': the next Start continues a stored discussion from a turn. */
  | ({ type: 'panel.continue' } & HybridContinueFacts)
  | { type: 'panel.continue.cancel' }
  | { type: 'panel.stop' }
  | { type: 'panel.audio.interrupt' }
  | { type: 'panel.error.dismiss' }
  | { type: 'panel.export'; format?: 'pdf' | 'json' }
  /** The person joins in; an @mention gives that agent the next turn (docs/protocol.md#formats). */
  | { type: 'panel.human.send'; text: string }
  /** Run (approve) or Refuse a tool call that waits for the person (docs/tools.md#approval). */
  | { type: 'panel.tool.answer'; id: string; approve: boolean }
  /** A source ticked or added in the Sources section (kit/actorKit.ts): sent while the run is live. */
  | SourcesLiveAddEvent
  /** The format's person: gives the floor, votes as judge, or ends the discussion. */
  | { type: 'panel.format.send'; frame: FormatRequest }
  /** The run's clock (a provided ticker): the header's running duration. */
  | { type: 'panel.tick'; now: number }
  | SocketSessionNotice<HybridServerFrame>
  | AudioQueueNotice;

// Only a running discussion reconnects; a socket that never opened is 'Failed to establish connection' at once.
const policy: SocketSessionInput['policy'] = discussionSocketPolicy(HYBRID_CONNECT_TIMEOUT_MS);

/** Idle, ended and failed take the same edits and start a new run the same way; a run's settings are locked. */
const betweenRuns = {
  'panel.start': [
    // Asked first (the startQuestion region): the run waits for the answer.
    { guard: 'needsStartQuestion' },
    { guard: 'isStartValid', target: 'session', actions: ['readClock', 'beginRun'] },
    { actions: 'explainStartProblem' },
  ],
  'panel.template.apply': { actions: ['applyTemplate', 'saveSettings'] },
  'panel.settings.update': { guard: 'areSettingsValid', actions: ['applySettings', 'saveSettings'] },
  'panel.resume': { guard: 'isResumable', target: 'session', actions: ['readClock', 'resumeRun'] },
  // Between runs a continuation brings the stored run's settings too (while one runs, they are its own: locked).
  'panel.continue': { actions: 'continueWithSettings' },
} as const;

export const hybridDiscussionMachine = setup({
  types: {
    context: {} as HybridDiscussionContext,
    events: {} as HybridDiscussionEvent,
    /** Nothing in the app: the token is the session's (panelContext, readSessionToken). */
    input: {} as PanelInput,
    tags: {} as
      | 'idle'
      | 'connecting'
      | 'connected'
      | 'live'
      | 'reconnecting'
      | 'ended'
      | 'error'
      | 'stopping'
      | 'confirmingStart',
    children: {} as {
      socket: 'socketSession';
      clock: 'clock';
      modesLoader: 'loadModes';
      exporter: 'exportHybridPdf';
      settingsLoader: 'loadSettings';
    },
  },
  actors: {
    socketSession: socketSessionMachine,
    clock: fromCallback<EventObject, TickerInput>(notProvided('hybridDiscussion', 'clock')),
    loadModes: fromPromise<(HybridModeInfo & { id: string })[]>(notProvided('hybridDiscussion', 'loadModes')),
    /** Provided with its writer (`withExporter`). */
    exportHybridPdf: discussionExportMachine,
    /** The user's saved hybrid settings (kept per user, as the standard panel's are); null when none. */
    loadSettings: fromPromise<HybridSettings | null>(notProvided('hybridDiscussion', 'loadSettings')),
  },
  delays: {
    stopCloseDelay: STOP_CLOSE_DELAY_MS,
    /** After the close command, the run ends even if the close never comes back. */
    closeGrace: 1_000,
  },
  guards: {
    isToolCallWaiting: ({ context, event }) => {
      assertEvent(event, 'panel.tool.answer');
      return isToolCallWaiting(context.feed, event.id);
    },
    isResumable: ({ event }) => {
      assertEvent(event, 'panel.resume');
      return isHybridResumable(event);
    },
    isStartValid: ({ context, event }) => {
      assertEvent(event, 'panel.start');
      return hybridStartProblem(event.agentIds, context.topic) === null;
    },
    needsStartQuestion: ({ context, event }) => {
      assertEvent(event, 'panel.start');
      return asksFirst(event) && hybridStartProblem(event.agentIds, context.topic) === null;
    },
    /** discussion_ended, or an error the server marks fatal: it will say no more. */
    isFinalFrame: ({ event }) => {
      const frame = frameOf(event);
      return frame?.type === 'discussion_ended' || (frame?.type === 'error' && frame.fatal === true);
    },
    isRelayedFrame: ({ context, event }) => mayRelay(event, !!context.run?.settings.tts),
    isFailedClose: ({ context, event }) => {
      assertEvent(event, 'socketSession.closed');
      return isHybridFailedClose(event.code, context);
    },
    hasText: ({ event }) => {
      assertEvent(event, 'panel.human.send');
      return event.text.trim().length > 0;
    },
    areSettingsValid: ({ event }) => {
      assertEvent(event, 'panel.settings.update');
      return hybridSettings.safeParse(event.settings).success;
    },
  },
  actions: {
    /** The export child writes the PDF (or JSON) of the feed; nothing to export is its toast. */
    exportFeed: sendTo('exporter', ({ context, event }) => {
      assertEvent(event, 'panel.export');
      return {
        type: 'export.start',
        request: hybridExportRequestOf(context, event.format),
      } satisfies DiscussionExportEvent;
    }),
    setTopic: assign({
      topic: ({ event }) => {
        assertEvent(event, 'panel.topic.change');
        return event.text;
      },
    }),
    applyTemplate: assign(({ context, event }) => {
      assertEvent(event, 'panel.template.apply');
      return withTemplate(context, event.template);
    }),
    applySettings: assign({
      settings: ({ event }) => {
        assertEvent(event, 'panel.settings.update');
        return hybridSettings.parse(event.settings);
      },
    }),
    explainStartProblem: assign({
      error: ({ context, event }) => {
        assertEvent(event, 'panel.start');
        return hybridStartProblem(event.agentIds, context.topic);
      },
    }),
    beginRun: assign(({ context, event }) => {
      assertEvent(event, 'panel.start');
      return startedHybridRun(context, event);
    }),
    continueWithSettings: assign(({ event }) => {
      assertEvent(event, 'panel.continue');
      return continuedHybridDraft(event, true);
    }),
    continueDraft: assign(({ event }) => {
      assertEvent(event, 'panel.continue');
      return continuedHybridDraft(event, false);
    }),
    resumeRun: assign(({ context, event }) => {
      assertEvent(event, 'panel.resume');
      return resumedHybridRun(context, event);
    }),
    /** A frame's relays: the canvas's agent status and the audio queue. */
    relayIncoming: enqueueActions((args) => {
      relayAgentStatus(args);
      const run = args.context.run;
      if (run?.settings.tts)
        queueSpeech(args, hybridAudioItem(frameOf(args.event), run.settings) satisfies AudioQueueItemInput | null);
    }),
    acknowledgeAudio: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'audio.finished');
      if (event.status === 'completed')
        enqueue.sendTo('socket', audioAcknowledgment(event.item, new Date(context.clockNow ?? 0).toISOString()));
    }),
    interruptAudio: enqueueActions((args) => tellAudioQueue(args, { type: 'audio.interrupt' })),
    /** A run that ends by itself lets its last words finish (Stop has cleared the queue already). */
    endSpeech: () => {},
    showRetrying: assign(({ event }) => {
      assertEvent(event, 'socketSession.retrying');
      return retryBanner(event);
    }),
    /** An open (first or resumed) clears the banner and forgets the socket error that came before a drop. */
    clearRetrying: assign({ error: null, pendingProblem: null }),
    rememberSocketError: assign({
      pendingProblem: ({ event }) => {
        assertEvent(event, 'socketSession.error');
        return hybridSocketErrorMessage(event.everOpened);
      },
    }),
    rememberTimeout: assign({ pendingProblem: DISCUSSION_MESSAGES.hybridTimeout }),
    showProtocolError: assign({
      error: ({ event }) => {
        assertEvent(event, 'socketSession.protocolError');
        return hybridProtocolMessage(event.direction, event.frameType);
      },
    }),
    explainClose: assign({
      error: ({ context, event }) => {
        assertEvent(event, 'socketSession.closed');
        return hybridCloseBanner(event, context);
      },
      pendingProblem: null,
    }),
    /** Keeps the settings for this user (provided: local storage); a no-op when nothing is provided. */
    saveSettings: (_, _params?: unknown) => {},
    // Saved settings apply only before a run took its own (a resume brings the run's settings).
    restoreSettings: assign(({ context, event }) => {
      // The loader's done event (the chart's own event types do not name it).
      const saved = (event as { output?: unknown }).output;
      if (context.run || !saved) return {};
      const parsed = hybridSettings.safeParse(saved);
      return parsed.success ? { settings: parsed.data } : {};
    }),
  },
})
  // The run's actions both panels share (kit/runActions.ts), under the names discussionRun.states.ts uses.
  .extend({
    actions: runActions<HybridDiscussionContext, HybridDiscussionEvent>({
      machine: 'hybridDiscussion',
      humanSend: 'panel.human.send',
      formatSend: 'panel.format.send',
      toolAnswer: 'panel.tool.answer',
    }),
  })
  .createMachine({
    id: 'hybridDiscussion',
    context: panelContext(initialHybridContext),
    entry: 'readSessionToken',
    type: 'parallel',
    invoke: [
      { id: 'settingsLoader', src: 'loadSettings', onDone: { actions: 'restoreSettings' } },
      // The mode picker's descriptions; optional: without them the picker shows the four modes by name.
      {
        id: 'modesLoader',
        src: 'loadModes',
        onDone: { actions: assign({ modes: ({ event }) => event.output }) },
        onError: {},
      },
      { id: 'exporter', src: 'exportHybridPdf', input: { failureText: () => DISCUSSION_MESSAGES.hybridPdfFailed } },
    ],
    on: {
      'panel.export': { actions: 'exportFeed' },
      // Only the run's clock child ticks, so only a run's duration moves.
      'panel.tick': { actions: assign({ clockNow: ({ event }) => event.now }) },
      'panel.topic.change': { actions: 'setTopic' },
      'panel.continue': { actions: 'continueDraft' },
      'panel.continue.cancel': { actions: assign({ continuation: null }) },
      'panel.error.dismiss': { actions: 'dismissError' },
      'panel.audio.interrupt': { actions: 'interruptAudio' },
    },
    states: {
      run: {
        initial: 'idle',
        states: {
          idle: { tags: 'idle', on: betweenRuns },
          session: {
            invoke: [
              {
                src: 'socketSession',
                id: 'socket',
                input: ({ context, self }): SocketSessionInput => ({
                  path: ENDPOINTS.hybrid.path,
                  firstFrame: withAttachedSources(buildHybridConfig(context.run!), self.system),
                  policy,
                  parent: self,
                }),
              },
              // The header shows whole seconds.
              { src: 'clock', id: 'clock', input: { intervalMs: 1000 } },
            ],
            ...discussionRunSession('panel.stop', {
              'panel.human.send': { guard: 'hasText', actions: ['readClock', 'sendHumanMessage'] },
              'panel.format.send': { actions: 'sendFormatRequest' },
              'panel.tool.answer': { guard: 'isToolCallWaiting', actions: 'sendToolApproval' },
              'sources.live.add': { actions: 'sendSourcesAdd' },
            }),
          },
          ended: { tags: 'ended', on: betweenRuns },
          failed: { tags: ['ended', 'error'], on: betweenRuns },
        },
      },
      startQuestion: startQuestionRegion({
        start: 'panel.start',
        confirm: 'panel.start.confirm',
        cancel: 'panel.start.cancel',
        resume: 'panel.resume',
      }),
    },
  });

export type HybridDiscussionActorRef = ActorRefFrom<typeof hybridDiscussionMachine>;
export type HybridDiscussionSnapshot = SnapshotFrom<typeof hybridDiscussionMachine>;

declare module './kit/systemRegistry' {
  interface SystemActors {
    hybridDiscussion: ActorRefFrom<typeof hybridDiscussionMachine>;
  }
}
