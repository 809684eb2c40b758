// Where agents go on the board (pure: no I/O, no randomness). Two jobs:
//   nextFreeSlot — a new agent takes the free cell of a grid nearest the middle of what the user sees, so a
//                  row of new agents never lands on top of one another (or of an agent already there);
//   autoLayout   — the 'Auto-layout' action: up to CIRCLE_MAX agents on a circle round the middle of the view
//                  (sources first, from the top; a straight edge between two of them never crosses a third),
//                  more in rows by connection depth (sources on top, what they feed below), ordered to keep edges
//                  short, wrapped to stay inside the board and centred on the view.
// Every position either returns lies inside the spec's 0..2000 board (docs/product.md#workspace-states 'Node
// position').
import type { Agent } from '../schemas/agents';
import {
  CANVAS_DETAIL_ZOOM,
  CANVAS_FULL_CARDS_MAX,
  POSITION_FALLBACK_MAX,
  POSITION_FALLBACK_MIN,
  POSITION_MAX,
  POSITION_MIN,
} from '../schemas/constants';

export interface Point {
  x: number;
  y: number;
}

/** The box an agent node takes on the board (it is drawn 200 px wide; a wrapped name makes it taller). */
export const NODE_BOX = { width: 200, height: 96 } as const;
/** One cell of the placement grid: a node plus the gap that keeps edges and names readable between nodes. */
export const SLOT = { width: 250, height: 150 } as const;
const ORIGIN = 40;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const MAX_X = POSITION_MAX - NODE_BOX.width;
const MAX_Y = POSITION_MAX - NODE_BOX.height;

/** Every cell of the grid that fits on the board. */
function cells(): Point[] {
  const out: Point[] = [];
  for (let y = ORIGIN; y <= MAX_Y; y += SLOT.height)
    for (let x = ORIGIN; x <= MAX_X; x += SLOT.width) out.push({ x, y });
  return out;
}
const GRID = cells();

/** True when a node at `p` would touch the node at `q` (closer than one cell in both directions). */
export const crowds = (p: Point, q: Point) => Math.abs(p.x - q.x) < SLOT.width && Math.abs(p.y - q.y) < SLOT.height;

/** True when two drawn nodes overlap (their boxes intersect). */
export const overlaps = (p: Point, q: Point, box: { width: number; height: number } = NODE_BOX) =>
  Math.abs(p.x - q.x) < box.width && Math.abs(p.y - q.y) < box.height;

/**
 * The free grid cell nearest `centre` (the top-left corner a new node should take). Rows fill before columns
 * (a vertical step counts a little more than a horizontal one), ties go top-left first. When every cell is
 * taken the nearest cell is returned: the board is full, and a node on top beats one off the board.
 */
export function nextFreeSlot(occupied: readonly Point[], centre: Point): Point {
  const target = { x: centre.x - NODE_BOX.width / 2, y: centre.y - NODE_BOX.height / 2 };
  const ranked = GRID.map((c) => ({ c, d: (c.x - target.x) ** 2 + (1.4 * (c.y - target.y)) ** 2 })).sort(
    (a, b) => a.d - b.d || a.c.y - b.c.y || a.c.x - b.c.x,
  );
  const free = ranked.find(({ c }) => !occupied.some((o) => crowds(c, o)));
  return (free ?? ranked[0]).c;
}

/** The free part of the canvas the agents are fitted into, in screen pixels (the view reports it). */
export interface ViewArea {
  width: number;
  height: number;
}

export interface LayoutEdge {
  source: string;
  target: string;
}

