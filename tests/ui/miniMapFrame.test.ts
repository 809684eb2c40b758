import { describe, expect, it } from 'vitest';
import { MINIMAP_SIZE, nextFrame, viewBoxOf, viewOnMinimap, viewRect } from '../../src/ui/canvas/miniMapFrame';

// The canvas minimap's geometry (src/ui/canvas/miniMapFrame.ts): the framed part stays put while a pan stays
// inside it, so a pan frame only moves the view's outline.
const nodes = { x: 0, y: 0, width: 4000, height: 3000 };

describe('the minimap frame', () => {
  it('holds the nodes and the view, as React Flow’s minimap does', () => {
    const view = { x: -500, y: 100, width: 1000, height: 600 };
    expect(nextFrame(null, nodes, view)).toEqual({ x: -500, y: 0, width: 4500, height: 3000 });
    expect(nextFrame(null, null, view)).toEqual(view);
  });

  it('stays the same object while the view pans inside it', () => {
    const frame = nextFrame(null, nodes, { x: 100, y: 100, width: 1000, height: 600 });
    for (let i = 1; i <= 60; i++) {
      const view = { x: 100 + i * 15, y: 100 + i * 7.5, width: 1000, height: 600 };
      expect(nextFrame(frame, nodes, view)).toBe(frame);
    }
  });

  it('grows ahead of a view that leaves it, and fits exactly again once asked to be tight', () => {
    const frame = { ...nodes };
    const out = { x: 3500, y: 100, width: 1000, height: 600 };
    const grown = nextFrame(frame, nodes, out);
    expect(grown.x).toBe(0);
    // Past the view's right edge by half its width, so the next frames of the same pan keep it.
    expect(grown.x + grown.width).toBe(3500 + 1000 * 1.5);
    expect(nextFrame(grown, nodes, { ...out, x: out.x + 400 })).toBe(grown);
    expect(nextFrame(grown, nodes, out, true)).toEqual({ x: 0, y: 0, width: 4500, height: 3000 });
  });

  it('centres the frame in the minimap with a margin, keeping the minimap’s shape', () => {
    const box = viewBoxOf({ x: 0, y: 0, width: 4000, height: 1000 });
    expect(box.width / box.height).toBeCloseTo(MINIMAP_SIZE.width / MINIMAP_SIZE.height);
    expect(box.x).toBeLessThan(0);
    expect(box.x + box.width).toBeGreaterThan(4000);
    expect(box.y + box.height / 2).toBeCloseTo(500);
    expect(box.unitsPerPixel).toBeCloseTo(box.width / MINIMAP_SIZE.width);
  });

  it('places the view on the minimap in whole pixels', () => {
    const box = { x: 0, y: 0, width: 2000, height: 1500 }; // 10 board units a pixel
    const view = viewRect([-1003, -498, 1], 1280, 800);
    expect(view).toEqual({ x: 1003, y: 498, width: 1280, height: 800 });
    expect(viewOnMinimap(box, view)).toEqual({ x: 100, y: 50, width: 128, height: 80 });
    // Zoomed out by half, the same canvas shows twice the board.
    expect(viewOnMinimap(box, viewRect([0, 0, 0.5], 1280, 800))).toEqual({ x: 0, y: 0, width: 256, height: 160 });
  });
});
