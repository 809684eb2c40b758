// The virtualized message feed both panels use (react-virtuoso): only the rows in view are in the DOM, it stays
// pinned to the newest message unless the user scrolled up, and then offers a 'Jump to newest' button. Each row
// is rendered by the panel from an id, so a row subscribes to its own message only.
import { useRef, useState, type ReactNode } from 'react';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';

export function FeedList({ ids, renderRow, empty, label }: { ids: readonly string[]; renderRow: (id: string) => ReactNode; empty: ReactNode; label: string }) {
  const ref = useRef<VirtuosoHandle>(null);
  const [atBottom, setAtBottom] = useState(true);
  // Mounted with messages already there (a tab switch back to Discussion, a finished run, History), the list
  // opens at the newest. Not initialTopMostItemIndex: react-virtuoso keeps the list `visibility: hidden` until
  // the scroll to that item happens, and when the rows are shorter than the viewport no scroll ever happens, so
  // a few messages stayed invisible (react-virtuoso issue #176).
  const openedAtNewest = useRef(false);
  if (ids.length === 0) return <div className="feed feed--empty">{empty}</div>;
  return (
    <div className="feed" role="log" aria-label={label} aria-live="polite">
      <Virtuoso
        ref={ref}
        className="feed__scroller"
        data={ids}
        computeItemKey={(_, id) => id}
        itemContent={(_, id) => <div className="feed__row">{renderRow(id)}</div>}
        followOutput={(isAtBottom) => (isAtBottom ? 'auto' : false)}
        atBottomStateChange={setAtBottom}
        atBottomThreshold={48}
        totalListHeightChanged={() => {
          if (openedAtNewest.current) return;
          openedAtNewest.current = true;
          ref.current?.scrollToIndex({ index: 'LAST', align: 'end' });
        }}
        increaseViewportBy={{ top: 200, bottom: 200 }}
      />
      {!atBottom && (
        <button type="button" className="feed__jump button button--small" onClick={() => ref.current?.scrollToIndex({ index: ids.length - 1, align: 'end', behavior: 'smooth' })}>
          <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
            <path d="M8 3v10M3 8l5 5 5-5" stroke="currentColor" strokeWidth="2" fill="none" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          Jump to newest
        </button>
      )}
    </div>
  );
}