/** At most this many nodes share a row; a fuller layer wraps onto the next row. */
const ROW_CAPACITY = Math.floor((POSITION_MAX - ORIGIN) / SLOT.width);
/** Rows that fit on the board. */
const MAX_ROWS = Math.floor((MAX_Y - ORIGIN) / SLOT.height) + 1;
const chunk = <T>(list: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

/**
 * A layered layout: each agent's row is the length of the longest chain of connections leading to it (cycles
 * are broken where a depth-first walk meets them), unconnected agents share the last rows, and within a row
 * agents sit in the order of their parents (the barycentre heuristic), so edges mostly run downwards and do
 * not cross nodes. Rows are centred on the widest one. Returns a position for every id, in bounds.
 */
export function autoLayout(
  ids: readonly string[],
  edges: readonly LayoutEdge[],
  centre: Point = DEFAULT_VIEW_CENTRE,
  area?: ViewArea,
): Record<string, Point> {
  const rows = layeredLayout(ids, edges);
  // The layered order read row by row: sources first, what they feed next.
  const order = [...ids].sort((a, b) => rows[a].y - rows[b].y || rows[a].x - rows[b].x);
  const few = ids.length >= 2 && ids.length <= CANVAS_FULL_CARDS_MAX;
  // Round the circle clockwise from the top, unless the visible area is too narrow to read the cards on it.
  if (ids.length >= 2 && ids.length <= CIRCLE_MAX && (!area || circleZoom(ids.length, area) >= CANVAS_DETAIL_ZOOM))
    return onCircle(order, centre);
  // A few agents in a narrow area (the panel open on a small laptop): the grid that fits it at the largest zoom.
  if (few && area && fitZoom(boxOf(rows), area) < CANVAS_DETAIL_ZOOM)
    return onGrid(order, bestColumns(ids.length, area), centre);
  return centredOn(rows, centre);
}

/** The zoom at which a box fits the area (at most 1, as the canvas fits). */
const fitZoom = (box: { width: number; height: number }, area: ViewArea) =>
  Math.min(1, area.width / box.width, area.height / box.height);

function circleZoom(n: number, area: ViewArea): number {
  const r = circleRadius(n);
  const start = n === 2 ? Math.PI : -Math.PI / 2;
  const xs = Array.from({ length: n }, (_, i) => r * Math.cos(start + (2 * Math.PI * i) / n));
  const ys = Array.from({ length: n }, (_, i) => r * Math.sin(start + (2 * Math.PI * i) / n));
  const box = {
    width: Math.max(...xs) - Math.min(...xs) + NODE_BOX.width,
    height: Math.max(...ys) - Math.min(...ys) + NODE_BOX.height,
  };
  return fitZoom(box, area);
}

function boxOf(points: Record<string, Point>) {
  const all = Object.values(points);
  const xs = all.map((p) => p.x);
  const ys = all.map((p) => p.y);
  return {
    width: Math.max(...xs) - Math.min(...xs) + NODE_BOX.width,
    height: Math.max(...ys) - Math.min(...ys) + NODE_BOX.height,
  };
}

const gridBox = (n: number, columns: number) => {
  const rowCount = Math.ceil(n / columns);
  return {
    width: (columns - 1) * SLOT.width + NODE_BOX.width,
    height: (rowCount - 1) * SLOT.height + NODE_BOX.height,
  };
};

/** The number of columns whose grid of n agents fits the area at the largest zoom (the wider one on a tie). */
export function bestColumns(n: number, area: ViewArea): number {
  let best = 1;
  for (let c = 2; c <= n; c++) if (fitZoom(gridBox(n, c), area) >= fitZoom(gridBox(n, best), area)) best = c;
  return best;
}

function onGrid(order: readonly string[], columns: number, centre: Point): Record<string, Point> {
  return place(
    order,
    order.map((_, i) => ({ x: (i % columns) * SLOT.width, y: Math.floor(i / columns) * SLOT.height })),
    centre,
  );
}

/** Up to this many agents go on a circle; a circle of more would be larger than a laptop's canvas. */
export const CIRCLE_MAX = 6;
/** How far a straight edge between two agents on the circle keeps from a third one's centre, at least. */
const EDGE_CLEARANCE = Math.hypot(NODE_BOX.width / 2, NODE_BOX.height / 2) + 20;

/** The circle's radius for n agents: neighbours do not touch, and a chord skipping one agent passes clear of it. */
export function circleRadius(n: number): number {
  if (n <= 2) return SLOT.width / 2;
  const neighbours = SLOT.width / (2 * Math.sin(Math.PI / n));
  const chords = n > 3 ? EDGE_CLEARANCE / (1 - Math.cos((2 * Math.PI) / n)) : 0;
  return Math.ceil(Math.max(neighbours, chords));
}

function onCircle(order: readonly string[], centre: Point): Record<string, Point> {
  const n = order.length;
  const r = circleRadius(n);
  // Two agents sit side by side; more start at the top.
  const start = n === 2 ? Math.PI : -Math.PI / 2;
  const raw = order.map((_, i) => {
    const a = start + (2 * Math.PI * i) / n;
    return { x: r * Math.cos(a), y: r * Math.sin(a) };
  });
  return place(order, raw, centre);
}

/** Puts node centres (relative to 0,0) round `centre`, shifted as one piece to stay on the board. */
function place(order: readonly string[], centres: readonly Point[], centre: Point): Record<string, Point> {
  const xs = centres.map((c) => c.x);
  const ys = centres.map((c) => c.y);
  const left = Math.min(...xs) - NODE_BOX.width / 2;
  const top = Math.min(...ys) - NODE_BOX.height / 2;
  const width = Math.max(...xs) - Math.min(...xs) + NODE_BOX.width;
  const height = Math.max(...ys) - Math.min(...ys) + NODE_BOX.height;
  const ox = clamp(centre.x - width / 2, POSITION_MIN, Math.max(POSITION_MIN, POSITION_MAX - width)) - left;
  const oy = clamp(centre.y - height / 2, POSITION_MIN, Math.max(POSITION_MIN, POSITION_MAX - height)) - top;
  const out: Record<string, Point> = {};
  order.forEach((id, i) => {
    out[id] = {
      x: Math.round(clamp(ox + centres[i].x - NODE_BOX.width / 2, POSITION_MIN, MAX_X)),
      y: Math.round(clamp(oy + centres[i].y - NODE_BOX.height / 2, POSITION_MIN, MAX_Y)),
    };
  });
  return out;
}

/** The layered rows moved as one piece so their middle is the view's (as far as the board allows). */
function centredOn(rows: Record<string, Point>, centre: Point): Record<string, Point> {
  const order = Object.keys(rows);
  if (order.length === 0) return rows;
  return place(
    order,
    order.map((id) => ({ x: rows[id].x + NODE_BOX.width / 2, y: rows[id].y + NODE_BOX.height / 2 })),
    centre,
  );
}

function layeredLayout(ids: readonly string[], edges: readonly LayoutEdge[]): Record<string, Point> {
  const known = new Set(ids);
  const out = new Map<string, string[]>();
  const into = new Map<string, string[]>();
  for (const id of ids) {
    out.set(id, []);
    into.set(id, []);
  }
  // Cycles are broken at the edge that closes them: a depth-first walk keeps only edges to unfinished nodes.
  const state = new Map<string, 'open' | 'done'>();
  const kept: LayoutEdge[] = [];
  const raw = new Map<string, string[]>();
  for (const e of edges)
    if (known.has(e.source) && known.has(e.target) && e.source !== e.target)
      raw.set(e.source, [...(raw.get(e.source) ?? []), e.target]);
  const walk = (id: string) => {
    state.set(id, 'open');
    for (const t of raw.get(id) ?? []) {
      if (state.get(t) === 'open') continue; // a back edge: dropped for layering
      kept.push({ source: id, target: t });
      if (!state.has(t)) walk(t);
    }
    state.set(id, 'done');
  };
  for (const id of ids) if (!state.has(id)) walk(id);
  for (const e of kept) {
    out.get(e.source)!.push(e.target);
    into.get(e.target)!.push(e.source);
  }

  // Longest-path layering in topological order.
  const layer = new Map<string, number>();
  const indegree = new Map(ids.map((id) => [id, into.get(id)!.length]));
  const queue = ids.filter((id) => indegree.get(id) === 0);
  for (const id of queue) layer.set(id, 0);
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i];
    for (const t of out.get(id)!) {
      layer.set(t, Math.max(layer.get(t) ?? 0, layer.get(id)! + 1));
      indegree.set(t, indegree.get(t)! - 1);
      if (indegree.get(t) === 0) queue.push(t);
    }
  }

  const connected = ids.filter((id) => out.get(id)!.length > 0 || into.get(id)!.length > 0);
  const loose = ids.filter((id) => out.get(id)!.length === 0 && into.get(id)!.length === 0);
  const layers: string[][] = [];
  for (const id of connected) (layers[layer.get(id)!] ??= []).push(id);

  // Order each layer by the mean column of its parents in the rows above.
  const column = new Map<string, number>();
  const rows: string[][] = [];
  for (const l of layers.filter(Boolean)) {
    const sorted = [...l].sort((a, b) => bary(a) - bary(b));
    sorted.forEach((id, i) => column.set(id, i));
    for (let i = 0; i < sorted.length; i += ROW_CAPACITY) rows.push(sorted.slice(i, i + ROW_CAPACITY));
  }
  function bary(id: string) {
    const parents = into.get(id)!.filter((p) => column.has(p));
    return parents.length
      ? parents.reduce((s, p) => s + column.get(p)!, 0) / parents.length
      : Number.MAX_SAFE_INTEGER / 2;
  }
  const looseRows = Math.max(1, Math.ceil(Math.sqrt(loose.length)));
  const perLooseRow = Math.min(ROW_CAPACITY, Math.ceil(loose.length / looseRows));
  for (let i = 0; i < loose.length; i += perLooseRow) rows.push(loose.slice(i, i + perLooseRow));

  // A chain deeper than the board is tall gives up strict layering: the same order, re-flowed into full rows.
  const packed = rows.length > MAX_ROWS ? chunk(rows.flat(), ROW_CAPACITY) : rows;
  const widest = Math.max(1, ...packed.map((r) => r.length));
  const result: Record<string, Point> = {};
  packed.forEach((row, r) => {
    const indent = ((widest - row.length) * SLOT.width) / 2;
    row.forEach((id, i) => {
      result[id] = {
        x: Math.round(clamp(ORIGIN + indent + i * SLOT.width, POSITION_MIN, MAX_X)),
        y: Math.round(clamp(ORIGIN + r * SLOT.height, POSITION_MIN, MAX_Y)),
      };
    });
  });
  return result;
}

