// The standard panel ('Discussion': its title says what will run, then the topic; docs/product.md#discussions-screens). It reads the
// standard panel actor (discussionPanel.machine.ts), the workspace (selection, statuses) and the session (token), and only sends events. Loaded
// on demand with its libraries (react-virtuoso, headless-tree), so the sign-in screen does not carry them.
// The frame, header, footer, start form, feed row and run input are the hybrid panel's too (ui/discussion/common).
import { shallowEqual, useSelector } from '@xstate/react';
import { useMemo, useState, type ReactNode } from 'react';
import type { AudioQueueActorRef } from '../../../machines/audioQueue.machine';
import { selectIsExporting } from '../../../machines/discussionExport.selectors';
import { selectOpenTab } from '../../../machines/discussionTabs.selectors';
import type { SessionActorRef } from '../../../machines/session.machine';
import { selectToken } from '../../../machines/session.selectors';
import type { StandardDiscussionActorRef } from '../../../machines/discussionPanel.machine';
import * as sel from '../../../machines/discussionPanel.selectors';
import { selectAvailability, selectAvailableNames, selectIsProbing } from '../../../machines/endpointProbe.selectors';
import type { WorkspaceActorRef } from '../../../machines/workspace.machine';
import { selectAnalytics, selectMessageIds, selectPapers } from '../../../model/feedSelectors';
import { choiceOptions, chooseEndpoint } from '../../../model/endpointChoice';
import { toolsInUse } from '../../../model/feed';
import { messageCountLabel } from '../../../shared/messageCount';
import { ENDPOINT_TITLES, endpointReason, startProblem } from '../../../model/standardConfig';
import { startLabel } from '../../../model/discussionFormat';
import { ENDPOINTS } from '../../../schemas/constants';
import { AgentStrip } from '../common/AgentStrip';
import { useStripAgents } from '../common/useStripAgents';
import { AnalyticsView } from '../common/AnalyticsView';
import { AudioBlockedNotice } from '../common/AudioBlockedNotice';
import { OUTCOME_WORDS, runOutcome } from '../../../model/runEnd';
import { ArgumentTree } from '../common/ArgumentTree';
import { selectReasoningTree } from '../../../model/reasoningTree';
import { EmptyState } from '../common/EmptyState';
import { NewDiscussionButton } from '../common/PanelButtons';
import { ErrorBanner } from '../common/ErrorBanner';
import { FeedList } from '../common/FeedList';
import { PanelFeedRow } from '../common/PanelFeedRow';
import { PanelFrame } from '../common/PanelFrame';
import { RunInput } from '../common/RunInput';
import { InviteButton, RoomPeople } from '../../rooms/RoomViews';
import { selectIsJoinedRun } from '../../../machines/rooms.selectors';
import { ResearchList } from '../common/ResearchList';
import { selectCitedSources } from '../../../model/citedSources';
import { AdvancedSettings } from './AdvancedSettings';
import { FormatField } from '../common/FormatField';
import { TokenBudgetField } from '../common/TokenBudgetField';
import { PanelFooter } from '../common/PanelFooter';
import { ShareButton } from '../../share/ShareButton';
import { FooterCounts } from './FooterCounts';
import { StandardHeader } from './StandardHeader';
import { ContinuationNote } from '../common/ContinuationNote';
import { StartForm } from './StartForm';
import { plannedTurns, turnEstimateLine } from '../../../model/turnEstimate';
import { DISCUSSION_MESSAGES } from '../../../schemas/messages';
import { TabBar, tabId, tabPanelId } from '../common/TabBar';

const NONE: readonly string[] = [];
const STANDARD_EXPORTS = { pdf: 'PDF', json: 'JSON' };

export interface StandardPanelProps {
  discussion: StandardDiscussionActorRef;
  workspace: WorkspaceActorRef | undefined;
  session: SessionActorRef;
  audio?: AudioQueueActorRef;
  onShowHistory?: () => void;
  /** A notice the shell puts at the top of the panel (a running discussion offered for re-attach). */
  notice?: ReactNode;
  /** What the shell puts under Start before a run (the Sources section). */
  afterStart?: ReactNode;
  /** Selected agents whose model server is not answering: Start asks first. */
  unreachable?: readonly string[];
}

