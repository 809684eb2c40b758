// Keeps every agent in view of the part of the canvas the user can see. The canvas shares the screen with the
// discussion panel (and its own overlay boxes on the left): when the board first has agents, and whenever the
// canvas's size changes (the panel opens or closes, the window resizes), the view is fitted to the agents if any
// of them is not fully inside the free area, or if the view is still the one fitted here (the user has not panned
// or zoomed since), so the agents grow back when the panel closes. A user's own pan and zoom are kept while every
// agent stays visible. View-local: it moves the viewport only, nothing is stored.
//
// It fits from the boxes the canvas already knows (each node's position and its size, CARD_SIZE until measured)
// and sets the viewport at once, in the commit that brings the agents or the zoom pane: the board's first frame is
// drawn at the fitted view. A fit a frame later (React Flow's fitView is queued through a render) drew 500 cards at
// the default zoom first, then styled, laid out and painted them all again at the fitted one (npm run bench canvas).
import { useLayoutEffect, useRef, type RefObject } from 'react';
import { getViewportForBounds, useStore, useStoreApi, type FitViewOptions } from '@xyflow/react';
import type { Rect } from './edgeGeometry';

interface Area {
  width: number;
  height: number;
}
type Inset = { top: number; right: number; bottom: number; left: number };
export interface FitOptions {
  inset: Inset;
  padding: NonNullable<FitViewOptions['padding']>;
  minZoom: number;
  maxZoom: number;
}

/** Whether every box lies inside the free part of the canvas at this viewport. */
export function allVisible(
  boxes: Iterable<Rect>,
  viewport: { x: number; y: number; zoom: number },
  area: Area,
  inset: Inset,
): boolean {
  for (const b of boxes) {
    const x = b.x * viewport.zoom + viewport.x;
    const y = b.y * viewport.zoom + viewport.y;
    if (
      x < inset.left ||
      y < inset.top ||
      x + b.width * viewport.zoom > area.width - inset.right ||
      y + b.height * viewport.zoom > area.height - inset.bottom
    )
      return false;
  }
  return true;
}

/** The smallest box holding every box (null for none). */
export function boundsOf(boxes: Iterable<Rect>): Rect | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const b of boxes) {
    x0 = Math.min(x0, b.x);
    y0 = Math.min(y0, b.y);
    x1 = Math.max(x1, b.x + b.width);
    y1 = Math.max(y1, b.y + b.height);
  }
  return x0 === Infinity ? null : { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

const zoomPaneSize = (s: { panZoom: unknown; width: number; height: number }) =>
  s.panZoom === null ? '' : `${s.width}x${s.height}`;

/**
 * Drawn inside <ReactFlow> (it reads React Flow's store: the zoom pane, and the canvas's size, which React Flow
 * keeps current, so this reads no layout of its own). `fitted` is the canvas's: true while the view is the one
 * fitted here; the canvas clears it when the user pans or zooms.
 */
export function FitVisible({
  boxes,
  options,
  fitted,
  refit = 0,
}: {
  /** Every node's box on the board. */
  boxes: ReadonlyMap<string, Rect>;
  options: (area: Area) => FitOptions;
  fitted: RefObject<boolean>;
  /** Bumped when the agents were laid out anew: fit them whatever the view was. */
  refit?: number;
}) {
  const store = useStoreApi();
  // Changes when the zoom pane appears and whenever the canvas is resized (the panel opens or closes).
  const size = useStore(zoomPaneSize);
  const latest = useRef({ boxes, options });
  latest.current = { boxes, options };
  const hasAgents = boxes.size > 0;
  const lastRefit = useRef(refit);

  useLayoutEffect(() => {
    const { panZoom, transform, width, height } = store.getState();
    const bounds = boundsOf(latest.current.boxes.values());
    if (!panZoom || !bounds || !width || !height) return;
    const area = { width, height };
    const { inset, padding, minZoom, maxZoom } = latest.current.options(area);
    const view = { x: transform[0], y: transform[1], zoom: transform[2] };
    const relaid = lastRefit.current !== refit;
    lastRefit.current = refit;
    if (relaid || fitted.current || !allVisible(latest.current.boxes.values(), view, area, inset)) {
      fitted.current = true;
      // Without a duration d3 applies the transform at once, so the frame about to be drawn shows it.
      void panZoom.setViewport(getViewportForBounds(bounds, width, height, minZoom, maxZoom, padding));
    }
  }, [store, size, hasAgents, fitted, refit]);

  return null;
}
