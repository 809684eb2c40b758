// Past discussions: a dialog over either panel, opened by its History button. The list (newest first,
// virtualized when long), a read-only view of one discussion that reuses the panels' components (messages,
// reasoning tree, research, analytics) with both exports, and delete with a confirmation. It reads the history
// actor and only sends events.
import { useSelector } from '@xstate/react';
import { useId, useMemo } from 'react';
import { ModalDialog } from '../../common/ModalDialog';
import { historyStatusLabel } from '../../../model/runEnd';
import { Virtuoso } from 'react-virtuoso';
import type { HistoryActorRef, HistoryTab } from '../../../machines/history.machine';
import * as sel from '../../../machines/history.selectors';
import { messageCountLabel } from '../../../shared/messageCount';
import { FORMAT_OPTIONS, formatLabel } from '../../../model/discussionFormat';
import type { FormatKind } from '../../../schemas/format';
import type { DiscussionSummary } from '../../../schemas/history';
import { HISTORY_MESSAGES } from '../../../schemas/messages';
import { ConfirmDialog } from '../../common/ConfirmDialog';
import { deleteQuestion, joinNames, modelsOf, originLabel } from '../../../model/historyRow';
import { lookOf } from '../common/agentLook';
import { useModelName } from '../../models/useModelName';
import { EmptyState } from '../common/EmptyState';
import { ErrorBanner } from '../common/ErrorBanner';
import type { WorkspaceActorRef } from '../../../machines/workspace.machine';
import { ContinuationLinks } from './ContinuationLinks';
import { dateLabel, StoredDiscussionView } from './StoredDiscussionView';
import { ShareButton } from '../../share/ShareButton';
import './history.css';

/** Lists longer than this are virtualized (only the rows in view are in the DOM). */
export const HISTORY_VIRTUALIZE_AFTER = 40;

/** The participants' avatars as they looked when the discussion started, with their names for a reader. */
function Participants({ d }: { d: DiscussionSummary }) {
  const people = d.participants ?? [];
  if (people.length === 0) return null;
  return (
    <span className="history-row__people" role="img" aria-label={`With ${joinNames(people.map((p) => p.name))}`}>
      {people.map((p) => {
        const look = lookOf(p);
        return (
          <span
            key={p.id}
            className="history-avatar"
            style={{ background: look.color }}
            title={p.name}
            aria-hidden="true"
          >
            {look.avatar}
          </span>
        );
      })}
    </span>
  );
}

function Row({ d, history }: { d: DiscussionSummary; history: HistoryActorRef }) {
  const count = d.message_count ?? d.frame_count;
  const nameOf = useModelName();
  const models = modelsOf(d, nameOf);
  const origin = originLabel(d);
  return (
    <div className="history-row" role="listitem" aria-label={d.topic}>
      <div className="history-row__main">
        <span className="history-row__title">
          <Participants d={d} />
          <span className="history-row__topic">{d.topic}</span>
        </span>
        {d.first_line && <span className="history-row__first">{d.first_line}</span>}
        <span className="history-row__facts">
          {models.length > 0 && <span>{models.join(', ')}</span>}
          {/* Tagged by its format, in the Format setting's words; the socket it ran on is Analytics' business. */}
          <span className="history-row__format">{formatLabel(d.format)}</span>
          {/* Asked from another tool (an MCP client, the OpenAI-compatible /v1): said so. */}
          {origin && <span className="history-row__origin">{origin}</span>}
          <span className={`history-status history-status--${d.status}`}>{historyStatusLabel(d)}</span>
          <span>{d.message_count === undefined ? `${count} frames` : messageCountLabel(count)}</span>
          <time dateTime={d.created_at}>{dateLabel(d.created_at)}</time>
        </span>
        <ContinuationLinks d={d} history={history} />
      </div>
      <div className="history-row__actions">
        {d.status === 'running' && (
          <button
            type="button"
            className="button button--small button--primary"
            onClick={() => history.send({ type: 'history.open', id: d.id, reattach: true })}
            aria-label={`Re-attach ${d.topic}`}
          >
            Re-attach
          </button>
        )}
        <button
          type="button"
          className={`button button--small${d.status === 'running' ? '' : ' button--primary'}`}
          onClick={() => history.send({ type: 'history.open', id: d.id })}
          aria-label={`Open ${d.topic}`}
        >
          Open
        </button>
        <button
          type="button"
          className="button button--small"
          onClick={() => history.send({ type: 'history.delete.request', id: d.id })}
          aria-label={`Delete ${d.topic}`}
        >
          Delete
        </button>
      </div>
    </div>
  );
}

