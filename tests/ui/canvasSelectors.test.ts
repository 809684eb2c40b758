import { describe, expect, it } from 'vitest';
import { activeSpeaker, selectedAgents, statusOf } from '../../src/model/agentDisplay';
import { drawnPosition, fallbackPosition, isPositionInBounds } from '../../src/shared/canvasPlacement';
import { CARD_SIZE, createEdgeDeriver, createNodeDeriver, createRectTracker } from '../../src/ui/canvas/flowElements';
import type { Agent } from '../../src/schemas/agents';

const agent = (id: string, extra: Partial<Agent> = {}): Agent => ({
  id,
  name: `Agent ${id}`,
  role: 'Role',
  x: 100,
  y: 200,
  ...extra,
});

describe('canvas selectors', () => {
  it('keeps every unchanged node object when one node is selected', () => {
    const derive = createNodeDeriver();
    const agents = Array.from({ length: 500 }, (_, i) => agent(`a${i}`));
    const first = derive({ agents, selection: [], statuses: {} });
    expect(derive({ agents, selection: [], statuses: {} })).toBe(first);
    const second = derive({ agents, selection: ['a7'], statuses: {} });
    expect(second).not.toBe(first);
    const changed = second.filter((n, i) => n !== first[i]);
    expect(changed.map((n) => n.id)).toEqual(['a7']);
    expect(changed[0].data.selected).toBe(true);
  });

  it('a node carries the usual card size until measured; a measured size that differs rebuilds only that node (the minimap draws sized nodes only)', () => {
    const derive = createNodeDeriver();
    const agents = [agent('a'), agent('b')];
    const measured = new Map<string, { width: number; height: number }>();
    const first = derive({ agents, selection: [], statuses: {}, measured });
    expect(first[0].measured).toBe(CARD_SIZE);
    measured.set('a', { width: 136, height: 70 });
    const second = derive({ agents, selection: [], statuses: {}, measured });
    expect(second[0]).not.toBe(first[0]);
    expect(second[0].measured).toEqual({ width: 136, height: 70 });
    expect(second[1]).toBe(first[1]);
    expect(derive({ agents, selection: [], statuses: {}, measured })[0]).toBe(second[0]);
  });

  it('a status change or an updated agent rebuilds only that node; drag positions are drawn', () => {
    const derive = createNodeDeriver();
    const agents = [agent('a'), agent('b')];
    const first = derive({ agents, selection: [], statuses: {} });
    const second = derive({ agents, selection: [], statuses: { b: 'speaking' } });
    expect(second[0]).toBe(first[0]);
    expect(second[1].data.status).toBe('speaking');
    const third = derive({
      agents: [agents[0], { ...agents[1], name: 'Bea' }],
      selection: [],
      statuses: { b: 'speaking' },
    });
    expect(third[0]).toBe(first[0]);
    expect(third[1].data.name).toBe('Bea');
    const drag = { a: { x: 5, y: 6 } };
    const fourth = derive({
      agents: [agents[0], third[1] && { ...agents[1], name: 'Bea' }],
      selection: [],
      statuses: {},
      dragging: drag,
    });
    expect(fourth[0].position).toEqual({ x: 5, y: 6 });
  });

  it('statuses: live first, then the agent’s own, else idle; unknown strings are idle', () => {
    expect(statusOf(agent('a'), {})).toBe('idle');
    expect(statusOf(agent('a', { status: 'Thinking' }), {})).toBe('thinking');
    expect(statusOf(agent('a', { status: 'thinking' }), { a: 'listening' })).toBe('listening');
    expect(statusOf(agent('a', { status: 'weird' }), { a: 'bogus' })).toBe('idle');
  });

  it('positions outside 0..2000 are drawn at a stable place between 100 and 500', () => {
    expect(isPositionInBounds({ x: 0, y: 2000 })).toBe(true);
    expect(isPositionInBounds({ x: -1, y: 10 })).toBe(false);
    expect(isPositionInBounds({ x: 10, y: 2001 })).toBe(false);
    expect(isPositionInBounds({ x: null, y: 10 })).toBe(false);
    const p = drawnPosition(agent('zz', { x: 5000, y: -3 }));
    expect(p).toEqual(drawnPosition(agent('zz', { x: 5000, y: -3 })));
    for (const v of [p.x, p.y]) {
      expect(v).toBeGreaterThanOrEqual(100);
      expect(v).toBeLessThanOrEqual(500);
    }
    expect(fallbackPosition(0, 0.999999)).toEqual({ x: 100, y: 500 });
  });

  it('edges keep identity, skip edges whose node is gone, and carry the view’s selection', () => {
    const derive = createEdgeDeriver();
    const edges = [
      { id: 'e1', source: 'a', target: 'b' },
      { id: 'e2', source: 'a', target: 'gone' },
    ];
    const box = { x: 0, y: 0, width: 200, height: 96 };
    const ids = new Map([
      ['a', box],
      ['b', { ...box, x: 400 }],
    ]);
    const first = derive(edges, ids, new Set());
    expect(first.map((e) => e.id)).toEqual(['e1']);
    expect(derive(edges, ids, new Set())).toBe(first);
    const second = derive(edges, ids, new Set(['e1']));
    expect(second[0].selected).toBe(true);
  });

  it('edges are named by their agents’ names and are not tab stops', () => {
    const derive = createEdgeDeriver();
    const names = new Map([
      ['a', 'Ada'],
      ['b', 'Bo'],
    ]);
    const boxes = new Map([
      ['a', { x: 0, y: 0, width: 200, height: 96 }],
      ['b', { x: 400, y: 0, width: 200, height: 96 }],
    ]);
    const [e] = derive([{ id: 'e1', source: 'a', target: 'b' }], boxes, new Set(), undefined, names);
    expect(e).toMatchObject({ ariaLabel: 'Connection between Ada and Bo', focusable: false });
    // A rename is a new label (and a new edge object for React Flow).
    const [renamed] = derive(
      [{ id: 'e1', source: 'a', target: 'b' }],
      boxes,
      new Set(),
      undefined,
      new Map([
        ['a', 'Ada L'],
        ['b', 'Bo'],
      ]),
    );
    expect(renamed.ariaLabel).toBe('Connection between Ada L and Bo');
  });

  it('edges carry their nodes’ boxes; a moved node changes only its own edges, and a box keeps its identity while unmoved', () => {
    const rectsOf = createRectTracker();
    const derive = createEdgeDeriver();
    const nodes = createNodeDeriver()({
      agents: [agent('a', { x: 0, y: 0 }), agent('b', { x: 400, y: 0 }), agent('c', { x: 0, y: 400 })],
      selection: [],
      statuses: {},
    });
    const edges = [
      { id: 'ab', source: 'a', target: 'b' },
      { id: 'bc', source: 'b', target: 'c' },
      { id: 'ca', source: 'c', target: 'a' },
    ];
    const first = derive(edges, rectsOf(nodes), new Set());
    expect(first[0].data.from).toEqual({ x: 0, y: 0, ...CARD_SIZE });
    const moved = nodes.map((n) => (n.id === 'c' ? { ...n, position: { x: 50, y: 500 } } : n));
    const boxes = rectsOf(moved);
    const second = derive(edges, boxes, new Set());
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
    expect(second[1].data.to).toEqual({ x: 50, y: 500, ...CARD_SIZE });
    expect(rectsOf(moved).get('a')).toBe(boxes.get('a'));
  });

  it('active speaker and selected agents', () => {
    const agents = [agent('a'), agent('b'), agent('c')];
    expect(activeSpeaker(agents, {})).toBeNull();
    expect(activeSpeaker(agents, { b: 'responding' })?.id).toBe('b');
    expect(selectedAgents(agents, ['c', 'x', 'a']).map((a) => a.id)).toEqual(['c', 'a']);
  });
});
