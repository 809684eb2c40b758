// What the canvas draws, derived from the workspace's agents, edges, selection and statuses.
// React Flow re-renders a node only when its node object changes, so the derivers below keep the previous
// object for every node whose inputs did not change: selecting one node among 500 rebuilds one object.
import type { Agent } from '../schemas/agents';
import type { EditorActorRef } from './editor.machine';
import type { WorkspaceSnapshot } from './workspace.machine';
import type { Edge } from '../schemas/connections';
import { AGENT_MESSAGES } from '../schemas/messages';
import {
  AGENT_STATUSES,
  POSITION_FALLBACK_MAX,
  POSITION_FALLBACK_MIN,
  POSITION_MAX,
  POSITION_MIN,
} from '../schemas/constants';

export type CanvasStatus = (typeof AGENT_STATUSES)[number];

export interface AgentNodeData extends Record<string, unknown> {
  agentId: string;
  name: string;
  role: string;
  status: CanvasStatus;
  selected: boolean;
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

export const isKnownStatus = (s: unknown): s is CanvasStatus => typeof s === 'string' && (AGENT_STATUSES as readonly string[]).includes(s);

/** The runtime status from live updates, else the agent's own when it is one of the seven, else idle. */
export function statusOf(agent: Agent, statuses: Readonly<Record<string, string>>): CanvasStatus {
  const live = statuses[agent.id];
  if (isKnownStatus(live)) return live;
  const own = agent.status?.toLowerCase();
  return isKnownStatus(own) ? own : 'idle';
}

export const isInBounds = (v: number | null | undefined): v is number =>
  typeof v === 'number' && Number.isFinite(v) && v >= POSITION_MIN && v <= POSITION_MAX;

export const isPositionInBounds = (p: { x?: number | null; y?: number | null }) => isInBounds(p.x) && isInBounds(p.y);

/** A fallback position from two numbers in [0, 1): the randomness is the caller's (an injected actor). */
export const fallbackPosition = (u: number, v: number) => ({
  x: Math.round(POSITION_FALLBACK_MIN + u * (POSITION_FALLBACK_MAX - POSITION_FALLBACK_MIN)),
  y: Math.round(POSITION_FALLBACK_MIN + v * (POSITION_FALLBACK_MAX - POSITION_FALLBACK_MIN)),
});

// Drawing an agent whose stored position is out of bounds must not make it jump on every render, so the
// "random" place it is drawn at is a stable hash of its id (saving a drag uses real randomness instead).
function unitHash(s: string, seed: number): number {
  let h = 2166136261 ^ seed;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return ((h >>> 0) % 10_000) / 10_000;
}

export function drawnPosition(agent: Agent): { x: number; y: number } {
  if (isPositionInBounds(agent)) return { x: agent.x as number, y: agent.y as number };
  return fallbackPosition(unitHash(agent.id, 1), unitHash(agent.id, 2));
}

export const displayName = (agent: Agent) => agent.name || AGENT_MESSAGES.fallbackName(agent.id);
export const displayRole = (agent: Agent) => agent.role || AGENT_MESSAGES.fallbackRole;

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
        data: { agentId: agent.id, name: displayName(agent), role: displayRole(agent), status, selected: isSelected },
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

/** The agent currently speaking (or responding), for the controls box. */
export function activeSpeaker(agents: readonly Agent[], statuses: Readonly<Record<string, string>>): Agent | null {
  return agents.find((a) => {
    const s = statusOf(a, statuses);
    return s === 'speaking' || s === 'responding';
  }) ?? null;
}

export function selectedAgents(agents: readonly Agent[], selection: readonly string[]): Agent[] {
  const byId = new Map(agents.map((a) => [a.id, a]));
  return selection.map((id) => byId.get(id)).filter((a): a is Agent => a !== undefined);
}

// ── Workspace snapshot → canvas ─────────────────────────────────────────────

export const selectAgents = (s: WorkspaceSnapshot) => s.context.agents;
export const selectEdges = (s: WorkspaceSnapshot) => s.context.edges;
export const selectSelection = (s: WorkspaceSnapshot) => s.context.selectedIds;
export const selectStatuses = (s: WorkspaceSnapshot) => s.context.statuses;
export const selectIsAutoConnecting = (s: WorkspaceSnapshot) => s.matches({ autoConnect: 'running' });
export const selectEditorRef = (s: WorkspaceSnapshot) => s.children.editor as EditorActorRef | undefined;

/** The banner: the canvas's own message, else a failed first load. */
export function selectBanner(s: WorkspaceSnapshot): { kind: 'error' | 'success'; text: string } | null {
  if (s.context.banner) return s.context.banner;
  return s.context.loadError ? { kind: 'error', text: s.context.loadError } : null;
}

/** The delete confirmation to show, if any: its words, and whether the answer can be given yet. */
export function selectDeleteConfirmation(s: WorkspaceSnapshot): { message: string; ready: boolean; busy: boolean } | null {
  const p = s.context.pendingDelete;
  if (!p) return null;
  if (s.matches({ deletion: 'counting' })) return { message: `Counting the audio files of "${p.name}"…`, ready: false, busy: false };
  const message =
    p.audioCount === null ? `Delete agent "${p.name}"? Its audio files will also be deleted.` : AGENT_MESSAGES.deleteConfirm(p.name, p.audioCount);
  return { message, ready: true, busy: s.matches({ deletion: 'deleting' }) };
}

/** The id of the agent speaking now: the one the sockets named last, else one whose status says so. */
export function selectActiveSpeakerId(s: WorkspaceSnapshot): string | null {
  const id = s.context.activeSpeakerId;
  if (id && s.context.agents.some((a) => a.id === id)) return id;
  return activeSpeaker(s.context.agents, s.context.statuses)?.id ?? null;
}

export const selectIsAgentsLoaded = (s: WorkspaceSnapshot) => s.matches({ agents: 'loaded' });

export function selectActiveSpeakerName(s: WorkspaceSnapshot): string | null {
  const id = s.context.activeSpeakerId;
  const byId = id ? s.context.agents.find((a) => a.id === id) : null;
  const agent = byId ?? activeSpeaker(s.context.agents, s.context.statuses);
  return agent ? displayName(agent) : null;
}
