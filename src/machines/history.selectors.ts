// What the History dialog reads from the history actor.
import { selectCounts } from '../model/feedSelectors';
import type { HistorySnapshot } from './history.machine';

export const selectIsShown = (s: HistorySnapshot) => s.matches({ dialog: 'shown' });
export const selectItems = (s: HistorySnapshot) => s.context.items;
export const selectListState = (s: HistorySnapshot): 'idle' | 'loading' | 'loaded' | 'failed' =>
  s.hasTag('listLoading')
    ? 'loading'
    : s.matches({ list: 'failed' })
      ? 'failed'
      : s.matches({ list: 'loaded' }) || s.matches({ list: 'loadingMore' })
        ? 'loaded'
        : 'idle';
export const selectFilter = (s: HistorySnapshot) => s.context.filter;
export const selectFormatFilter = (s: HistorySnapshot) => s.context.formatFilter;
export const selectHasMore = (s: HistorySnapshot) => s.context.nextCursor !== null;
export const selectIsLoadingMore = (s: HistorySnapshot) => s.hasTag('listLoadingMore');
export const selectMoreError = (s: HistorySnapshot) => s.context.moreError;
export const selectListError = (s: HistorySnapshot) => s.context.listError;
export const selectPendingDelete = (s: HistorySnapshot) =>
  s.matches({ deletion: 'confirming' }) ? s.context.pendingDelete : null;
export const selectIsDeleting = (s: HistorySnapshot) => s.hasTag('deleting');
export const selectDeleteError = (s: HistorySnapshot) => s.context.deleteError;
export const selectViewer = (s: HistorySnapshot): 'closed' | 'opening' | 'open' | 'failed' =>
  s.matches({ viewer: 'opening' })
    ? 'opening'
    : s.matches({ viewer: 'failed' })
      ? 'failed'
      : s.matches({ viewer: 'open' })
        ? 'open'
        : 'closed';
export const selectOpened = (s: HistorySnapshot) => s.context.opened;
export const selectOpenError = (s: HistorySnapshot) => s.context.openError;
/** The open discussion's tabs and export children (read with the discussionTabs/discussionExport selectors). */
export const selectTabs = (s: HistorySnapshot) => s.children.tabs;
/** The opened discussion's replay (its timeline); present while a discussion is open. */
export const selectReplay = (s: HistorySnapshot) => s.children.replay;
export const selectExporter = (s: HistorySnapshot) => s.children.exporter;
/** The open discussion's Share dialog (read with the shareDialog selectors). */
export const selectShare = (s: HistorySnapshot) => s.children.share;
export const selectCanReattach = (s: HistorySnapshot) => s.can({ type: 'history.reattach' });
export const selectOpenedCounts = (s: HistorySnapshot) =>
  s.context.opened ? selectCounts(s.context.opened.feed) : null;
/** The offer of a discussion still running at start (read with the runningOffer selectors). */
export const selectOffer = (s: HistorySnapshot) => s.children.offer;
