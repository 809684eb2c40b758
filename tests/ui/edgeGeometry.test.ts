// Edges run border to border between their nodes, whichever way round the nodes sit.
import { describe, expect, it } from 'vitest';
import { borderPoint, floatingLinePath, floatingSegment } from '../../src/ui/canvas/edgeGeometry';

const box = (x: number, y: number) => ({ x, y, width: 200, height: 80 });

describe('edge geometry', () => {
  it('leaves each node through the side facing the other', () => {
    // Target above the source: the edge leaves the source's top and enters the target's bottom.
    expect(floatingSegment(box(0, 300), box(0, 0))).toEqual({ sx: 100, sy: 298, tx: 100, ty: 82 });
    // Side by side: right side to left side.
    expect(floatingSegment(box(0, 0), box(400, 0))).toEqual({ sx: 202, sy: 40, tx: 398, ty: 40 });
  });

  it('a point on the border lies on the rectangle', () => {
    const p = borderPoint(box(0, 0), { x: 1000, y: 100 });
    expect(p.x).toBe(200);
    expect(p.y).toBeGreaterThan(40);
    expect(p.y).toBeLessThan(80);
  });
});

describe('floatingLinePath', () => {
  const box = (x: number, y: number) => ({ x, y, width: 200, height: 80 });
  it('apart, one gentle arc border to border and nothing else: no arrowhead, as hearing goes both ways', () => {
    const path = floatingLinePath(box(0, 0), box(400, 0))!;
    expect(path).toMatch(/^M 202,40 Q 300,[\d.-]+ 398,40$/);
    expect(path.match(/M/g)).toHaveLength(1);
  });
  it('overlapping nodes get no edge', () => {
    expect(floatingLinePath(box(0, 0), box(20, 10))).toBeNull();
  });
});
