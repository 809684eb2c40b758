// The virtualized message feed both panels use (react-virtuoso): only the rows in view are in the DOM, it stays
// pinned to the newest message unless the user scrolled up, and then offers a 'Jump to newest' button. Each row
// is rendered by the panel from an id, so a row subscribes to its own message only.
//
// An append must paint within one frame at thousands of messages: the rows already drawn do not re-render when
// the list grows (a row is memoised on its id, and renderRow must draw from the id alone: rows subscribe to their
// own item), every callback handed to Virtuoso keeps its identity, a row's size is measured in the frame that
// changed it (no extra animation frame before the list settles), and each row is a containment boundary
// (discussion.css), so a growing row relays out itself, not the list.
import { memo, useCallback, useRef, useState, type ReactNode } from 'react';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';

/** A first guess of a row's height (a short message card); each row is then measured once it is drawn. */
const ROW_HEIGHT_GUESS_PX = 96;

const Row = memo(
  function Row({ id, render }: { id: string; render: (id: string) => ReactNode }) {
    return <div className="feed__row">{render(id)}</div>;
  },
  (a, b) => a.id === b.id,
);
const keyOf = (_: number, id: string) => id;
const follow = (isAtBottom: boolean) => (isAtBottom ? ('auto' as const) : false);
const OVERSCAN = { top: 200, bottom: 200 };

export function FeedList({
  ids,
  renderRow,
  empty,
  label,
}: {
  ids: readonly string[];
  renderRow: (id: string) => ReactNode;
  empty: ReactNode;
  label: string;
}) {
  const ref = useRef<VirtuosoHandle>(null);
  const [atBottom, setAtBottom] = useState(true);
  // Mounted with messages already there (a tab switch back to Discussion, a finished run, History), the list
  // opens at the newest. Not initialTopMostItemIndex: react-virtuoso keeps the list `visibility: hidden` until
  // the scroll to that item happens, and when the rows are shorter than the viewport no scroll ever happens, so
  // a few messages stayed invisible (react-virtuoso issue #176).
  const openedAtNewest = useRef(false);
  const renderRef = useRef(renderRow);
  renderRef.current = renderRow;
  const render = useCallback((id: string) => renderRef.current(id), []);
  const itemContent = useCallback((_: number, id: string) => <Row id={id} render={render} />, [render]);
  const onHeightChanged = useCallback(() => {
    if (openedAtNewest.current) return;
    openedAtNewest.current = true;
    ref.current?.scrollToIndex({ index: 'LAST', align: 'end' });
  }, []);
  if (ids.length === 0) return <div className="feed feed--empty">{empty}</div>;
  return (
    <div className="feed" role="log" aria-label={label} aria-live="polite">
      <Virtuoso
        ref={ref}
        className="feed__scroller"
        data={ids}
        computeItemKey={keyOf}
        itemContent={itemContent}
        followOutput={follow}
        atBottomStateChange={setAtBottom}
        atBottomThreshold={48}
        totalListHeightChanged={onHeightChanged}
        increaseViewportBy={OVERSCAN}
        defaultItemHeight={ROW_HEIGHT_GUESS_PX}
        skipAnimationFrameInResizeObserver
      />
      {!atBottom && (
        <button
          type="button"
          className="feed__jump button button--small"
          onClick={() => ref.current?.scrollToIndex({ index: ids.length - 1, align: 'end', behavior: 'smooth' })}
        >
          <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
            <path
              d="M8 3v10M3 8l5 5 5-5"
              stroke="currentColor"
              strokeWidth="2"
              fill="none"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
          Jump to newest
        </button>
      )}
    </div>
  );
}
