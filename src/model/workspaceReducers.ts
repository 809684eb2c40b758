// The workspace's reducers (pure): how a status, a deleted agent, a reload, a move change what the canvas draws.
// workspace.machine.ts assigns what these return.
import type { Agent } from '../schemas/agents';
import type { Edge } from '../schemas/connections';
import type { LiveServerFrame } from '../schemas/liveUpdates';
import type { MonitorStats } from '../schemas/system';

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

/** The drawn agents and the drag ends waiting to be saved, oldest first (the head is being saved). */
type MoveQueue = Pick<WorkspaceData, 'agents'> & { pendingMoves: PendingMove[] };

/**
 * The newest status moves to the end of the record, so the record's order is the order the sockets named the
 * agents in: the active speaker is derived from it (workspace.selectors.ts), never stored beside it.
 */
export function withStatus(
  context: Pick<WorkspaceData, 'statuses'>,
  id: string,
  status: string,
): Pick<WorkspaceData, 'statuses'> {
  const { [id]: _previous, ...others } = context.statuses;
  return { statuses: { ...others, [id]: status } };
}

/** A fresh list of agents: unchanged ones keep their objects, and a selection of an agent that is gone lapses. */
export function withLoadedAgents(
  context: Pick<WorkspaceData, 'agents' | 'selectedIds'>,
  loaded: Agent[],
): Pick<WorkspaceData, 'agents' | 'selectedIds'> {
  const ids = new Set(loaded.map((a) => a.id));
  return {
    agents: reconcileAgents(context.agents, loaded),
    selectedIds: context.selectedIds.filter((s) => ids.has(s)),
  };
}

/** The selection with the agent added, or taken out when it was in it. */
export const toggled = (selectedIds: string[], id: string) =>
  selectedIds.includes(id) ? selectedIds.filter((s) => s !== id) : [...selectedIds, id];

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

/** Adds a created connection unless a reload or a frame already brought it. */
export const withEdge = (edges: Edge[], edge: Edge) => (edges.some((e) => e.id === edge.id) ? edges : [...edges, edge]);

/** Queues moves to save (a later move of an agent replaces its unsaved earlier one) and draws them at once. */
export function withMoves(context: MoveQueue, moves: readonly PendingMove[]): Partial<MoveQueue> {
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

/**
 * The move being saved (the queue's head) was off the board and goes to the fallback place its positionSave
 * picked: drawn there at once, and saved there. A placement for another agent is stale and changes nothing.
 */
export function withPlacedMove(context: MoveQueue, placed: PendingMove): Partial<MoveQueue> {
  const [head, ...rest] = context.pendingMoves;
  if (!head || head.agentId !== placed.agentId) return {};
  return { pendingMoves: [placed, ...rest], agents: withPosition(context.agents, placed.agentId, placed.x, placed.y) };
}

/**
 * What one /ws/updates frame changes: agents, statuses, stats; a connection frame asks for a reload of the
 * connections instead ('connected', 'pong' and anything later added to the protocol change nothing).
 */
export function applyLiveFrame(
  context: WorkspaceData,
  frame: LiveServerFrame,
): { changes: (Partial<WorkspaceData> & { stats?: MonitorStats }) | null; reloadConnections: boolean } {
  switch (frame.type) {
    case 'agent_created':
    case 'agent_updated':
      return { changes: { agents: upsert(context.agents, frame.agent) }, reloadConnections: false };
    case 'agent_deleted':
      return { changes: withoutAgent(context, frame.agent_id), reloadConnections: false };
    case 'connection_created':
    case 'connection_deleted':
      return { changes: null, reloadConnections: true };
    case 'agent_status_update':
      return { changes: withStatus(context, frame.agent_id, frame.status), reloadConnections: false };
    case 'system_update': {
      let next: Pick<WorkspaceData, 'statuses'> = context;
      for (const a of frame.agents) next = withStatus(next, a.id, a.status);
      return { changes: { statuses: next.statuses }, reloadConnections: false };
    }
    case 'stats':
      return { changes: { stats: frame.stats }, reloadConnections: false };
    default:
      return { changes: null, reloadConnections: false };
  }
}
