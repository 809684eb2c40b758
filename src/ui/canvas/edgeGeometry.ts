// Where an edge starts and ends: on the border of each node, on the line between their centres. So an edge
// never runs underneath the two nodes it joins, whichever way round they sit (a fixed bottom→top handle pair
// loops behind both nodes when the target is above the source). Pure; the edge component draws the result.
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The point where the ray from the rect's centre towards `to` leaves the rect, `gap` px further out. */
export function borderPoint(r: Rect, to: { x: number; y: number }, gap = 0): { x: number; y: number } {
  const cx = r.x + r.width / 2;
  const cy = r.y + r.height / 2;
  const dx = to.x - cx;
  const dy = to.y - cy;
  if (dx === 0 && dy === 0) return { x: cx, y: cy };
  const t = Math.min(
    dx === 0 ? Infinity : r.width / 2 / Math.abs(dx),
    dy === 0 ? Infinity : r.height / 2 / Math.abs(dy),
  );
  const len = Math.hypot(dx, dy);
  return { x: cx + dx * t + (dx / len) * gap, y: cy + dy * t + (dy / len) * gap };
}

/**
 * The connection as one gentle arc from border to border, with no arrowhead: a connection lets both agents hear each
 * other, so it has no direction to show.
 */
export function floatingLinePath(source: Rect, target: Rect, gap = 2): string | null {
  const curve = floatingCurve(source, target, gap);
  if (!curve) return null;
  return `M ${r(curve.sx)},${r(curve.sy)} Q ${r(curve.cx)},${r(curve.cy)} ${r(curve.tx)},${r(curve.ty)}`;
}

const r = (v: number) => Math.round(v * 10) / 10;

/**
 * A gentle arc from border to border, bent to the left of its direction, so two edges between one pair of agents
 * (made from each end) stay apart (and no edge is a zero-height line).
 */
function floatingCurve(source: Rect, target: Rect, gap: number) {
  const seg = floatingSegment(source, target, gap);
  if (!seg) return null;
  const dx = seg.tx - seg.sx;
  const dy = seg.ty - seg.sy;
  const len = Math.hypot(dx, dy);
  const bend = Math.min(36, len * 0.12);
  return { ...seg, cx: (seg.sx + seg.tx) / 2 + (dy / len) * bend, cy: (seg.sy + seg.ty) / 2 - (dx / len) * bend };
}

/** The straight segment from the source's border to the target's border, or null when the nodes overlap. */
export function floatingSegment(source: Rect, target: Rect, gap = 2) {
  const sc = { x: source.x + source.width / 2, y: source.y + source.height / 2 };
  const tc = { x: target.x + target.width / 2, y: target.y + target.height / 2 };
  const s = borderPoint(source, tc, gap);
  const t = borderPoint(target, sc, gap);
  // Overlapping nodes: the border points cross over, and no line between them would be visible.
  if ((t.x - s.x) * (tc.x - sc.x) + (t.y - s.y) * (tc.y - sc.y) <= 0) return null;
  return { sx: s.x, sy: s.y, tx: t.x, ty: t.y };
}
