// The workspace's vocabulary (workspace.machine.ts): its context, the events the views send it, and what its
// operation children tell it. The children import their notices from here, so no chart imports its parent.
// Wire data keeps its schema types (Agent, Edge, MonitorStats, LiveServerFrame come from src/schemas).
import type { Agent, Position } from '../schemas/agents';
import type { Edge } from '../schemas/connections';
import type { LiveServerFrame } from '../schemas/liveUpdates';
import type { MonitorStats } from '../schemas/system';
import { agentColor } from './agentIdentity';
import type { BannerRequest, BannerShowEvent } from './bannerRequest';
import { DEFAULT_VIEW_CENTRE, newAgentPlace, type Point, type ViewArea } from '../shared/canvasPlacement';
import type { PendingMove, WorkspaceData } from './workspaceReducers';

/** A create may carry where the new agent goes (the workspace picks a free place); the server stores it with the agent. */
export type EditorInput =
  | { mode: 'create'; position?: Position; takenColors?: string[] }
  | { mode: 'edit'; agentId: string; agent?: Agent };

export interface WorkspaceContext extends WorkspaceData {
  stats: MonitorStats | null;
  loadError: string | null;
  /** What the canvas banner says; the `banner` region knows whether it is an error or a success. */
  banner: BannerRequest | null;
  /** Create, or edit which agent: the editor child's input. */
  editorRequest: EditorInput | null;
  /** Drag ends waiting to be saved, oldest first. */
  pendingMoves: PendingMove[];
  /** The middle of what the canvas shows, in board coordinates (the view reports it): new agents go near it. */
  viewCentre: Point | null;
  /** The size of the canvas's free part in screen pixels (the view reports it): Auto-layout fits a few agents to it. */
  viewArea: ViewArea | null;
  /** agent id → the option it holds in the discussion on the panel (its words and colour slot), as the server said. */
  positions: Readonly<Record<string, AgentPositionMark>>;
  /**
   * The positions of a stored discussion History shows (opened, or at the replay's moment): drawn instead of the
   * panel's while set, and the panel's come back when it is cleared.
   */
  shownPositions: Readonly<Record<string, AgentPositionMark>> | null;
}

/** What an agent's canvas node shows of its position: a coloured ring and a short label. */
export interface AgentPositionMark {
  label: string;
  slot: number;
}

/** Nothing loaded, nothing selected, no operation under way. */
export const initialWorkspaceContext: WorkspaceContext = {
  agents: [],
  edges: [],
  selectedIds: [],
  statuses: {},
  stats: null,
  loadError: null,
  banner: null,
  editorRequest: null,
  pendingMoves: [],
  viewCentre: null,
  viewArea: null,
  positions: {},
  shownPositions: null,
};

/** The editor's request; a create carries the free grid cell nearest the middle of the view. */
export function withPlace(request: EditorInput, agents: Agent[], viewCentre: Point | null): EditorInput {
  if (request.mode !== 'create' || request.position) return request;
  return { ...request, position: newAgentPlace(agents, viewCentre ?? DEFAULT_VIEW_CENTRE) };
}

/** What the editor opens with: a new agent's automatic colour avoids the ones the canvas's agents already wear. */
export function editorInputOf(request: EditorInput, agents: Agent[]): EditorInput {
  return request.mode === 'create' ? { ...request, takenColors: agents.map((a) => agentColor(a)) } : request;
}

// ── What the operation children tell the workspace ──────────────────────────

/** The editor saved or deleted its agent. */
export type EditorParentEvent =
  | { type: 'editor.saved'; mode: 'create' | 'edit'; agent: Agent }
  | { type: 'editor.deleted'; agentId: string };

/** A positionSave placed an off-board move at its fallback place (drawn there while it is saved). */
export type PositionPlacedEvent = { type: 'position.placed' } & PendingMove;

/** A connectionCreate's connection was made by the server. */
export type ConnectionCreatedEvent = { type: 'connection.created'; edge: Edge };

/** An agentDeletion's agent was deleted by the server. */
export type AgentDeletedEvent = { type: 'agent.deleted'; agentId: string };

// ── What the views send ─────────────────────────────────────────────────────

export type CanvasEvent =
  | { type: 'editor.open'; request: EditorInput }
  | { type: 'editor.dismiss' }
  | { type: 'agent.moved'; agentId: string; x: number; y: number }
  /** The canvas was panned or zoomed: the middle of its visible part, in board coordinates. */
  | { type: 'canvas.viewCentre'; x: number; y: number; area?: ViewArea }
  /** Lay every agent out by its connections and save the positions that changed. */
  | { type: 'canvas.autoLayout' }
  | { type: 'connection.create'; from: string; to: string }
  | { type: 'connections.delete'; ids: string[] }
  | { type: 'connections.autoConnect' }
  | { type: 'agent.delete.request'; agentId: string }
  | { type: 'agent.delete.confirm' }
  | { type: 'agent.delete.cancel' }
  | BannerShowEvent
  | { type: 'banner.dismiss' };

export type WorkspaceEvent =
  | { type: 'live.frame'; frame: LiveServerFrame }
  /** /ws/updates came back after a drop: whatever changed meanwhile was missed, so both lists reload. */
  | { type: 'live.resync' }
  | { type: 'selection.toggle'; id: string }
  | { type: 'selection.clear' }
  /** History shows a stored discussion's positions on the canvas (null: back to the panel's). */
  | { type: 'discussion.positionsShow'; positions: Readonly<Record<string, AgentPositionMark>> | null }
  /** The selection becomes these agents (those still on the canvas), in this order: History's 'Continue from here'. */
  | { type: 'selection.set'; ids: string[] }
  | { type: 'agents.reload' }
  | { type: 'connections.reload' }
  /** A discussion panel relays an agent's status (agent_status frames, speech start and end). */
  | { type: 'discussion.agentStatus'; agentId: string; status: string }
  /** A discussion ended or was stopped: every agent is idle again and nobody holds the floor. */
  | { type: 'discussion.statusesReset' }
  /** A turn's final frame named the option its agent now holds. */
  | { type: 'discussion.agentPosition'; agentId: string; label: string; slot: number }
  /** A new discussion starts: nobody holds a position yet. */
  | { type: 'discussion.positionsReset' }
  | CanvasEvent
  | EditorParentEvent
  | PositionPlacedEvent
  | ConnectionCreatedEvent
  | AgentDeletedEvent;
