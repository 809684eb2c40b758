// The React Flow nodes and edges the canvas draws, built from the workspace's agents, edges, selection and statuses.
// React Flow re-renders a node only when its node object changes, so the derivers below keep the previous
// object for every node whose inputs did not change: selecting one node among 500 rebuilds one object.
import type { Agent } from '../../schemas/agents';
import type { Edge } from '../../schemas/connections';
import { displayName, displayRole, statusOf, type CanvasStatus } from '../../model/agentDisplay';
import { drawnPosition } from '../../shared/canvasPlacement';
import type { Rect } from './edgeGeometry';
import { agentAvatar, agentColor } from '../../model/agentIdentity';
import { canDrawText } from '../../services/glyphSupport';

export interface AgentNodeData extends Record<string, unknown> {
  agentId: string;
  name: string;
  role: string;
  status: CanvasStatus;
  selected: boolean;
  /** The agent's identity (src/model/agentIdentity.ts): its colour and what its avatar circle shows. */
  color: string;
  avatar: string;
  /** Which voice it speaks with (README 'Voices'), '' for the server's default speech. */
  voice: string;
  /** The option the agent holds in the running discussion (its words) and the option's colour slot. */
  position?: string;
  positionSlot?: number;
  /** Its model's server does not answer (the card says so before Start asks). */
  unreachable?: boolean;
}

/** The node shape React Flow takes (kept structural so this module needs no UI import). */
export interface CanvasNode {
  id: string;
  type: 'agent';
  position: { x: number; y: number };
  data: AgentNodeData;
  selectable: false;
  deletable: false;
  /** The size React Flow measured, or CARD_SIZE until then (see there). */
  measured: { width: number; height: number };
}

/**
 * The size of a usual card (a one-line name and role, canvas.css fixes its line heights and its height in both
 * levels of detail). Every node starts with it as its measured size: React Flow draws a node with a size at once
 * and reports a size change only where the card it measures differs (a wrapped name), so a board of usual cards
 * costs no second pass over all its nodes and edges once they are measured. tests/e2e checks the drawn card.
 */
export const CARD_SIZE: Readonly<{ width: number; height: number }> = { width: 200, height: 74 };

/** How an edge is drawn: plain, touching a selected agent, or touching the agent speaking now (drawn live). */
export type EdgeTone = 'normal' | 'selected' | 'speaking';

/**
 * What an edge draws from: its tone and its two nodes' boxes on the board. The boxes ride on the edge so the edge
 * draws from its props alone: a per-edge subscription to React Flow's store would run on every pan frame.
 */
export interface EdgeData extends Record<string, unknown> {
  tone: EdgeTone;
  from: Rect;
  to: Rect;
}

export interface CanvasEdge {
  id: string;
  source: string;
  target: string;
  selected: boolean;
  type: 'floating';
  data: EdgeData;
  /** 'Connection between Ada and Bo': what a screen reader hears (React Flow would read the ids). */
  ariaLabel: string;
  /** Not a tab stop: React Flow draws edges before nodes, so focusable edges would come before the agents. */
  focusable: false;
}

/** How a connection is named: by its agents' names, with no direction (both hear each other). */
export const edgeLabel = (names: ReadonlyMap<string, string> | undefined, source: string, target: string) =>
  `Connection between ${names?.get(source) ?? 'an agent'} and ${names?.get(target) ?? 'an agent'}`;

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
  /** agent id → the option it holds now (workspace `positions`). */
  positions?: Readonly<Record<string, { label: string; slot: number }>>;
  /** Positions of nodes being dragged right now (view-local), drawn instead of the stored ones. */
  dragging?: Readonly<Record<string, { x: number; y: number }>>;
  /**
   * Sizes React Flow already measured. A rebuilt node object carries its size over, so React Flow does not
   * hide it for a frame to measure it again.
   */
  measured?: ReadonlyMap<string, { width: number; height: number }>;
  /** Agents whose model server is not answering now. */
  unreachable?: ReadonlySet<string>;
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
  size: { width: number; height: number };
  mark: { label: string; slot: number } | undefined;
  down: boolean;
  node: CanvasNode;
}

