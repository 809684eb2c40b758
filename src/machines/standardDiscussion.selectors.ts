// What the standard panel's views read from its snapshot: statuses and flags derived from states and tags,
// the feed through the pure selectors of src/model/feedSelectors.ts.
import { selectCounts } from '../model/feedSelectors';
import { ENDPOINTS } from '../schemas/constants';
import type { StandardDiscussionSnapshot } from './standardDiscussion.machine';
export { selectStartQuestion } from './discussionRun.selectors';

export type ConnectionStatus = 'disconnected' | 'connecting' | 'connected' | 'error';

export const selectConnectionStatus = (s: StandardDiscussionSnapshot): ConnectionStatus =>
  s.hasTag('error')
    ? 'error'
    : s.hasTag('connecting')
      ? 'connecting'
      : s.hasTag('connected')
        ? 'connected'
        : 'disconnected';
/** The Live badge: a run is under way (open, or reconnecting to carry on). */
export const selectIsLive = (s: StandardDiscussionSnapshot) => s.hasTag('live');
export const selectIsReconnecting = (s: StandardDiscussionSnapshot) => s.hasTag('reconnecting');
/** Idle: no run is starting or under way, so the context box and Start show. */
export const selectIsIdle = (s: StandardDiscussionSnapshot) =>
  s.matches({ run: 'idle' }) || s.matches({ run: 'ended' }) || s.matches({ run: 'failed' });
export const selectIsBusy = (s: StandardDiscussionSnapshot) => !selectIsIdle(s);
export const selectCanStop = (s: StandardDiscussionSnapshot) =>
  s.matches({ run: 'preparing' }) ||
  s.matches({ run: { session: 'connecting' } }) ||
  s.matches({ run: { session: 'live' } }) ||
  s.matches({ run: { session: 'reconnecting' } });
export const selectCanSendHuman = (s: StandardDiscussionSnapshot) =>
  s.matches({ run: { session: 'live' } }) && s.context.settings.basic.humanParticipation;
export const selectShowsHumanBox = (s: StandardDiscussionSnapshot) =>
  selectIsLive(s) && s.context.settings.basic.humanParticipation;
export const selectError = (s: StandardDiscussionSnapshot) => s.context.error;
/** History's 'Continue from here' waiting for Start. */
export const selectContinuation = (s: StandardDiscussionSnapshot) => s.context.continuation;
export const selectDraftContext = (s: StandardDiscussionSnapshot) => s.context.draftContext;
export const selectSettings = (s: StandardDiscussionSnapshot) => s.context.settings;
export const selectSettingsLoading = (s: StandardDiscussionSnapshot) => s.hasTag('settingsLoading');
export const selectFeed = (s: StandardDiscussionSnapshot) => s.context.feed;
export const selectFeedCounts = (s: StandardDiscussionSnapshot) => selectCounts(s.context.feed);
export const selectHasMessages = (s: StandardDiscussionSnapshot) => selectCounts(s.context.feed).messages > 0;
export const selectSessionId = (s: StandardDiscussionSnapshot) => s.context.run?.sessionId ?? null;
/** The last 8 characters, as the header shows them. */
export const selectSessionSuffix = (s: StandardDiscussionSnapshot) => s.context.run?.sessionId.slice(-8) ?? null;
export const selectEndpointName = (s: StandardDiscussionSnapshot) =>
  s.context.run ? ENDPOINTS[s.context.run.endpoint].name : null;
export const selectParticipants = (s: StandardDiscussionSnapshot) => s.context.participants;
const NO_AGENTS: readonly string[] = [];
export const selectRunAgentIds = (s: StandardDiscussionSnapshot) => s.context.run?.agentIds ?? NO_AGENTS;
/** The format the run started with (its controls under the feed; a re-attached run's own), or the setting. */
export const selectRunFormat = (s: StandardDiscussionSnapshot) => (s.context.run ?? s.context).settings.format;
export const selectEndpointProbe = (s: StandardDiscussionSnapshot) => s.children.endpointProbe;
/** The tabs and export children: the tab bar and the export buttons read them (discussionTabs/discussionExport selectors). */
export const selectTabs = (s: StandardDiscussionSnapshot) => s.children.tabs;
export const selectExporter = (s: StandardDiscussionSnapshot) => s.children.exporter;

/**
 * Everything the panel's frame reads, as one view model: compare it with @xstate/react's shallowEqual, so the panel
 * renders when one of its parts changes (each part is a primitive or a reference the machine keeps).
 */
export const selectPanelView = (s: StandardDiscussionSnapshot) => ({
  status: selectConnectionStatus(s),
  live: selectIsLive(s),
  idle: selectIsIdle(s),
  canStop: selectCanStop(s),
  canSendHuman: selectCanSendHuman(s),
  showHuman: selectShowsHumanBox(s),
  error: selectError(s),
  draft: selectDraftContext(s),
  settings: selectSettings(s),
  tabs: selectTabs(s),
  counts: selectFeedCounts(s),
  exporter: selectExporter(s),
  sessionId: selectSessionId(s),
  runEndpoint: s.context.run?.endpoint ?? null,
  feed: selectFeed(s),
  probe: selectEndpointProbe(s),
  continuation: selectContinuation(s),
});
