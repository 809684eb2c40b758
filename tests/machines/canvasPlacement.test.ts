// Where new agents go and what Auto-layout does (src/shared/canvasPlacement.ts): pure functions.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  autoLayout,
  CIRCLE_MAX,
  crowds,
  NODE_BOX,
  nextFreeSlot,
  overlaps,
  type Point,
} from '../../src/shared/canvasPlacement';
import { CANVAS_DETAIL_ZOOM, CANVAS_FULL_CARDS_MAX, POSITION_MAX, POSITION_MIN } from '../../src/schemas/constants';

const inBounds = (p: Point) => p.x >= POSITION_MIN && p.x <= POSITION_MAX && p.y >= POSITION_MIN && p.y <= POSITION_MAX;

describe('nextFreeSlot', () => {
  it('ten agents placed one after another never overlap and stay on the board', () => {
    const placed: Point[] = [];
    for (let i = 0; i < 10; i++) placed.push(nextFreeSlot(placed, { x: 440, y: 300 }));
    for (let i = 0; i < placed.length; i++) {
      expect(inBounds(placed[i])).toBe(true);
      for (let j = i + 1; j < placed.length; j++) expect(overlaps(placed[i], placed[j])).toBe(false);
    }
  });

  it('the first agent goes near the middle of the view', () => {
    const p = nextFreeSlot([], { x: 900, y: 700 });
    expect(Math.abs(p.x + NODE_BOX.width / 2 - 900)).toBeLessThanOrEqual(125);
    expect(Math.abs(p.y + NODE_BOX.height / 2 - 700)).toBeLessThanOrEqual(75);
  });

  it('keeps clear of agents already on the board, wherever they are', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ x: fc.integer({ min: 0, max: 2000 }), y: fc.integer({ min: 0, max: 2000 }) }), {
          maxLength: 30,
        }),
        fc.record({ x: fc.integer({ min: -500, max: 2500 }), y: fc.integer({ min: -500, max: 2500 }) }),
        (occupied, centre) => {
          const p = nextFreeSlot(occupied, centre);
          expect(inBounds(p)).toBe(true);
          expect(occupied.some((o) => crowds(p, o))).toBe(false);
        },
      ),
    );
  });

  it('a full board still answers a place on the board', () => {
    const everywhere: Point[] = [];
    for (let x = 0; x <= 2000; x += 100) for (let y = 0; y <= 2000; y += 100) everywhere.push({ x, y });
    expect(inBounds(nextFreeSlot(everywhere, { x: 0, y: 0 }))).toBe(true);
  });
});

/** Whether the segment a–b passes through the node box whose top-left is `at` (sampled finely). */
function segmentHitsBox(a: Point, b: Point, at: Point): boolean {
  for (let t = 0; t <= 1; t += 0.002) {
    const x = a.x + (b.x - a.x) * t;
    const y = a.y + (b.y - a.y) * t;
    if (x > at.x && x < at.x + NODE_BOX.width && y > at.y && y < at.y + NODE_BOX.height) return true;
  }
  return false;
}