export default function StandardPanel({
  discussion,
  workspace,
  session,
  audio,
  onShowHistory,
  notice,
  afterStart,
  unreachable = NONE,
}: StandardPanelProps) {
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [expanded, setExpanded] = useState(false);
  // After a run the start form folds into one line so the finished discussion keeps the room; 'New discussion'
  // opens it again (for that run only: the next run folds it again when it ends).
  const [composingAfter, setComposingAfter] = useState<string | null>(null);

  const token = useSelector(session, selectToken);
  const {
    status,
    live,
    idle,
    canStop,
    canSendHuman,
    showHuman,
    error,
    draft,
    settings,
    tabs,
    counts,
    exporter,
    sessionId,
    runEndpoint,
    feed,
    probe,
    continuation,
  } = useSelector(discussion, sel.selectStandardView, shallowEqual);
  const busy = !idle;
  // A continuation chosen in History opens the start form even over a finished run's feed.
  const finished = idle && counts.messages > 0 && composingAfter !== sessionId && !continuation;
  const availability = useSelector(probe, (s) => (s ? selectAvailability(s) : null));
  const endpointsLine = useSelector(probe, (s) => (s ? selectAvailableNames(s) : 'Checking...'));
  const probing = useSelector(probe, (s) => (s ? selectIsProbing(s) : false));
  const tab = useSelector(tabs, selectOpenTab);
  const exporting = useSelector(exporter, selectIsExporting);
  // A finished run's Share dialog (absent while none has finished).
  const share = useSelector(discussion, (s) => s.children.share);
  const selectedIds = useSelector(workspace, (s) => s?.context.selectedIds ?? []);
  const edges = useSelector(workspace, (s) => s?.context.edges ?? []);
  const participants = useSelector(discussion, sel.selectParticipants);
  const runIds = useSelector(discussion, sel.selectRunAgentIds);
  const tokens = useSelector(discussion, sel.selectTokenTotal);
  const { agents, speaker } = useStripAgents(workspace, { live, runIds, participants });
  const using = useSelector(discussion, (s) => toolsInUse(s.context.feed), shallowEqual);
  const joined = useSelector(discussion, selectIsJoinedRun);

  const ids = useMemo(() => selectMessageIds(feed), [feed]);
  const problem = startProblem({ agentIds: selectedIds, context: draft, token });
  // What will run (idle) or runs: the same choice the machine makes at Start (endpointChoice.ts).
  const options = choiceOptions(settings, tab === 'tree');
  const planned = chooseEndpoint(options, availability ?? {});
  const shown = live || !idle ? (runEndpoint ?? planned) : planned;
  const endpointName = runEndpoint ? ENDPOINTS[runEndpoint].name : null;

  const start = () => {
    const chosen = new Set(selectedIds);
    discussion.send({
      type: 'panel.start',
      agentIds: selectedIds,
      unreachable: [...unreachable],
      connections: edges
        .filter((e) => chosen.has(e.source) && chosen.has(e.target))
        .map((e) => ({ source: e.source, target: e.target })),
    });
  };

  return (
    <PanelFrame discussion={discussion} variant="standard" label="Discussion" expanded={expanded}>
      <StandardHeader
        title={(counts.messages > 0 || !idle) && draft.trim() ? topicTitle(draft) : ENDPOINT_TITLES[shown]}
        sessionId={sessionId}
        endpointName={ENDPOINTS[runEndpoint ?? planned].name}
        endpointPath={ENDPOINTS[runEndpoint ?? planned].path}
        status={status}
        live={live}
        starting={busy && !live}
        hasMessages={counts.messages > 0}
        tokens={tokens}
        settingsOpen={settingsOpen}
        expanded={expanded}
        onToggleSettings={() => setSettingsOpen((v) => !v)}
        onToggleExpanded={() => setExpanded((v) => !v)}
        onShowHistory={onShowHistory}
        why={idle ? endpointReason(planned, options, availability ?? {}) : undefined}
        invite={<InviteButton discussion={discussion} />}
        endpoints={{
          line: endpointsLine,
          probing,
          onRefresh: () => discussion.send({ type: 'panel.endpoints.refresh' }),
        }}
      />
      {settingsOpen && availability && (
        <AdvancedSettings
          settings={settings}
          availability={availability}
          probing={probing}
          onChange={(next) => discussion.send({ type: 'panel.settings.update', settings: next })}
          onRefresh={() => discussion.send({ type: 'panel.endpoints.refresh' })}
          onReset={() => discussion.send({ type: 'panel.settings.reset' })}
          onClose={() => setSettingsOpen(false)}
        />
      )}
      <ErrorBanner message={error} onDismiss={() => discussion.send({ type: 'panel.error.dismiss' })} />
      <AudioBlockedNotice audio={audio} />
      {/* A finished run keeps the panel for its feed: the before-Start notice and the idle strip wait for 'New discussion'. */}
      {!finished && !joined && notice}
      {/* A member's canvas is their own: the owner's agents are not on it (the feed names them). */}
      {!finished && !(joined && agents.length === 0) && (
        <AgentStrip agents={agents} activeSpeakerId={speaker} down={idle ? unreachable : undefined} using={using} />
      )}
      {finished && (
        <div className="run-done">
          <span className="run-done__text">
            {OUTCOME_WORDS[runOutcome(feed, status === 'error')]} {messageCountLabel(counts.messages)} — export it below
            or start another.
          </span>
          <NewDiscussionButton onClick={() => setComposingAfter(sessionId)} />
        </div>
      )}
      {idle && (counts.messages === 0 || composingAfter === sessionId || continuation) && (
        <StartForm
          lead={
            continuation && (
              <ContinuationNote
                continuation={continuation}
                onCancel={() => discussion.send({ type: 'panel.continue.cancel' })}
              />
            )
          }
          text={draft}
          // With no agent selected the agent strip already says to select two: the sentence is said once.
          problem={problem === DISCUSSION_MESSAGES.selectTwoAgents && selectedIds.length === 0 ? null : problem}
          blocked={problem !== null}
          busy={busy}
          loggedIn={Boolean(token)}
          startLabel={startLabel(settings.format.kind)}
          reason={turnEstimateLine(planned, settings, new Set(selectedIds).size)}
          onTextChange={(text) => discussion.send({ type: 'panel.topic.change', text })}
          afterBox={
            <>
              <FormatField
                value={settings.format}
                agents={agents}
                turns={plannedTurns(planned, settings, new Set(selectedIds).size).turns}
                connected={edges.some(
                  (e) => selectedIds.includes(e.source) && selectedIds.includes(e.target) && e.source !== e.target,
                )}
                onChange={(format) =>
                  discussion.send({ type: 'panel.settings.update', settings: { ...settings, format } })
                }
              />
              <TokenBudgetField
                value={settings.token_budget}
                onChange={(token_budget) =>
                  discussion.send({ type: 'panel.settings.update', settings: { ...settings, token_budget } })
                }
              />
            </>
          }
          onStart={start}
        />
      )}
      {/* Sources: before a run, and during one (what is added then is read from the next run). */}
      {!finished && afterStart}
      <TabBar
        active={tab}
        onSelect={(t) => discussion.send({ type: 'panel.tab.select', tab: t })}
        counts={{ tree: counts.arguments, research: counts.papers }}
      />
      <div className="tabpanel" role="tabpanel" id={tabPanelId(tab)} aria-labelledby={tabId(tab)} tabIndex={0}>
        {tab === 'discussion' && (
          <FeedList
            ids={ids}
            label="Discussion messages"
            renderRow={(id) => <PanelFeedRow discussion={discussion} workspace={workspace} id={id} />}
            empty={
              <EmptyState title={busy ? 'Waiting for the first message…' : 'No messages yet'}>
                {busy
                  ? 'The agents are getting ready.'
                  : !draft.trim()
                    ? 'Describe above what the agents should discuss, then press Start.'
                    : 'Ready: press Start and the agents begin.'}
              </EmptyState>
            }
          />
        )}
        {tab === 'tree' && <ArgumentTree roots={selectReasoningTree(feed)} />}
        {tab === 'research' && (
          <ResearchList
            papers={selectPapers(feed)}
            researchOn={settings.research.enableResearch}
            notice={feed.researchNotice}
            cited={selectCitedSources(feed)}
          />
        )}
        {tab === 'analytics' && (
          <AnalyticsView analytics={selectAnalytics(feed)} connection={{ status, endpoint: endpointName, sessionId }} />
        )}
      </div>
      <RoomPeople discussion={discussion} />
      <RunInput discussion={discussion} agents={agents} live={live} showHuman={showHuman} canSendHuman={canSendHuman} />
      <PanelFooter
        lead={<FooterCounts counts={counts} />}
        stop={{
          // Stop is the owner's; a person who joined leaves (the discussion goes on).
          label: joined ? 'Leave' : 'Stop',
          icon: true,
          enabled: canStop,
          onStop: () => discussion.send({ type: 'panel.stop' }),
        }}
        exports={{
          labels: STANDARD_EXPORTS,
          enabled: counts.messages > 0,
          exporting,
          onExport: (format) => discussion.send({ type: 'panel.export', format }),
        }}
        afterExports={<ShareButton share={share} topic={draft} />}
      />
    </PanelFrame>
  );
}

/** The title once a discussion is on: its topic's first line, shortened to fit the header. */
const topicTitle = (text: string) => {
  const first = text.trim().split('\n')[0];
  return first.length > 70 ? `${first.slice(0, 69).trimEnd()}…` : first;
};
