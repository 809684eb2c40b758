// The workspace's reducers (pure): how a status, a deleted agent, a reload, a move change what the canvas draws.
// workspace.machine.ts assigns what these return.
import type { Agent } from '../schemas/agents';
import type { Edge } from '../schemas/connections';

/** The part of the workspace's context these reducers read and write. */
export interface WorkspaceData {
  agents: Agent[];
  edges: Edge[];
  selectedIds: string[];
  statuses: Record<string, string>;
}

export interface PendingMove {
  agentId: string;
  x: number;
  y: number;
}

/**
 * The newest status moves to the end of the record, so the record's order is the order the sockets named the
 * agents in: the active speaker is derived from it (workspace.selectors.ts), never stored beside it.
 */
export function withStatus(context: Pick<WorkspaceData, 'statuses'>, id: string, status: string): Pick<WorkspaceData, 'statuses'> {
  const { [id]: _previous, ...others } = context.statuses;
  return { statuses: { ...others, [id]: status } };
}

export function withoutAgent(context: WorkspaceData, id: string): WorkspaceData {
  const { [id]: _gone, ...statuses } = context.statuses;
  return {
    agents: context.agents.filter((a) => a.id !== id),
    edges: context.edges.filter((e) => e.source !== id && e.target !== id),
    selectedIds: context.selectedIds.filter((s) => s !== id),
    statuses,
  };
}

/**
 * A reload keeps the object of every agent whose fields did not change, so the canvas redraws only the nodes
 * that did (React Flow compares node objects by identity).
 */
export function reconcileAgents(prev: Agent[], next: Agent[]): Agent[] {
  if (prev.length === 0) return next;
  const byId = new Map(prev.map((a) => [a.id, a]));
  return next.map((a) => {
    const old = byId.get(a.id);
    return old && sameAgent(old, a) ? old : a;
  });
}

function sameAgent(a: Agent, b: Agent): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    const x = (a as Record<string, unknown>)[k];
    const y = (b as Record<string, unknown>)[k];
    if (x === y) continue;
    if (typeof x === 'object' && typeof y === 'object' && JSON.stringify(x) === JSON.stringify(y)) continue;
    return false;
  }
  return true;
}

export const withPosition = (agents: Agent[], id: string, x: number, y: number) =>
  agents.map((a) => (a.id === id ? { ...a, x, y } : a));

/** Adds the agent, or replaces the one with its id (a frame may repeat what a load already brought). */
export const upsert = (agents: Agent[], agent: Agent) =>
  agents.some((a) => a.id === agent.id) ? agents.map((a) => (a.id === agent.id ? agent : a)) : [...agents, agent];

/** Queues moves to save (a later move of an agent replaces its unsaved earlier one) and draws them at once. */
export function withMoves(
  context: Pick<WorkspaceData, 'agents'> & { pendingMoves: PendingMove[] },
  moves: readonly PendingMove[],
): Partial<Pick<WorkspaceData, 'agents'> & { pendingMoves: PendingMove[] }> {
  if (moves.length === 0) return {};
  const moved = new Set(moves.map((m) => m.agentId));
  const byId = new Map(moves.map((m) => [m.agentId, m]));
  // The head is being saved right now, so it stays even when a newer move of the same agent follows.
  const rest = context.pendingMoves.filter((m, i) => i === 0 || !moved.has(m.agentId));
  return {
    pendingMoves: [...rest, ...moves],
    agents: context.agents.map((a) => {
      const m = byId.get(a.id);
      return m ? { ...a, x: m.x, y: m.y } : a;
    }),
  };
}