describe('autoLayout', () => {
  it('more than a circle holds: puts sources above what they feed, with no two agents overlapping', () => {
    const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
    const p = autoLayout(ids, [
      { source: 'a', target: 'b' },
      { source: 'a', target: 'c' },
      { source: 'b', target: 'd' },
      { source: 'c', target: 'd' },
    ]);
    expect(Object.keys(p).sort()).toEqual(ids);
    expect(p.a.y).toBeLessThan(p.b.y);
    expect(p.b.y).toBe(p.c.y);
    expect(p.c.y).toBeLessThan(p.d.y);
    expect(p.e.y).toBeGreaterThan(p.d.y); // unconnected agents follow the layers
    for (const i of ids) for (const j of ids) if (i < j) expect(overlaps(p[i], p[j])).toBe(false);
  });

  it('survives cycles, self-loops and edges to unknown agents', () => {
    const p = autoLayout(
      ['a', 'b', 'c'],
      [
        { source: 'a', target: 'b' },
        { source: 'b', target: 'c' },
        { source: 'c', target: 'a' },
        { source: 'a', target: 'a' },
        { source: 'a', target: 'zz' },
      ],
    );
    expect(new Set([p.a, p.b, p.c].map((q) => `${q.x},${q.y}`)).size).toBe(3);
  });

  it('2 to 8 agents: a circle round the middle of the view, sources first from the top, no edge through an agent', () => {
    const centre = { x: 900, y: 700 };
    for (let n = 2; n <= CIRCLE_MAX; n++) {
      const ids = Array.from({ length: n }, (_, i) => `n${i}`);
      const chain = ids.slice(1).map((id, i) => ({ source: ids[i], target: id }));
      const p = autoLayout(ids, chain, centre);
      const xs = ids.map((id) => p[id].x + NODE_BOX.width / 2);
      const ys = ids.map((id) => p[id].y + NODE_BOX.height / 2);
      // Centred on the view (not stacked at the board's top left).
      expect(Math.abs((Math.min(...xs) + Math.max(...xs)) / 2 - centre.x)).toBeLessThanOrEqual(1);
      expect(Math.abs((Math.min(...ys) + Math.max(...ys)) / 2 - centre.y)).toBeLessThanOrEqual(1);
      if (n > 2) expect(p.n0.y).toBe(Math.min(...ids.map((id) => p[id].y)));
      else expect(p.n0.y).toBe(p.n1.y);
      for (const id of ids) expect(inBounds(p[id])).toBe(true);
      // Every possible connection, drawn straight between centres, stays clear of every other agent's box.
      const mid = (id: string) => ({ x: p[id].x + NODE_BOX.width / 2, y: p[id].y + NODE_BOX.height / 2 });
      for (const a of ids)
        for (const b of ids) {
          if (a >= b) continue;
          for (const c of ids)
            if (c !== a && c !== b)
              expect(segmentHitsBox(mid(a), mid(b), p[c]), `${n}: ${a}–${b} through ${c}`).toBe(false);
        }
    }
  });

  it('2 to 8 agents in a narrow visible area (1024×700 with the panel open): laid out to fit it with readable cards', () => {
    // The free part of the canvas beside its boxes at 1024×700 with the discussion panel open, in screen pixels.
    const area = { width: 312, height: 532 };
    const zoomOf = (p: Record<string, Point>) => {
      const xs = Object.values(p).map((q) => q.x);
      const ys = Object.values(p).map((q) => q.y);
      const w = Math.max(...xs) - Math.min(...xs) + NODE_BOX.width;
      const h = Math.max(...ys) - Math.min(...ys) + NODE_BOX.height;
      return Math.min(1, area.width / w, area.height / h);
    };
    for (let n = 2; n <= CANVAS_FULL_CARDS_MAX; n++) {
      const ids = Array.from({ length: n }, (_, i) => `n${i}`);
      const chain = ids.slice(1).map((id, i) => ({ source: ids[i], target: id }));
      const p = autoLayout(ids, chain, { x: 900, y: 700 }, area);
      expect(zoomOf(p), `${n} agents`).toBeGreaterThanOrEqual(CANVAS_DETAIL_ZOOM);
      for (const a of ids) {
        expect(inBounds(p[a])).toBe(true);
        for (const b of ids) if (a < b) expect(overlaps(p[a], p[b]), `${n}: ${a} on ${b}`).toBe(false);
      }
    }
    // A wide area keeps the circle.
    const wide = autoLayout(['a', 'b', 'c', 'd', 'e', 'f'], [], { x: 900, y: 700 }, { width: 1100, height: 700 });
    expect(wide).toEqual(autoLayout(['a', 'b', 'c', 'd', 'e', 'f'], [], { x: 900, y: 700 }));
  });

  it('a chain longer than the board is tall is folded into rows, still without overlap', () => {
    const ids = Array.from({ length: 40 }, (_, i) => `n${i}`);
    const p = autoLayout(
      ids,
      ids.slice(1).map((id, i) => ({ source: ids[i], target: id })),
    );
    for (let i = 0; i < 40; i++) for (let j = i + 1; j < 40; j++) expect(overlaps(p[ids[i]], p[ids[j]])).toBe(false);
  });

  it('any graph: every agent gets a place on the board; up to a board-full, none overlap', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.array(fc.tuple(fc.nat(59), fc.nat(59)), { maxLength: 120 }),
        (n, pairs) => {
          const ids = Array.from({ length: n }, (_, i) => `n${i}`);
          const edges = pairs
            .filter(([s, t]) => s < n && t < n)
            .map(([s, t]) => ({ source: `n${s}`, target: `n${t}` }));
          const p = autoLayout(ids, edges);
          for (const id of ids) expect(inBounds(p[id])).toBe(true);
          if (n <= 40)
            for (let i = 0; i < n; i++)
              for (let j = i + 1; j < n; j++) expect(overlaps(p[ids[i]], p[ids[j]])).toBe(false);
        },
      ),
    );
  });
});