export function createNodeDeriver() {
  let byId = new Map<string, NodeEntry>();
  let last: CanvasNode[] = [];
  return function deriveNodes({
    agents,
    selection,
    statuses,
    positions = {},
    dragging = {},
    measured,
    unreachable,
  }: NodeInputs): CanvasNode[] {
    const selected = new Set(selection);
    const next = new Map<string, NodeEntry>();
    let changed = agents.length !== last.length;
    const nodes = agents.map((agent, i) => {
      const status = statusOf(agent, statuses);
      const isSelected = selected.has(agent.id);
      const drag = dragging[agent.id];
      // The size rides on the node so the minimap (which draws only sized nodes) shows it.
      const size = measured?.get(agent.id) ?? CARD_SIZE;
      const prev = byId.get(agent.id);
      const mark = positions[agent.id];
      const down = unreachable?.has(agent.id) ?? false;
      if (
        prev &&
        prev.agent === agent &&
        prev.status === status &&
        prev.selected === isSelected &&
        prev.drag === drag &&
        prev.size === size &&
        prev.mark === mark &&
        prev.down === down
      ) {
        next.set(agent.id, prev);
        if (last[i] !== prev.node) changed = true;
        return prev.node;
      }
      changed = true;
      const node: CanvasNode = {
        id: agent.id,
        type: 'agent',
        position: drag ?? drawnPosition(agent),
        data: {
          agentId: agent.id,
          name: displayName(agent),
          role: displayRole(agent),
          status,
          selected: isSelected,
          color: agentColor(agent),
          avatar: agentAvatar(agent, canDrawText),
          voice: agent.voice ?? '',
          ...(mark ? { position: mark.label, positionSlot: mark.slot } : {}),
          ...(down ? { unreachable: true } : {}),
        },
        selectable: false,
        deletable: false,
        measured: size,
      };
      next.set(agent.id, { agent, status, selected: isSelected, drag, size, mark, down, node });
      return node;
    });
    byId = next;
    if (!changed) return last;
    last = nodes;
    return nodes;
  };
}

/**
 * Each node's box on the board (its drawn position and its size).
 * A box keeps its identity while its numbers stay the same, so only the edges of a moved or resized node change.
 */
export function createRectTracker() {
  let last = new Map<string, Rect>();
  return function rectsOf(nodes: readonly CanvasNode[]): ReadonlyMap<string, Rect> {
    const next = new Map<string, Rect>();
    for (const n of nodes) {
      const { width, height } = n.measured;
      const prev = last.get(n.id);
      const same =
        prev && prev.x === n.position.x && prev.y === n.position.y && prev.width === width && prev.height === height;
      next.set(n.id, same ? prev : { x: n.position.x, y: n.position.y, width, height });
    }
    last = next;
    return next;
  };
}

/**
 * Edges keep their identity too; `selected` is the view's (React Flow edge selection, for deleting), the tone
 * comes from the selected agents and the active speaker.
 */
export function createEdgeDeriver() {
  type Entry = { edge: Edge; selected: boolean; tone: EdgeTone; from: Rect; to: Rect; out: CanvasEdge };
  let byId = new Map<string, Entry>();
  let last: CanvasEdge[] = [];
  return function deriveEdges(
    edges: readonly Edge[],
    rects: ReadonlyMap<string, Rect>,
    selectedEdges: ReadonlySet<string>,
    emphasis: EdgeEmphasis = NO_EMPHASIS,
    names?: ReadonlyMap<string, string>,
  ): CanvasEdge[] {
    const next = new Map<string, Entry>();
    const out: CanvasEdge[] = [];
    let changed = false;
    for (const edge of edges) {
      // An edge whose node is gone is not drawn (React Flow would warn); the server removes it with the agent.
      const from = rects.get(edge.source);
      const to = rects.get(edge.target);
      if (!from || !to) continue;
      const selected = selectedEdges.has(edge.id);
      const tone = edgeTone(edge, emphasis);
      const ariaLabel = edgeLabel(names, edge.source, edge.target);
      const prev = byId.get(edge.id);
      const keep =
        prev &&
        prev.edge === edge &&
        prev.selected === selected &&
        prev.tone === tone &&
        prev.from === from &&
        prev.to === to &&
        prev.out.ariaLabel === ariaLabel;
      const item: Entry = keep
        ? prev
        : {
            edge,
            selected,
            tone,
            from,
            to,
            out: {
              id: edge.id,
              source: edge.source,
              target: edge.target,
              selected,
              type: 'floating',
              data: { tone, from, to },
              ariaLabel,
              focusable: false,
            },
          };
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
