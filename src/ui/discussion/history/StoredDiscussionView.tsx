// One stored discussion, read-only: its title line, Replay with the Timeline (a #t=<turn> address opens that moment),
// the tabs (messages, reasoning tree, research, analytics) drawn with the panels' own components, and both exports.
// History's viewer and the public shared page (/s/{token}) both draw it; each passes its own actors and the buttons
// only it has (History: back to the list, Share, Continue; the shared page: none).
import { useSelector } from '@xstate/react';
import { useMemo, type ReactNode } from 'react';
import { selectIsExporting } from '../../../machines/discussionExport.selectors';
import type { DiscussionExportActorRef } from '../../../machines/discussionExport.machine';
import type { DiscussionTabsActorRef } from '../../../machines/discussionTabs.machine';
import { selectOpenTab } from '../../../machines/discussionTabs.selectors';
import type { HistoryTab, OpenedDiscussion } from '../../../machines/history.machine';
import { selectReplayOpen, type ReplayActorRef } from '../../../machines/replay.machine';
import type { WorkspaceActorRef } from '../../../machines/workspace.machine';
import { formatLabel } from '../../../model/discussionFormat';
import { toolCallsOf } from '../../../model/feed';
import {
  selectAnalytics,
  selectCounts,
  selectItem,
  selectMessageIds,
  selectPapers,
} from '../../../model/feedSelectors';
import { selectCitedSources } from '../../../model/citedSources';
import { originLabel } from '../../../model/historyRow';
import { selectReasoningTree } from '../../../model/reasoningTree';
import { historyStatusLabel } from '../../../model/runEnd';
import { endpointKeyOf } from '../../../model/storedReplay';
import type { ExportFormat } from '../../../model/standardVariant';
import { ENDPOINTS } from '../../../schemas/constants';
import { messageCountLabel } from '../../../shared/messageCount';
import { AnalyticsView } from '../common/AnalyticsView';
import { ArgumentTree } from '../common/ArgumentTree';
import { EmptyState } from '../common/EmptyState';
import { FeedList } from '../common/FeedList';
import { FeedRowView } from '../common/FeedRow';
import { ResearchList } from '../common/ResearchList';
import { TabBar, tabId, tabPanelId } from '../common/TabBar';
import { CanvasPositions } from './CanvasPositions';
import { ReplayView } from './ReplayView';

const endpointLabel = (path: string) => {
  const key = endpointKeyOf(path);
  return key ? ENDPOINTS[key].name : path;
};
export const dateLabel = (iso: string) => new Date(iso).toLocaleString();

export interface StoredDiscussionViewProps {
  opened: OpenedDiscussion;
  tabs: DiscussionTabsActorRef | undefined;
  exporter: DiscussionExportActorRef | undefined;
  /** The timeline: History's child, or the shared page's (an address's #t= opened it at that moment). */
  replay: ReplayActorRef;
  onTab: (tab: HistoryTab) => void;
  onExport: (format: ExportFormat) => void;
  /** Tab ids are `${idPrefix}-…`. */
  idPrefix: string;
  workspace?: WorkspaceActorRef;
  /** Before the title (History: back to the list). */
  lead?: ReactNode;
  /** Under the title (History: the continuation links). */
  subtitle?: ReactNode;
  /** Beside Replay (History: Share). */
  actions?: ReactNode;
  /** Above the tabs (History: the running discussion's Re-attach). */
  notice?: ReactNode;
  /** Replay's 'Continue from here' (absent: no such button). */
  onContinue?: (turn: number) => void;
}

