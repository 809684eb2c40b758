// The hybrid panel (docs/product.md#discussions-screens 'Hybrid panel'): header with duration, round counter, expand
// and export; collapsible settings; the topic box with four templates; Start; the feed with its audio; Stop Discussion,
// Interrupt Audio, Export PDF, Research and Delegations; the status line. The frame, header, footer, start form, feed
// row and run input are the standard panel's too (ui/discussion/common): only what the spec makes differ is here.
import { shallowEqual, useSelector } from '@xstate/react';
import { useMemo, useState, type ReactNode } from 'react';
import type { AudioQueueActorRef } from '../../../machines/audioQueue.machine';
import { selectCurrentItem, selectIsInterrupted } from '../../../machines/audioQueue.selectors';
import type { HybridDiscussionActorRef } from '../../../machines/discussionPanel.machine';
import { selectIsExporting } from '../../../machines/discussionExport.selectors';
import * as sel from '../../../machines/discussionPanel.selectors';
import type { WorkspaceActorRef } from '../../../machines/workspace.machine';
import { countMessages, selectDelegations, selectMessageIds, selectPapers } from '../../../model/feedSelectors';
import { toolsInUse } from '../../../model/feed';
import { messageCountLabel } from '../../../shared/messageCount';
import { hybridStartProblem } from '../../../model/hybridConfig';
import { startLabel } from '../../../model/discussionFormat';
import { personSeat } from '../../../model/formats';
import { AgentStrip } from '../common/AgentStrip';
import { useStripAgents } from '../common/useStripAgents';
import { PanelHeader } from '../common/PanelHeader';
import { PanelFooter } from '../common/PanelFooter';
import { ShareButton } from '../../share/ShareButton';
import { AudioBlockedNotice } from '../common/AudioBlockedNotice';
import { hybridSettingsSummary } from '../../../model/hybridSummary';
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
import { FormatField } from '../common/FormatField';
import { TokenBudgetField } from '../common/TokenBudgetField';
import { ContinuationNote } from '../common/ContinuationNote';
import { DelegationList } from './DelegationList';
import { HybridSettingsForm } from './HybridSettingsForm';
import { HybridTopicForm } from './HybridTopicForm';
import { formatDuration } from './formatDuration';

type Drawer = 'none' | 'research' | 'delegations';
const NONE: readonly string[] = [];
const HYBRID_EXPORTS = { pdf: 'Export PDF', json: 'Export JSON' };