/** The end of the list: the next page loading, its failure with a retry, or that everything is listed. */
function ListEnd({ history }: { history: HistoryActorRef }) {
  const hasMore = useSelector(history, sel.selectHasMore);
  const loadingMore = useSelector(history, sel.selectIsLoadingMore);
  const moreError = useSelector(history, sel.selectMoreError);
  const count = useSelector(history, (s) => sel.selectItems(s).length);
  if (loadingMore)
    return (
      <div className="history-list__end" role="status">
        Loading more discussions…
      </div>
    );
  if (moreError) {
    return (
      <div className="history-list__end" role="alert">
        Could not load more: {moreError}{' '}
        <button type="button" className="button button--small" onClick={() => history.send({ type: 'history.more' })}>
          Try again
        </button>
      </div>
    );
  }
  if (hasMore) {
    return (
      <div className="history-list__end">
        <button type="button" className="button button--small" onClick={() => history.send({ type: 'history.more' })}>
          Show more
        </button>
      </div>
    );
  }
  return <div className="history-list__end">{count === 1 ? 'One discussion' : `All ${count} discussions`} listed.</div>;
}

function HistoryFilter({ history }: { history: HistoryActorRef }) {
  const filter = useSelector(history, sel.selectFilter);
  const format = useSelector(history, sel.selectFormatFilter);
  const formatId = useId();
  return (
    <div className="history-filter">
      <span className="history-filter__format">
        <label htmlFor={formatId}>Format</label>
        <select
          id={formatId}
          value={format}
          onChange={(e) => history.send({ type: 'history.format.filter', kind: e.target.value as FormatKind | '' })}
        >
          <option value="">All formats</option>
          {FORMAT_OPTIONS.map((o) => (
            <option key={o.kind} value={o.kind}>
              {o.label}
            </option>
          ))}
        </select>
      </span>
      <input
        type="search"
        className="history-filter__input"
        placeholder="Filter by topic"
        aria-label="Filter past discussions by topic"
        value={filter}
        maxLength={200}
        onChange={(e) => history.send({ type: 'history.filter', text: e.target.value })}
      />
    </div>
  );
}

function HistoryList({ history }: { history: HistoryActorRef }) {
  return (
    <>
      <HistoryFilter history={history} />
      <HistoryRows history={history} />
    </>
  );
}

function HistoryRows({ history }: { history: HistoryActorRef }) {
  const items = useSelector(history, sel.selectItems);
  const state = useSelector(history, sel.selectListState);
  const error = useSelector(history, sel.selectListError);
  const filter = useSelector(history, sel.selectFilter).trim();
  const format = useSelector(history, sel.selectFormatFilter);
  const components = useMemo(() => ({ Footer: () => <ListEnd history={history} /> }), [history]);
  if (state === 'loading' && items.length === 0)
    return (
      <p className="history-note" role="status">
        Loading past discussions…
      </p>
    );
  if (state === 'failed') {
    return (
      <div className="history-note" role="alert">
        <p>Could not load past discussions: {error}</p>
        <button
          type="button"
          className="button button--small"
          onClick={() => history.send({ type: 'history.refresh' })}
        >
          Try again
        </button>
      </div>
    );
  }
  if (items.length === 0 && (filter || format))
    return (
      <EmptyState title="No matching discussions">
        {`No past discussion${format ? ` in the ${formatLabel(format)} format` : ''}${filter ? ` has “${filter}” in its topic` : ''}.`}
      </EmptyState>
    );
  if (items.length === 0) return <EmptyState title="No past discussions">{HISTORY_MESSAGES.empty}</EmptyState>;
  if (items.length > HISTORY_VIRTUALIZE_AFTER) {
    return (
      <div
        className="history-list history-list--long"
        role="list"
        aria-label="Past discussions"
        aria-busy={state === 'loading'}
      >
        <Virtuoso
          // A new filter starts at the top of its own list, not where the previous one was scrolled to.
          key={`${format}:${filter}`}
          data={items}
          computeItemKey={(_, d) => d.id}
          itemContent={(_, d) => <Row d={d} history={history} />}
          // Infinite scroll: reaching the end asks for the next page (the machine ignores it when there is none).
          endReached={() => history.send({ type: 'history.more' })}
          increaseViewportBy={400}
          components={components}
        />
      </div>
    );
  }
  return (
    <>
      <div className="history-list" role="list" aria-label="Past discussions" aria-busy={state === 'loading'}>
        {items.map((d) => (
          <Row key={d.id} d={d} history={history} />
        ))}
      </div>
      <ListEnd history={history} />
    </>
  );
}