export function StoredDiscussionView(props: StoredDiscussionViewProps) {
  const { opened, idPrefix: prefix, workspace } = props;
  const tab = useSelector(props.tabs, selectOpenTab);
  const exporting = useSelector(props.exporter, selectIsExporting);
  const feed = opened.feed;
  const counts = useMemo(() => selectCounts(feed), [feed]);
  const ids = useMemo(() => selectMessageIds(feed), [feed]);
  const d = opened.summary;
  const origin = originLabel(d);
  const { replay } = props;
  const replaying = useSelector(replay, selectReplayOpen);
  const closeReplay = () => replay.send({ type: 'replay.close' });
  const { onContinue } = props;
  return (
    <div className="history-opened">
      <div className="history-opened__head">
        {props.lead}
        <div className="history-opened__title">
          <h3>{d.topic}</h3>
          <p className="history-row__facts">
            <span className="history-row__format">{formatLabel(d.format)}</span>
            {/* Asked from another tool (an MCP client, the OpenAI-compatible /v1): said so. */}
            {origin && <span className="history-row__origin">{origin}</span>}
            <span className={`history-status history-status--${d.status}`}>{historyStatusLabel(d)}</span>
            <time dateTime={d.created_at}>{dateLabel(d.created_at)}</time>
            <span>Read-only</span>
          </p>
          {props.subtitle}
        </div>
        <div className="history-opened__actions">
          {props.actions}
          {replaying ? (
            <button type="button" className="button button--small" onClick={closeReplay}>
              Close replay
            </button>
          ) : (
            <button
              type="button"
              className="button button--small"
              disabled={opened.moments.length < 2}
              onClick={() => replay.send({ type: 'replay.open', turn: 0 })}
            >
              Replay
            </button>
          )}
        </div>
      </div>
      {!replaying && <CanvasPositions workspace={workspace} feed={feed} />}
      {replaying && (
        <ReplayView
          replay={replay}
          moments={opened.moments}
          workspace={workspace}
          participants={d.participants}
          onContinue={
            onContinue &&
            ((turn) => {
              closeReplay();
              onContinue(turn);
            })
          }
        />
      )}
      {props.notice}
      {!replaying && (
        <>
          <TabBar
            idPrefix={prefix}
            active={tab}
            onSelect={props.onTab}
            counts={{ tree: counts.arguments, research: counts.papers }}
          />
          <div
            className="tabpanel history-tabpanel"
            role="tabpanel"
            id={tabPanelId(tab, prefix)}
            aria-labelledby={tabId(tab, prefix)}
            tabIndex={0}
          >
            {tab === 'discussion' && (
              <FeedList
                ids={ids}
                label="Stored messages"
                renderRow={(id) => {
                  const item = selectItem(feed, id);
                  return item ? (
                    <FeedRowView
                      item={item}
                      workspace={workspace}
                      participants={d.participants}
                      calls={toolCallsOf(feed, id)}
                    />
                  ) : null;
                }}
                empty={<EmptyState title="No messages">Nothing was said in this discussion.</EmptyState>}
              />
            )}
            {tab === 'tree' && (
              <ArgumentTree
                roots={selectReasoningTree(feed)}
                emptyHint="This discussion has no turns, so it has no tree of arguments."
              />
            )}
            {tab === 'research' && (
              <ResearchList
                papers={selectPapers(feed)}
                researchOn={null}
                notice={feed.researchNotice}
                cited={selectCitedSources(feed)}
              />
            )}
            {tab === 'analytics' && (
              <AnalyticsView
                analytics={selectAnalytics(feed)}
                connection={{
                  status: historyStatusLabel(d),
                  endpoint: endpointLabel(d.endpoint),
                  sessionId: d.session_id,
                }}
              />
            )}
          </div>
          <div className="history-opened__foot">
            <span className="muted">{messageCountLabel(counts.messages)}</span>
            <button
              type="button"
              className="button button--small"
              disabled={exporting || !counts.messages}
              onClick={() => props.onExport('json')}
            >
              Export JSON
            </button>
            <button
              type="button"
              className="button button--small"
              disabled={exporting || !counts.messages}
              onClick={() => props.onExport('pdf')}
            >
              Export PDF
            </button>
          </div>
        </>
      )}
    </div>
  );
}