export default function HybridPanel({
  discussion,
  workspace,
  audio,
  onShowHistory,
  notice,
  afterStart,
  unreachable = NONE,
}: {
  discussion: HybridDiscussionActorRef;
  workspace: WorkspaceActorRef | undefined;
  audio: AudioQueueActorRef | undefined;
  onShowHistory?: () => void;
  notice?: ReactNode;
  /** What the shell puts under Start before a run (the Sources section). */
  afterStart?: ReactNode;
  /** Selected agents whose model server is not answering: Start asks first. */
  unreachable?: readonly string[];
}) {
  const [expanded, setExpanded] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  // While a run is on (and after it, until 'New discussion') the setup folds into one line so the feed has the room.
  const [composingAfter, setComposingAfter] = useState<number | null>(null);
  const [drawer, setDrawer] = useState<Drawer>('none');
  // The hybrid panel gives the feed the room: the message box shows when the person has a part in the format (the
  // moderator, the judge) or asks for it with 'Join in' (an @name gives an agent the next turn).
  const [joinIn, setJoinIn] = useState(false);

  const selectedIds = useSelector(workspace, (s) => s?.context.selectedIds ?? []);
  const {
    topic,
    settings,
    modes,
    locked,
    live,
    status,
    error,
    feed,
    round,
    startedAt,
    canStop,
    canSendHuman,
    runAgentIds,
    runFormat,
    exporter,
    elapsed,
    continuation,
  } = useSelector(discussion, sel.selectHybridView, shallowEqual);
  const wsAgents = useSelector(workspace, (s) => s?.context.agents);
  const exporting = useSelector(exporter, selectIsExporting);
  // A finished run's Share dialog (absent while none has finished).
  const share = useSelector(discussion, (s) => s.children.share);
  const audioActive = useSelector(audio, (s) => (s ? selectCurrentItem(s) !== null : false));
  const speechPaused = useSelector(audio, (s) => (s ? selectIsInterrupted(s) : false));
  // Speech off and nothing playing: no audio control. Interrupted: the notice above offers 'Resume audio'.
  const showInterrupt = (settings.tts || audioActive) && !speechPaused;

  const ids = useMemo(() => selectMessageIds(feed), [feed]);
  const papers = useMemo(() => selectPapers(feed), [feed]);
  const delegations = useMemo(() => selectDelegations(feed), [feed]);
  const problem = hybridStartProblem(selectedIds, topic);
  const hasMessages = ids.length > 0;
  // A continuation chosen in History opens the topic box even over a finished run's feed.
  const composing = !locked && (!hasMessages || composingAfter === startedAt || continuation !== null);
  // Who the Format setting offers (the selection), or who takes part once a run is on (its controls, @names).
  const agentIds = locked ? runAgentIds : selectedIds;
  const agents = useMemo(
    () =>
      [...new Set(agentIds)].map((id) => ({
        id,
        name: wsAgents?.find((a) => a.id === id)?.name ?? `Agent ${id.slice(-8)}`,
      })),
    [agentIds, wsAgents],
  );
  const seat = runFormat ? personSeat(runFormat, agentIds) : null;
  const personHasRole = !!seat && (seat.givesFloor || seat.judges);
  const { agents: stripAgents, speaker } = useStripAgents(workspace, { live, runIds: runAgentIds });
  const using = useSelector(discussion, (s) => toolsInUse(s.context.feed), shallowEqual);
  const tokens = useSelector(discussion, sel.selectTokenTotal);
  const joined = useSelector(discussion, selectIsJoinedRun);
  const start = () => discussion.send({ type: 'panel.start', agentIds: selectedIds, unreachable: [...unreachable] });

  return (
    <PanelFrame discussion={discussion} variant="hybrid" label="Hybrid discussion" expanded={expanded}>
      <PanelHeader
        title="Hybrid Discussion"
        live={live}
        starting={false}
        hasMessages={hasMessages}
        expanded={expanded}
        onToggleExpanded={() => setExpanded((v) => !v)}
        onShowHistory={onShowHistory}
        tokens={tokens}
        facts={
          <>
            <span title="Duration">{formatDuration(elapsed)}</span>
            {round && <span title="Round">{round}</span>}
            <span data-testid="hybrid-count-messages">{messageCountLabel(countMessages(feed))}</span>
          </>
        }
        actions={<InviteButton discussion={discussion} />}
      />
      <ErrorBanner message={error} onDismiss={() => discussion.send({ type: 'panel.error.dismiss' })} />
      <AudioBlockedNotice audio={audio} />
      {/* As in the standard panel, a finished run keeps the panel for its feed: the notice waits for 'New discussion'. */}
      {composing && !joined && notice}
      <div className="hybrid-top">
        {/* Locked while it runs: the settings are one line in the topic box below, and the feed keeps the height. */}
        {/* After a run the settings stay folded away until 'New discussion', so the feed keeps the panel. */}
        {!locked && composing && (
          <>
            <button
              type="button"
              className="disclosure"
              aria-expanded={settingsOpen}
              aria-controls="hybrid-settings"
              onClick={() => setSettingsOpen((v) => !v)}
            >
              <span aria-hidden="true">{settingsOpen ? '▾' : '▸'}</span> Settings
            </button>
            {settingsOpen && (
              <div id="hybrid-settings">
                <HybridSettingsForm
                  settings={settings}
                  modes={modes}
                  disabled={locked}
                  onChange={(next) => discussion.send({ type: 'panel.settings.update', settings: next })}
                />
                {/* Under Settings here: the hybrid form keeps its Start in view on a small screen. */}
                <TokenBudgetField
                  value={settings.token_budget}
                  disabled={locked}
                  onChange={(token_budget) =>
                    discussion.send({ type: 'panel.settings.update', settings: { ...settings, token_budget } })
                  }
                />
              </div>
            )}
          </>
        )}
        {!composing ? (
          <div className="run-done run-done--flush">
            <span className="run-done__text">
              <span className="run-done__line">
                <strong>Topic:</strong> {topic || '—'}
              </span>
              {locked && (
                <span className="run-done__line hybrid-settings-summary" title={hybridSettingsSummary(settings)}>
                  <strong>Settings:</strong> {hybridSettingsSummary(settings)}
                </span>
              )}
            </span>
            {!locked && <NewDiscussionButton onClick={() => setComposingAfter(startedAt)} />}
          </div>
        ) : (
          <>
            {/* Whose model server is not answering (Start asks first), on the participants' chips as in the standard
                panel; the strip shows only then, so the hybrid form keeps its Start in view on a small screen. */}
            {stripAgents.some((a) => unreachable.includes(a.name)) && (
              <AgentStrip agents={stripAgents} activeSpeakerId={speaker} down={unreachable} using={using} />
            )}
            {continuation && (
              <ContinuationNote
                continuation={continuation}
                onCancel={() => discussion.send({ type: 'panel.continue.cancel' })}
              />
            )}
            <FormatField
              value={settings.format}
              agents={agents}
              turns={settings.max_rounds * settings.turns_per_round * Math.max(2, agents.length)}
              connected={false}
              showHearing={false}
              onChange={(format) =>
                discussion.send({ type: 'panel.settings.update', settings: { ...settings, format } })
              }
            />
            <HybridTopicForm
              text={topic}
              problem={problem}
              startLabel={startLabel(settings.format.kind)}
              onTextChange={(text) => discussion.send({ type: 'panel.topic.change', text })}
              onTemplate={(template) => discussion.send({ type: 'panel.template.apply', template })}
              onStart={start}
            />
            {afterStart}
          </>
        )}
        {/* Sources during a run too (what is added then is read from the next run). */}
        {locked && afterStart}
      </div>
      {/* Focusable like the standard panel's tab panel: it scrolls (an empty state under open settings too), and
          keyboard users must be able to reach and scroll it (axe scrollable-region-focusable). */}
      <div
        className="tabpanel"
        role="region"
        aria-label={drawer === 'research' ? 'Research' : drawer === 'delegations' ? 'Delegations' : 'Discussion feed'}
        tabIndex={0}
      >
        {drawer === 'research' ? (
          <ResearchList
            papers={papers}
            researchOn={settings.allow_research}
            notice={feed.researchNotice}
            settingPlace="the settings (Allow research)"
            cited={selectCitedSources(feed)}
          />
        ) : drawer === 'delegations' ? (
          <DelegationList delegations={delegations} />
        ) : (
          <FeedList
            ids={ids}
            label="Hybrid discussion messages"
            renderRow={(id) => <PanelFeedRow discussion={discussion} workspace={workspace} audio={audio} id={id} />}
            empty={
              <EmptyState title="No messages yet">
                {/* How many agents to select is said once, under Start. */}
                Write a topic or pick a template, then press Start.
              </EmptyState>
            }
          />
        )}
      </div>
      <RoomPeople discussion={discussion} />
      <RunInput
        discussion={discussion}
        agents={agents}
        live={live}
        showHuman={locked && (joinIn || personHasRole)}
        canSendHuman={canSendHuman}
      />
      <PanelFooter
        className="panel-footer--hybrid"
        actionsClassName="panel-footer__actions--wrap"
        stop={{
          // Stop is the owner's; a person who joined leaves (the discussion goes on).
          label: joined ? 'Leave' : 'Stop Discussion',
          enabled: canStop,
          onStop: () => discussion.send({ type: 'panel.stop' }),
        }}
        afterStop={
          <>
            {locked && !personHasRole && (
              <button
                type="button"
                className="button button--small"
                aria-pressed={joinIn}
                onClick={() => setJoinIn((open) => !open)}
              >
                Join in
              </button>
            )}
            {showInterrupt && (
              <button
                type="button"
                className="button button--small"
                disabled={!audioActive}
                onClick={() => discussion.send({ type: 'panel.audio.interrupt' })}
              >
                Interrupt Audio
              </button>
            )}
          </>
        }
        exports={{
          labels: HYBRID_EXPORTS,
          enabled: hasMessages,
          exporting,
          onExport: (format) => discussion.send({ type: 'panel.export', format }),
        }}
        afterExports={
          <>
            <ShareButton share={share} topic={topic} />
            <button
              type="button"
              className="button button--small"
              aria-pressed={drawer === 'research'}
              onClick={() => setDrawer((d) => (d === 'research' ? 'none' : 'research'))}
            >
              Research ({papers.length})
            </button>
            <button
              type="button"
              className="button button--small"
              aria-pressed={drawer === 'delegations'}
              onClick={() => setDrawer((d) => (d === 'delegations' ? 'none' : 'delegations'))}
            >
              Delegations ({delegations.length})
            </button>
          </>
        }
        trail={
          <p className="panel-footer__status" role="status">
            {status}
          </p>
        }
      />
    </PanelFrame>
  );
}
