// What the canvas's minimap shows: the board part it frames and how that part maps to its pixels. Pure.
// The frame holds every agent and the visible part of the board, as React Flow's own minimap's does, but it stays
// put while a pan stays inside it (React Flow's is worked out anew each frame, so its whole drawing was scaled
// and drawn again on every pan frame): only the viewport's outline moves then.
import type { Rect } from './edgeGeometry';
import { boundsOf } from './FitVisible';

/** The minimap's size in pixels (React Flow's default, which the fit options' corner allows for). */
export const MINIMAP_SIZE = { width: 200, height: 150 } as const;
/** The room round the framed part, as a share of the minimap, so the outermost cards do not touch its border. */
const MARGIN = 0.06;
/** When the view leaves the frame, the new frame reaches this share of the view's size further that way. */
const LEAD = 0.5;

/** The box holding both. */
const union = (a: Rect, b: Rect): Rect => boundsOf([a, b])!;

const inside = (r: Rect, frame: Rect) =>
  r.x >= frame.x &&
  r.y >= frame.y &&
  r.x + r.width <= frame.x + frame.width &&
  r.y + r.height <= frame.y + frame.height;

/** The visible board part for React Flow's transform [x, y, zoom] over a canvas of width × height pixels. */
export function viewRect([x, y, zoom]: readonly [number, number, number], width: number, height: number): Rect {
  return { x: (0 - x) / zoom, y: (0 - y) / zoom, width: width / zoom, height: height / zoom }; // 0 - x: never -0
}

/**
 * The part to frame: the same frame while the view is inside it; else the nodes and the view, led further the way
 * the view went (so a pan that goes on does not reframe every frame). `tight` frames the nodes and view exactly
 * (after a pan ends, or when the nodes change).
 */
export function nextFrame(frame: Rect | null, nodes: Rect | null, view: Rect, tight = false): Rect {
  const exact = nodes ? union(nodes, view) : view;
  if (tight || !frame) return exact;
  if (inside(view, frame)) return frame;
  const lead = { x: view.x, y: view.y, width: view.width, height: view.height };
  if (view.x < frame.x) lead.x -= view.width * LEAD;
  if (view.y < frame.y) lead.y -= view.height * LEAD;
  if (view.x + view.width > frame.x + frame.width) lead.width += view.width * LEAD;
  if (view.y + view.height > frame.y + frame.height) lead.height += view.height * LEAD;
  return union(exact, union(frame, lead));
}

/** The SVG view box showing `frame` centred in the minimap, and the board units one minimap pixel spans. */
export function viewBoxOf(frame: Rect): { x: number; y: number; width: number; height: number; unitsPerPixel: number } {
  const { width: w, height: h } = MINIMAP_SIZE;
  const unitsPerPixel = Math.max(frame.width / w, frame.height / h, 1e-6) * (1 + 2 * MARGIN);
  const width = w * unitsPerPixel;
  const height = h * unitsPerPixel;
  return {
    x: frame.x + frame.width / 2 - width / 2,
    y: frame.y + frame.height / 2 - height / 2,
    width,
    height,
    unitsPerPixel,
  };
}

/** Where the view lies on the minimap, in its pixels (whole ones, so the shade's edge stays sharp). */
export function viewOnMinimap(box: Rect, view: Rect): Rect {
  const k = MINIMAP_SIZE.width / box.width;
  const x = Math.round((view.x - box.x) * k);
  const y = Math.round((view.y - box.y) * k);
  return {
    x,
    y,
    width: Math.max(0, Math.round((view.x + view.width - box.x) * k) - x),
    height: Math.max(0, Math.round((view.y + view.height - box.y) * k) - y),
  };
}
