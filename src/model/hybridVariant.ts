// The hybrid panel (docs/product.md#discussions-screens, #discussions-states 'Hybrid discussion') as a variant of the
// one panel chart (machines/discussionPanel.machine.ts): its run (topic, settings and the time it started, for the
// header's duration), its settings (locked while a run goes on, templates filling several at once, a stored run's
// brought by 'Continue from here'), its start checks, its close wording and its synchronized speech. Pure.
import {
  hybridCloseBanner,
  hybridProtocolMessage,
  hybridSocketErrorMessage,
  isHybridFailedClose,
} from './connectionProblems';
import { audioAcknowledgment } from './discussionSocket';
import {
  buildHybridConfig,
  type HybridRun,
  hybridStartProblem,
  HYBRID_TEMPLATE_NAMES,
  withTemplate,
} from './hybridConfig';
import {
  continuedDraft,
  FRESH,
  initialPanelContext,
  runBase,
  type ContinueFacts,
  type ExportRequest,
  type PanelContext,
} from './panelRun';
import type { PanelVariant } from './panelVariant';
import { hybridAudioItem } from './speechItems';
import {
  ENDPOINTS,
  HYBRID_CONNECT_TIMEOUT_MS,
  sessionId as makeSessionId,
  STOP_CLOSE_DELAY_MS,
} from '../schemas/constants';
import type { HybridServerFrame } from '../schemas/hybridSocket';
import { DISCUSSION_MESSAGES } from '../schemas/messages';
import { defaults, hybridSettings, type HybridSettings } from '../schemas/settings';
import type { Feed } from './feed';

export type { HybridRun };

export type HybridPanelContext = PanelContext<HybridSettings, HybridRun>;

export const initialHybridContext: HybridPanelContext = initialPanelContext(defaults.hybrid, null);

export interface HybridContinueFacts extends ContinueFacts {
  /** The settings the stored run used (its mode, format, rounds…); null keeps the panel's own. */
  settings: HybridSettings | null;
}

export interface HybridResumeFacts {
  sessionId: string;
  agentIds: string[];
  topic: string;
  settings: HybridSettings;
  /** What History replayed of it, and how many stored frames that was. */
  feed: Feed;
  resumeFrom: number;
}

const isTemplateName = (name: string): name is (typeof HYBRID_TEMPLATE_NAMES)[number] =>
  (HYBRID_TEMPLATE_NAMES as string[]).includes(name);

export const hybridVariant: PanelVariant<HybridSettings, HybridRun, HybridServerFrame, HybridResumeFacts> = {
  id: 'hybridDiscussion',
  initialContext: initialHybridContext,
  settingsSchema: hybridSettings,
  speechOn: (settings) => settings.tts,
  humanMayJoin: () => true,
  // Saved settings apply only before a run took its own (a resume brings the run's settings).
  restoreSaved: (context, saved) => {
    if (context.run || !saved) return {};
    const parsed = hybridSettings.safeParse(saved);
    return parsed.success ? { settings: parsed.data } : {};
  },
  withTemplate: (context, name) => (isTemplateName(name) ? withTemplate(context, name) : {}),
  locksSettingsWhileRunning: true,
  switchesSpeechQueue: false,
  startProblem: (context, agentIds) => hybridStartProblem(agentIds, context.topic),
  newRun: (context, start) => {
    const now = context.clockNow ?? 0;
    return { ...runBase(context, start.agentIds, makeSessionId(now)), topic: context.topic.trim(), startedAt: now };
  },
  /**
   * Re-attach (History): the running discussion's own session, topic and settings (shown, locked while connected);
   * the feed History replayed stays, and the server is asked for the frames after it, so speech plays only for what
   * is new.
   */
  resumed: (context, resume) => ({
    run: {
      sessionId: resume.sessionId,
      agentIds: [...new Set(resume.agentIds)],
      topic: resume.topic,
      token: context.token,
      settings: resume.settings,
      startedAt: context.clockNow ?? 0,
      resumeFrom: resume.resumeFrom,
    },
    topic: resume.topic,
    settings: resume.settings,
    feed: resume.feed,
    error: null,
    pendingProblem: null,
  }),
  joined: (context, join) => ({
    run: {
      sessionId: join.discussionId,
      agentIds: [],
      topic: '',
      token: context.token,
      settings: context.settings,
      startedAt: context.clockNow ?? 0,
      room: join,
    },
    topic: '',
    ...FRESH,
  }),
  // Between runs a continuation brings the stored run's settings too (while one runs, they are its own: locked).
  continued: (facts, settingsFree) => ({
    ...continuedDraft(facts),
    ...(settingsFree && facts.settings ? { settings: facts.settings } : {}),
  }),
  endpointFor: () => 'hybrid',
  loadsParticipants: false,
  choosesEndpoint: false,
  ticks: true,
  loadsModes: true,
  socketPath: () => ENDPOINTS.hybrid.path,
  firstFrame: buildHybridConfig,
  connectTimeoutMs: HYBRID_CONNECT_TIMEOUT_MS,
  stopCloseDelayMs: STOP_CLOSE_DELAY_MS,
  // discussion_ended, or an error the server marks fatal: it will say no more.
  endsSession: (frame) => frame?.type === 'discussion_ended' || (frame?.type === 'error' && frame.fatal === true),
  keepsBannerOnFirstOpen: false,
  isFailedClose: (close, context) => isHybridFailedClose(close.code, context),
  closeBanner: (close, context) => hybridCloseBanner(close, context),
  socketErrorMessage: (everOpened) => hybridSocketErrorMessage(everOpened),
  timeoutMessage: () => DISCUSSION_MESSAGES.hybridTimeout,
  protocolMessage: hybridProtocolMessage,
  speechItem: hybridAudioItem,
  playedFrame: (item, clockNow) => audioAcknowledgment(item, new Date(clockNow ?? 0).toISOString()),
  // A run that ends by itself lets its last words finish (Stop has cleared the queue already).
  endsSpeechWithRun: false,
  exportFailureText: () => DISCUSSION_MESSAGES.hybridPdfFailed,
};

/** What the export child writes for a hybrid run (the hybrid PDF, or the same export as JSON). */
export type HybridExportRequest = ExportRequest<HybridRun>;
