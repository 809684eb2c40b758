// What the hybrid panel's views read from its snapshot; rounds come from the feed (derived, not stored twice).
import { selectRound } from '../model/feedSelectors';
import { formatOption } from '../model/formats';
import { endedStatusLine } from '../model/runEnd';
import type { HybridDiscussionSnapshot } from './hybridDiscussion.machine';
export { selectStartQuestion } from './discussionRun.selectors';

export const selectTopic = (s: HybridDiscussionSnapshot) => s.context.topic;
export const selectSettings = (s: HybridDiscussionSnapshot) => s.context.settings;
export const selectModes = (s: HybridDiscussionSnapshot) => s.context.modes;
export const selectFeed = (s: HybridDiscussionSnapshot) => s.context.feed;
export const selectError = (s: HybridDiscussionSnapshot) => s.context.error;
export const selectIsLive = (s: HybridDiscussionSnapshot) =>
  s.hasTag('live') || s.hasTag('connecting') || s.hasTag('stopping');
/** Settings are disabled while connected (docs/product.md#discussions-states), and while connecting or stopping. */
export const selectSettingsLocked = (s: HybridDiscussionSnapshot) => s.matches({ run: 'session' });
export const selectCanStop = (s: HybridDiscussionSnapshot) => s.matches({ run: 'session' }) && !s.hasTag('stopping');
/** The export child: the export buttons read it (discussionExport selectors). */
export const selectExporter = (s: HybridDiscussionSnapshot) => s.children.exporter;
export const selectStartedAt = (s: HybridDiscussionSnapshot) => s.context.run?.startedAt ?? null;
/** The run's duration by its clock; it stops with the run. */
export const selectElapsedMs = (s: HybridDiscussionSnapshot) => {
  const { run, clockNow } = s.context;
  return run && clockNow !== null ? Math.max(0, clockNow - run.startedAt) : 0;
};
export const selectSessionId = (s: HybridDiscussionSnapshot) => s.context.run?.sessionId ?? null;
const NO_AGENTS: string[] = [];
/** The agents of the run (taking part, or last taken part); none before the first Start. */
export const selectRunAgentIds = (s: HybridDiscussionSnapshot) => s.context.run?.agentIds ?? NO_AGENTS;
/** The format the run started with (its controls under the feed), or the setting before a run. */
export const selectRunFormat = (s: HybridDiscussionSnapshot) => (s.context.run ?? s.context).settings.format;
/** The person's message box is sendable only on an open socket. */
export const selectCanSendHuman = (s: HybridDiscussionSnapshot) => s.matches({ run: { session: 'live' } });

/** 'Round 2/10' where the format has rounds; '' for a council or a debate, whose stages the settings line names. */
export function selectRoundLabel(s: HybridDiscussionSnapshot): string {
  if (formatOption(selectRunFormat(s).kind).stages) return '';
  const round = selectRound(s.context.feed);
  const max = round.max ?? s.context.run?.settings.max_rounds ?? s.context.settings.max_rounds;
  return `Round ${round.current ?? 0}/${max}`;
}

/** The status line under the buttons. */
export function selectStatusLine(s: HybridDiscussionSnapshot): string {
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
 * Everything the panel's frame reads, as one view model: compare it with @xstate/react's shallowEqual, so the panel
 * renders when one of its parts changes (each part is a primitive or a reference the machine keeps).
 */
/** History's 'Continue from here' waiting for Start. */
export const selectContinuation = (s: HybridDiscussionSnapshot) => s.context.continuation;

export const selectPanelView = (s: HybridDiscussionSnapshot) => ({
  topic: selectTopic(s),
  settings: selectSettings(s),
  modes: selectModes(s),
  locked: selectSettingsLocked(s),
  live: selectIsLive(s),
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
