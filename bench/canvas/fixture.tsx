// The bench's board: 500 agents (or ?agents=N in the page's address) on a grid inside the 0..2000 square and twice
// as many connections (each agent to the next one and to the one a row below), plus the same board as plain
// React Flow nodes and edges.
import type { Edge as FlowEdge, Node as FlowNode } from '@xyflow/react';
import type { Agent } from '../../src/schemas/agents';
import type { Edge } from '../../src/schemas/connections';

export const AGENTS = Number(new URLSearchParams(globalThis.location?.search ?? '').get('agents') ?? 500);
export const CONNECTIONS = AGENTS * 2;
const COLS = Math.round(25 * Math.sqrt(AGENTS / 500));
const STEP_X = 2000 / COLS;
const STEP_Y = 2000 / Math.ceil(AGENTS / COLS);
const ROLES = ['Agronomist', 'Economist', 'Grower', 'Historian', 'Engineer'];

export const agents: Agent[] = Array.from({ length: AGENTS }, (_, i) => ({
  id: `agent-${String(i).padStart(3, '0')}`,
  name: `Agent ${i}`,
  role: ROLES[i % ROLES.length],
  prompt: 'You are a bench agent.',
  model: 'offline',
  status: 'idle',
  x: Math.round((i % COLS) * STEP_X),
  y: Math.round(Math.floor(i / COLS) * STEP_Y),
}));

export const edges: Edge[] = agents.flatMap((a, i) => [
  { id: `conn-${i}-next`, source: a.id, target: agents[(i + 1) % AGENTS].id },
  { id: `conn-${i}-below`, source: a.id, target: agents[(i + COLS) % AGENTS].id },
]);

/** The same board for bare React Flow: default nodes whose label shows the name, role and status. */
export const bareNodes: FlowNode[] = agents.map((a) => ({
  id: a.id,
  position: { x: a.x as number, y: a.y as number },
  data: {
    label: (
      <>
        <strong>{a.name}</strong>
        <div>{a.role}</div>
        <div>Idle</div>
      </>
    ),
  },
}));

export const bareEdges: FlowEdge[] = edges.map((e) => ({ id: e.id, source: e.source, target: e.target }));
