// What the panels' views read from the one panel chart's snapshots (discussionPanel.machine.ts): statuses and flags
// derived from states and tags, the feed through the pure selectors of src/model/feedSelectors.ts. Most read either
// panel; the few that read what only one panel's context holds (its settings' fields, its run's) take that panel's
// snapshot.
import { selectCounts, selectRound } from '../model/feedSelectors';
import { formatOption } from '../model/formats';
import type { PanelContext, PanelRunBase } from '../model/panelRun';
import { endedStatusLine } from '../model/runEnd';
import { selectTokenSpend, tokenTotalText } from '../model/tokenSpend';
import { ENDPOINTS } from '../schemas/constants';
import type { PanelFormat } from '../schemas/settings';
import type { HybridDiscussionSnapshot, StandardDiscussionSnapshot } from './discussionPanel.machine';
export { selectStartQuestion } from './discussionRun.selectors';

type PanelTag = Parameters<StandardDiscussionSnapshot['hasTag']>[0];

/** Either panel's snapshot, as far as the shared selectors read it (methods, so either panel's snapshot fits). */
interface PanelSnapshot {
  context: PanelContext<{ format: PanelFormat }, PanelRunBase<{ format: PanelFormat }>>;
  hasTag(tag: PanelTag): boolean;
  matches(value: Parameters<StandardDiscussionSnapshot['matches']>[0]): boolean;
  can(event: { type: 'panel.human.send'; text: string }): boolean;
  children: { exporter?: unknown };
}

export type ConnectionStatus = 'disconnected' | 'connecting' | 'connected' | 'error';

export const selectConnectionStatus = (s: PanelSnapshot): ConnectionStatus =>
  s.hasTag('error')
    ? 'error'
    : s.hasTag('connecting')
      ? 'connecting'
      : s.hasTag('connected')
        ? 'connected'
        : 'disconnected';
/** The Live badge: a run is under way (open, or reconnecting to carry on). */
export const selectIsLive = (s: PanelSnapshot) => s.hasTag('live');
/** A run is connecting, under way or stopping. */
export const selectRunGoesOn = (s: PanelSnapshot) => s.hasTag('live') || s.hasTag('connecting') || s.hasTag('stopping');
export const selectIsReconnecting = (s: PanelSnapshot) => s.hasTag('reconnecting');
/** Idle: no run is starting or under way, so the topic box and Start show. */
export const selectIsIdle = (s: PanelSnapshot) =>
  s.matches({ run: 'idle' }) || s.matches({ run: 'ended' }) || s.matches({ run: 'failed' });
export const selectIsBusy = (s: PanelSnapshot) => !selectIsIdle(s);
/** Settings are disabled while connected (docs/product.md#discussions-states), and while connecting or stopping. */
export const selectSettingsLocked = (s: PanelSnapshot) => s.matches({ run: 'session' });
export const selectCanStop = (s: PanelSnapshot) =>
  s.matches({ run: 'preparing' }) || (s.matches({ run: 'session' }) && !s.hasTag('stopping'));
/** The person's message box sends on an open socket, when the panel lets the person join (the chart's own guard). */
export const selectCanSendHuman = (s: PanelSnapshot) =>
  s.matches({ run: { session: 'live' } }) && s.can({ type: 'panel.human.send', text: '.' });
export const selectShowsHumanBox = (s: StandardDiscussionSnapshot) =>
  selectIsLive(s) && s.context.settings.basic.humanParticipation;
export const selectError = (s: PanelSnapshot) => s.context.error;
/** History's 'Continue from here' waiting for Start. */
export const selectContinuation = (s: PanelSnapshot) => s.context.continuation;
export const selectTopic = (s: PanelSnapshot) => s.context.topic;
export const selectSettings = <T extends PanelSnapshot>(s: T): T['context']['settings'] => s.context.settings;
export const selectSettingsLoading = (s: PanelSnapshot) => s.hasTag('settingsLoading');
export const selectModes = (s: PanelSnapshot) => s.context.modes;
export const selectFeed = (s: PanelSnapshot) => s.context.feed;
export const selectFeedCounts = (s: PanelSnapshot) => selectCounts(s.context.feed);
export const selectHasMessages = (s: PanelSnapshot) => selectCounts(s.context.feed).messages > 0;
/** The header's token total ('≈ 12,400 tokens'); null before anything was counted. */
export const selectTokenTotal = (s: PanelSnapshot) => tokenTotalText(selectTokenSpend(s.context.feed));
export const selectSessionId = (s: PanelSnapshot) => s.context.run?.sessionId ?? null;
/** The last 8 characters, as the header shows them. */
export const selectSessionSuffix = (s: PanelSnapshot) => s.context.run?.sessionId.slice(-8) ?? null;
export const selectEndpointName = (s: StandardDiscussionSnapshot) =>
  s.context.run ? ENDPOINTS[s.context.run.endpoint].name : null;
