// The React Flow nodes and edges the canvas draws, built from the workspace's agents, edges, selection and statuses.
// React Flow re-renders a node only when its node object changes, so the derivers below keep the previous
// object for every node whose inputs did not change: selecting one node among 500 rebuilds one object.
import type { Agent } from '../../schemas/agents';
import type { Edge } from '../../schemas/connections';
import { displayName, displayRole, statusOf, type CanvasStatus } from '../../model/agentDisplay';
import { drawnPosition } from '../../model/canvasPlacement';
import { agentAvatar, agentColor } from '../../model/agentIdentity';

export interface AgentNodeData extends Record<string, unknown> {
  agentId: string;
  name: string;
  role: string;
  status: CanvasStatus;
  selected: boolean;
  /** The agent's colour and what its avatar circle shows (src/model/agentIdentity.ts). */
  color: string;
  avatar: string;
}

/** The node shape React Flow takes (kept structural so this module needs no UI import). */
export interface CanvasNode {
  id: string;
  type: 'agent';
  position: { x: number; y: number };
  data: AgentNodeData;
  selectable: false;
  deletable: false;
  measured?: { width: number; height: number };
}

/** How an edge is drawn: plain, touching a selected agent, or touching the agent speaking now (drawn live). */
export type EdgeTone = 'normal' | 'selected' | 'speaking';

export interface CanvasEdge {
  id: string;
  source: string;
  target: string;
  selected: boolean;
  type: 'floating';
  data: { tone: EdgeTone };
}

/** What makes an edge stand out: the selected agents and the active speaker. */
export interface EdgeEmphasis {
  selection: ReadonlySet<string>;
  speakerId: string | null;
}
const NO_EMPHASIS: EdgeEmphasis = { selection: new Set(), speakerId: null };

export function edgeTone(edge: Edge, { selection, speakerId }: EdgeEmphasis): EdgeTone {
  if (speakerId && (edge.source === speakerId || edge.target === speakerId)) return 'speaking';
  if (selection.has(edge.source) || selection.has(edge.target)) return 'selected';
  return 'normal';
}

export interface NodeInputs {
  agents: readonly Agent[];
  selection: readonly string[];
  statuses: Readonly<Record<string, string>>;
  /** Positions of nodes being dragged right now (view-local), drawn instead of the stored ones. */
  dragging?: Readonly<Record<string, { x: number; y: number }>>;
  /**
   * Sizes React Flow already measured. A rebuilt node object carries its size over, so React Flow does not
   * hide it for a frame to measure it again.
   */
  measured?: ReadonlyMap<string, { width: number; height: number }>;
}

/**
 * Returns a deriver that remembers its last output. A node keeps its identity when its agent object, status,
 * selection and drag position are all unchanged; the array keeps its identity when every node did.
 */
interface NodeEntry {
  agent: Agent;
  status: CanvasStatus;
  selected: boolean;
  drag: { x: number; y: number } | undefined;
  size: { width: number; height: number } | undefined;
  node: CanvasNode;
}

export function createNodeDeriver() {
  let byId = new Map<string, NodeEntry>();
  let last: CanvasNode[] = [];
  return function deriveNodes({ agents, selection, statuses, dragging = {}, measured }: NodeInputs): CanvasNode[] {
    const selected = new Set(selection);
    const next = new Map<string, NodeEntry>();
    let changed = agents.length !== last.length;
    const nodes = agents.map((agent, i) => {
      const status = statusOf(agent, statuses);
      const isSelected = selected.has(agent.id);
      const drag = dragging[agent.id];
      // The measured size rides on the node so the minimap (which draws only measured nodes) shows it.
      const size = measured?.get(agent.id);
      const prev = byId.get(agent.id);
      if (prev && prev.agent === agent && prev.status === status && prev.selected === isSelected && prev.drag === drag && prev.size === size) {
        next.set(agent.id, prev);
        if (last[i] !== prev.node) changed = true;
        return prev.node;
      }
      changed = true;
      const node: CanvasNode = {
        id: agent.id,
        type: 'agent',
        position: drag ?? drawnPosition(agent),
        data: { agentId: agent.id, name: displayName(agent), role: displayRole(agent), status, selected: isSelected, color: agentColor(agent), avatar: agentAvatar(agent) },
        selectable: false,
        deletable: false,
      };
      if (size) node.measured = size;
      next.set(agent.id, { agent, status, selected: isSelected, drag, size, node });
      return node;
    });
    byId = next;
    if (!changed) return last;
    last = nodes;
    return nodes;
  };
}

/**
 * Edges keep their identity too; `selected` is the view's (React Flow edge selection, for deleting), the tone
 * comes from the selected agents and the active speaker.
 */
export function createEdgeDeriver() {
  type Entry = { edge: Edge; selected: boolean; tone: EdgeTone; out: CanvasEdge };
  let byId = new Map<string, Entry>();
  let last: CanvasEdge[] = [];
  return function deriveEdges(
    edges: readonly Edge[],
    agentIds: ReadonlySet<string>,
    selectedEdges: ReadonlySet<string>,
    emphasis: EdgeEmphasis = NO_EMPHASIS,
  ): CanvasEdge[] {
    const next = new Map<string, Entry>();
    const out: CanvasEdge[] = [];
    let changed = false;
    for (const edge of edges) {
      // An edge whose node is gone is not drawn (React Flow would warn); the server removes it with the agent.
      if (!agentIds.has(edge.source) || !agentIds.has(edge.target)) continue;
      const selected = selectedEdges.has(edge.id);
      const tone = edgeTone(edge, emphasis);
      const prev = byId.get(edge.id);
      const keep = prev && prev.edge === edge && prev.selected === selected && prev.tone === tone;
      const item: Entry = keep
        ? prev
        : { edge, selected, tone, out: { id: edge.id, source: edge.source, target: edge.target, selected, type: 'floating', data: { tone } } };
      if (last[out.length] !== item.out) changed = true;
      next.set(edge.id, item);
      out.push(item.out);
    }
    byId = next;
    if (!changed && out.length === last.length) return last;
    last = out;
    return out;
  };
}
