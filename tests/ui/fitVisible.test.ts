import { describe, expect, it } from 'vitest';
import { allVisible, boundsOf } from '../../src/ui/canvas/FitVisible';
import { agentAvatar, agentColor } from '../../src/model/agentIdentity';
import { createNodeDeriver } from '../../src/ui/canvas/flowElements';

const inset = { top: 24, right: 24, bottom: 170, left: 290 };
const area = { width: 574, height: 560 };
const node = (x: number, y: number) => ({ x, y, width: 200, height: 70 });

describe('allVisible (the canvas fit beside the panel)', () => {
  it('is true only when every node box is inside the free area at the viewport', () => {
    const nodes = [node(0, 0), node(250, 0)];
    expect(allVisible(nodes, { x: 300, y: 40, zoom: 0.5 }, area, inset)).toBe(true);
    // At zoom 1 the second node runs past the right edge of a 574 px canvas.
    expect(allVisible(nodes, { x: 300, y: 40, zoom: 1 }, area, inset)).toBe(false);
    // Under the overlay boxes on the left.
    expect(allVisible([node(0, 0)], { x: 100, y: 40, zoom: 1 }, area, inset)).toBe(false);
    // Under the minimap strip at the bottom.
    expect(allVisible([node(0, 400)], { x: 300, y: 0, zoom: 1 }, area, inset)).toBe(false);
  });

  it('fits the box that holds them all', () => {
    expect(boundsOf([node(40, 10), node(-20, 300)])).toEqual({ x: -20, y: 10, width: 260, height: 360 });
    expect(boundsOf([])).toBeNull();
  });
});

describe('canvas node data carries the agent identity', () => {
  it('uses the chosen colour and avatar, else the derived ones', () => {
    const derive = createNodeDeriver();
    const own = { id: 'a1', name: 'Ada Lovelace', color: '#A21CAF', avatar: '🦉', x: 10, y: 10 };
    const plain = { id: 'b2', name: 'Bo', x: 300, y: 10 };
    const [a, b] = derive({ agents: [own, plain], selection: [], statuses: {} });
    expect(a.data).toMatchObject({ color: '#a21caf', avatar: '🦉' });
    expect(b.data).toMatchObject({ color: agentColor(plain), avatar: agentAvatar(plain) });
    expect(b.data.avatar).toBe('B');
  });
});