// ── Stored positions: in bounds, or a fallback ──────────────────────────────

export const isInBounds = (v: number | null | undefined): v is number =>
  typeof v === 'number' && Number.isFinite(v) && v >= POSITION_MIN && v <= POSITION_MAX;

export const isPositionInBounds = (p: { x?: number | null; y?: number | null }) => isInBounds(p.x) && isInBounds(p.y);

/** A fallback position from two numbers in [0, 1): the randomness is the caller's (an injected actor). */
export const fallbackPosition = (u: number, v: number) => ({
  x: Math.round(POSITION_FALLBACK_MIN + u * (POSITION_FALLBACK_MAX - POSITION_FALLBACK_MIN)),
  y: Math.round(POSITION_FALLBACK_MIN + v * (POSITION_FALLBACK_MAX - POSITION_FALLBACK_MIN)),
});

// Drawing an agent whose stored position is out of bounds must not make it jump on every render, so the
// "random" place it is drawn at is a stable hash of its id (saving a drag uses real randomness instead).
function unitHash(s: string, seed: number): number {
  let h = 2166136261 ^ seed;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return ((h >>> 0) % 10_000) / 10_000;
}

export function drawnPosition(agent: Agent): { x: number; y: number } {
  if (isPositionInBounds(agent)) return { x: agent.x as number, y: agent.y as number };
  return fallbackPosition(unitHash(agent.id, 1), unitHash(agent.id, 2));
}

// ── What the workspace asks ─────────────────────────────────────────────────

/** Where new agents go before the canvas has reported its view (the middle of the default view). */
export const DEFAULT_VIEW_CENTRE: Point = { x: 440, y: 300 };

/** Where a new agent goes: the free grid cell nearest the middle of the view, clear of every drawn agent. */
export const newAgentPlace = (agents: readonly Agent[], viewCentre: Point) =>
  nextFreeSlot(agents.map(drawnPosition), viewCentre);

/** The 'Auto-layout' action as moves to save: only what changes (an agent drawn at a fallback place is saved even when it stays there). */
export function autoLayoutMoves(
  agents: readonly Agent[],
  edges: readonly LayoutEdge[],
  centre: Point = DEFAULT_VIEW_CENTRE,
  area?: ViewArea,
): Array<{ agentId: string; x: number; y: number }> {
  const placed = autoLayout(
    agents.map((a) => a.id),
    edges,
    centre,
    area,
  );
  return agents.flatMap((a) => {
    const to = placed[a.id];
    const from = drawnPosition(a);
    return isPositionInBounds(a) && to.x === from.x && to.y === from.y ? [] : [{ agentId: a.id, x: to.x, y: to.y }];
  });
}
