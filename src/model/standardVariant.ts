// The standard panel ('Discussion', docs/product.md#discussions-screens) as a variant of the one panel chart
// (machines/discussionPanel.machine.ts): its run (what its configuration message is built from, again on every
// reconnect so the server resumes the same session), its settings (Advanced Settings, changeable at any time once
// loaded), its start checks, its endpoint (chosen at Start from its probe), its close wording and its speech. Pure.
import { isAuthErrorFrame, isQuietStandardClose, socketErrorMessage, standardCloseBanner } from './connectionProblems';
import { playedStatus } from './discussionSocket';
import { choiceOptions, chooseEndpoint } from './endpointChoice';
import { withSaved } from './panelSettings';
import { continuedDraft, FRESH, initialPanelContext, runBase, type ExportRequest, type PanelContext } from './panelRun';
import type { PanelVariant } from './panelVariant';
import { standardAudioItem } from './speechItems';
import { buildStandardConfig, endpointName, startProblem, type ConfigRequest } from './standardConfig';
import {
  ENDPOINTS,
  sessionId as makeSessionId,
  STANDARD_CONNECT_TIMEOUT_MS,
  type EndpointKey,
} from '../schemas/constants';
import { DISCUSSION_MESSAGES } from '../schemas/messages';
import { defaults, standardPanelSettings, type PanelFormat, type StandardPanelSettings } from '../schemas/settings';
import type { StandardServerFrame } from '../schemas/standardSocket';

export const STANDARD_TABS = ['discussion', 'tree', 'research', 'analytics'] as const;
export type StandardTab = (typeof STANDARD_TABS)[number];

/**
 * What a run needs from the moment Start is pressed: exactly what its configuration message is built from (again on
 * every reconnect, so the server resumes the same session). Kept after the run so it can be exported.
 */
export type RunInfo = ConfigRequest;

export type StandardPanelContext = PanelContext<StandardPanelSettings, RunInfo>;

export const initialStandardContext: StandardPanelContext = initialPanelContext(defaults.standardPanel, 0);

export interface ResumeFacts {
  sessionId: string;
  endpoint: EndpointKey;
  agentIds: string[];
  context: string;
  /** The format the stored run started with; the panel's own setting when not said. */
  format?: PanelFormat;
}

export type { Continuation, ContinueFacts, ExportFormat } from './panelRun';

/** The endpoint whose socket path this is (a joined run goes where the owner's runs); Basic when none matches. */
const endpointAt = (path: string | undefined): EndpointKey =>
  (Object.keys(ENDPOINTS) as EndpointKey[]).find((k) => ENDPOINTS[k].path === path) ?? 'basic';

const endpointLabel = (run: RunInfo | null) => (run ? endpointName(run.endpoint) : 'the server');
const closeFacts = (run: RunInfo | null, close: { code: number; reason: string; gaveUp: boolean }) => ({
  code: close.code,
  reason: close.reason,
  gaveUp: close.gaveUp,
  endpointName: endpointLabel(run),
});

export const standardVariant: PanelVariant<StandardPanelSettings, RunInfo, StandardServerFrame, ResumeFacts> = {
  id: 'standardDiscussion',
  initialContext: initialStandardContext,
  settingsSchema: standardPanelSettings,
  speechOn: (settings) => settings.basic.tts,
  humanMayJoin: (settings) => settings.basic.humanParticipation,
  restoreSaved: (context, saved) => ({ settings: withSaved(context.settings, saved) }),
  withTemplate: () => ({}),
  locksSettingsWhileRunning: false,
  switchesSpeechQueue: true,
  startProblem: (context, agentIds) => startProblem({ agentIds, context: context.topic, token: context.token }),
  newRun: (context, start) => ({
    ...runBase(context, start.agentIds, makeSessionId(context.clockNow ?? 0)),
    endpoint: start.endpoint,
    context: context.topic.trim(),
    connections: start.connections ?? [],
  }),
  /**
   * Re-attaching to a running discussion (History → Resume): a run with that session id, endpoint, agents and
   * context, asking the server to replay from the start (resume_from 0). The feed starts empty and keys items by id,
   * so nothing shows twice, and a later reconnect re-sends the same configuration.
   */
  resumed: (context, resume) => ({
    run: {
      sessionId: resume.sessionId,
      endpoint: resume.endpoint,
      agentIds: [...new Set(resume.agentIds)],
      context: resume.context,
      token: context.token,
      connections: [],
      settings: resume.format ? { ...context.settings, format: resume.format } : context.settings,
      resumeFrom: 0,
    },
    topic: resume.context,
    ...FRESH,
  }),
  /** The discussion's own configuration is the owner's: the server sends what the joiner sees, on its own path. */
  joined: (context, join) => ({
    run: {
      sessionId: join.discussionId,
      endpoint: endpointAt(join.endpoint),
      agentIds: [],
      context: '',
      token: context.token,
      connections: [],
      settings: context.settings,
      room: join,
    },
    topic: '',
    ...FRESH,
  }),
  continued: (facts) => continuedDraft(facts),
  endpointFor: (settings, reasoningTabOpen, availability) =>
    chooseEndpoint(choiceOptions(settings, reasoningTabOpen), availability),
  loadsParticipants: true,
  choosesEndpoint: true,
  ticks: false,
  loadsModes: false,
  socketPath: (run) => ENDPOINTS[run.endpoint].path,
  firstFrame: buildStandardConfig,
  connectTimeoutMs: STANDARD_CONNECT_TIMEOUT_MS,
  // Stop sends `stop` and closes at once; if the close never comes back, the run ends anyway.
  stopCloseDelayMs: 0,
  endsSession: (frame) => frame?.type === 'discussion_ended' || isAuthErrorFrame(frame),
  keepsBannerOnFirstOpen: true,
  isFailedClose: (close, context) => !isQuietStandardClose(closeFacts(context.run, close), context),
  closeBanner: (close, context) => standardCloseBanner(closeFacts(context.run, close), context),
  socketErrorMessage: (everOpened, run, availableNames) =>
    socketErrorMessage(everOpened, endpointLabel(run), availableNames),
  timeoutMessage: (run) => DISCUSSION_MESSAGES.connectionTimeout(endpointLabel(run)),
  protocolMessage: (_direction, frameType) => DISCUSSION_MESSAGES.protocolError(frameType),
  speechItem: (frame) => standardAudioItem(frame),
  playedFrame: (item) => playedStatus(item),
  endsSpeechWithRun: true,
  exportFailureText: DISCUSSION_MESSAGES.exportFailed,
};

/** What the export child writes for a standard run. */
export type StandardExportRequest = ExportRequest<RunInfo>;