function OpenedView({ history, workspace }: { history: HistoryActorRef; workspace?: WorkspaceActorRef }) {
  const opened = useSelector(history, sel.selectOpened)!;
  const tabs = useSelector(history, sel.selectTabs);
  const exporter = useSelector(history, sel.selectExporter);
  const share = useSelector(history, sel.selectShare);
  const canReattach = useSelector(history, sel.selectCanReattach);
  const d = opened.summary;
  // The replay is History's child while a discussion is open (an address may have opened it at a moment).
  const replay = useSelector(history, sel.selectReplay)!;
  return (
    <StoredDiscussionView
      opened={opened}
      tabs={tabs}
      exporter={exporter}
      replay={replay}
      idPrefix="history"
      workspace={workspace}
      onTab={(t: HistoryTab) => history.send({ type: 'history.tab.select', tab: t })}
      onExport={(format) => history.send({ type: 'history.export', format })}
      onContinue={(turn) => history.send({ type: 'history.continue', turn })}
      lead={
        <button type="button" className="button button--small" onClick={() => history.send({ type: 'history.close' })}>
          ← All discussions
        </button>
      }
      subtitle={<ContinuationLinks d={d} history={history} />}
      actions={<ShareButton share={share} topic={d.topic} />}
      notice={
        d.status === 'running' && (
          <p className="history-note">
            This discussion is still running.{' '}
            {canReattach ? (
              <button
                type="button"
                className="button button--small button--primary"
                onClick={() => history.send({ type: 'history.reattach' })}
              >
                Re-attach in the panel
              </button>
            ) : (
              'It cannot be re-attached: its record does not name a known endpoint and two agents.'
            )}
          </p>
        )
      }
    />
  );
}

export function HistoryDialog({ history, workspace }: { history: HistoryActorRef; workspace?: WorkspaceActorRef }) {
  const shown = useSelector(history, sel.selectIsShown);
  const viewer = useSelector(history, sel.selectViewer);
  const openError = useSelector(history, sel.selectOpenError);
  const pending = useSelector(history, sel.selectPendingDelete);
  const deleting = useSelector(history, sel.selectIsDeleting);
  const deleteError = useSelector(history, sel.selectDeleteError);
  const listState = useSelector(history, sel.selectListState);
  if (!shown) return null;
  const hide = () => history.send({ type: 'history.hide' });
  return (
    <ModalDialog labelledBy="history-title" onClose={hide}>
      <div className="history-backdrop" onClick={hide}>
        <div className="history-dialog discussion-panel" onClick={(e) => e.stopPropagation()}>
          {/* A div, not a header: inside a dialog a header would be a second banner landmark beside the top bar. */}
          <div className="history-dialog__head">
            <h2 id="history-title">Past discussions</h2>
            <div className="history-dialog__actions">
              {viewer === 'closed' && (
                <button
                  type="button"
                  className="button button--small"
                  onClick={() => history.send({ type: 'history.refresh' })}
                  disabled={listState === 'loading'}
                >
                  Refresh
                </button>
              )}
              <button
                type="button"
                className="button button--small"
                data-autofocus
                onClick={hide}
                aria-label="Close history"
              >
                Close
              </button>
            </div>
          </div>
          <ErrorBanner message={deleteError} onDismiss={() => history.send({ type: 'history.error.dismiss' })} />
          <div className="history-dialog__body">
            {viewer === 'open' ? (
              <OpenedView history={history} workspace={workspace} />
            ) : viewer === 'opening' ? (
              <p className="history-note" role="status">
                Opening the discussion…
              </p>
            ) : viewer === 'failed' ? (
              <div className="history-note" role="alert">
                <p>Could not open the discussion: {openError}</p>
                <button
                  type="button"
                  className="button button--small"
                  onClick={() => history.send({ type: 'history.close' })}
                >
                  Back to the list
                </button>
              </div>
            ) : (
              <HistoryList history={history} />
            )}
          </div>
        </div>
      </div>
      {pending && (
        <ConfirmDialog
          message={
            pending.topic ? deleteQuestion(pending, dateLabel(pending.created_at)) : HISTORY_MESSAGES.deleteConfirm
          }
          confirmLabel="Delete discussion"
          busy={deleting}
          onConfirm={() => history.send({ type: 'history.delete.confirm' })}
          onCancel={() => history.send({ type: 'history.delete.cancel' })}
        />
      )}
    </ModalDialog>
  );
}