export const selectParticipants = (s: PanelSnapshot) => s.context.participants;
const NO_AGENTS: string[] = [];
/** The agents of the run (taking part, or last taken part); none before the first Start. */
export const selectRunAgentIds = (s: PanelSnapshot) => s.context.run?.agentIds ?? NO_AGENTS;
/** The format the run started with (its controls under the feed; a re-attached run's own), or the setting. */
export const selectRunFormat = (s: PanelSnapshot) => (s.context.run ?? s.context).settings.format;
export const selectEndpointProbe = (s: StandardDiscussionSnapshot) => s.children.endpointProbe;
/** The tabs and export children: the tab bar and the export buttons read them (discussionTabs/discussionExport selectors). */
export const selectTabs = (s: StandardDiscussionSnapshot) => s.children.tabs;
export const selectExporter = <T extends StandardDiscussionSnapshot | HybridDiscussionSnapshot>(s: T) =>
  s.children.exporter;
export const selectStartedAt = (s: HybridDiscussionSnapshot) => s.context.run?.startedAt ?? null;
/** The run's duration by its clock; it stops with the run. */
export const selectElapsedMs = (s: HybridDiscussionSnapshot) => {
  const { run, clockNow } = s.context;
  return run && clockNow !== null ? Math.max(0, clockNow - run.startedAt) : 0;
};

/** 'Round 2/10' where the format has rounds; '' for a council or a debate, whose stages the settings line names. */
export function selectRoundLabel(s: HybridDiscussionSnapshot): string {
  if (formatOption(selectRunFormat(s).kind).stages) return '';
  const round = selectRound(s.context.feed);
  const max = round.max ?? s.context.run?.settings.max_rounds ?? s.context.settings.max_rounds;
  return `Round ${round.current ?? 0}/${max}`;
}

/** The hybrid panel's status line under the buttons. */
export function selectStatusLine(s: PanelSnapshot): string {
  if (s.hasTag('reconnecting')) return 'Reconnecting…';
  if (s.hasTag('connecting')) return 'Connecting…';
  if (s.hasTag('stopping')) return 'Stopping…';
  if (s.hasTag('connected')) {
    const round = selectRound(s.context.feed);
    return round.current ? `Connected · round ${round.current} in progress` : 'Connected · configuration sent';
  }
  if (s.hasTag('error')) return 'Disconnected after an error';
  if (s.matches({ run: 'ended' }))
    return s.context.feed.session.ended ? endedStatusLine(s.context.feed.session.ended.reason) : 'Discussion stopped';
  return 'Ready';
}

/**
 * Everything the standard panel's frame reads, as one view model: compare it with @xstate/react's shallowEqual, so
 * the panel renders when one of its parts changes (each part is a primitive or a reference the machine keeps).
 */
export const selectStandardView = (s: StandardDiscussionSnapshot) => ({
  status: selectConnectionStatus(s),
  live: selectIsLive(s),
  idle: selectIsIdle(s),
  canStop: selectCanStop(s),
  canSendHuman: selectCanSendHuman(s),
  showHuman: selectShowsHumanBox(s),
  error: selectError(s),
  draft: selectTopic(s),
  settings: s.context.settings,
  tabs: selectTabs(s),
  counts: selectFeedCounts(s),
  exporter: selectExporter(s),
  sessionId: selectSessionId(s),
  runEndpoint: s.context.run?.endpoint ?? null,
  feed: selectFeed(s),
  probe: selectEndpointProbe(s),
  continuation: selectContinuation(s),
});

/** The hybrid panel's view model, compared the same way. */
export const selectHybridView = (s: HybridDiscussionSnapshot) => ({
  topic: selectTopic(s),
  settings: s.context.settings,
  modes: selectModes(s),
  locked: selectSettingsLocked(s),
  live: selectRunGoesOn(s),
  status: selectStatusLine(s),
  error: selectError(s),
  feed: selectFeed(s),
  round: selectRoundLabel(s),
  startedAt: selectStartedAt(s),
  canStop: selectCanStop(s),
  canSendHuman: selectCanSendHuman(s),
  runAgentIds: selectRunAgentIds(s),
  runFormat: selectRunFormat(s),
  exporter: selectExporter(s),
  elapsed: selectElapsedMs(s),
  continuation: selectContinuation(s),
});
