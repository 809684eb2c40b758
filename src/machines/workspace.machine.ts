// What the canvas draws (part 1 §2 'Agent canvas', §4): the user's agents, their connections, the selection,
// runtime statuses and the active speaker. Three loads run side by side when the workspace starts:
//   agents       — /agents/ ('Failed to load data. Please refresh the page.' when it fails)
//   connections  — /connections/ (toast 'Failed to load agent connections'); reloaded on every connection change
//   stats        — /monitor/stats (optional: a failure is tolerated)
// Live-update frames ('live.frame', forwarded by liveUpdates) keep the data current.
// The canvas operations run in their own regions next to those (see the second half of the chart):
//   editor       — the agent editor drawer, invoked as the 'editor' child (systemId 'editor')
//   positions    — drag ends queued, each saved by one positionSave actor (out of 0..2000 → a random 100..500).
//                  The same path saves every position the 'Auto-layout' action sets (src/model/canvasPlacement.ts).
//                  A new agent is created in place: the editor's create carries the free grid cell nearest the
//                  middle of the view, so new agents never land on top of one another
//   connecting   — a drag from node to node → one connectionCreate actor ('Invalid connection…' when a node is gone)
//   disconnecting — deleted edges → one connectionDelete actor
//   autoConnect  — one autoConnect actor, then its 'Auto-connected: {n} connections created' banner
//   deletion     — one agentDeletion actor per request: count the agent's audio, confirm naming both, DELETE
//   banner       — the canvas's dismissible banner; a success hides itself after 3 s
import { assign, enqueueActions, forwardTo, fromPromise, raise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { Agent } from '../schemas/agents';
import type { Edge } from '../schemas/connections';
import type { LiveServerFrame } from '../schemas/liveUpdates';
import { CANVAS_MESSAGES, SHELL_MESSAGES } from '../schemas/messages';
import type { MonitorStats } from '../schemas/system';
import { SUCCESS_BANNER_MS } from '../schemas/constants';
import {
  agentDeleteMessage,
  autoConnectMessage,
  connectionCreateMessage,
  connectionDeleteMessage,
  positionSaveMessage,
} from '../model/agentFailures';
import { autoLayoutMoves, newAgentPlace, type Point } from '../model/canvasPlacement';
import { agentDeletionMachine } from './agentDeletion.machine';
import { autoConnectMachine, type AutoConnectOutput } from './autoConnect.machine';
import { connectionCreateMachine, type ConnectionCreateOutput } from './connectionCreate.machine';
import { connectionDeleteMachine } from './connectionDelete.machine';
import { positionSaveMachine, type PositionPlacedEvent } from './positionSave.machine';
import { editorMachine, type EditorInput, type EditorParentEvent } from './editor.machine';
import { applyLiveFrame, reconcileAgents, upsert, withMoves, withoutAgent, withPosition, withStatus, type PendingMove } from '../model/workspaceReducers';

export type { PendingMove };
import { notProvided, notifyToasts } from '../model/actorKit';

export interface WorkspaceContext {
  agents: Agent[];
  edges: Edge[];
  selectedIds: string[];
  /** Runtime status per agent id, as the sockets report it (idle when absent), newest last (see withStatus). */
  statuses: Record<string, string>;
  stats: MonitorStats | null;
  loadError: string | null;
  // ── Canvas operations ──
  /** What the canvas banner says; the `banner` region knows whether it is an error or a success. */
  banner: { kind: 'error' | 'success'; text: string } | null;
  /** Create, or edit which agent: the editor child's input. */
  editorRequest: EditorInput | null;
  /** Drag ends waiting to be saved, oldest first. */
  pendingMoves: PendingMove[];
  /** The connection being created. */
  pendingConnection: { from: string; to: string } | null;
  /** The connections being deleted. */
  deletingEdges: string[];
  /** The middle of what the canvas shows, in board coordinates (the view reports it): new agents go near it. */
  viewCentre: Point | null;
}

/** Where new agents go before the canvas has reported its view (the middle of the default view). */
export const DEFAULT_VIEW_CENTRE: Point = { x: 440, y: 300 };

export type CanvasEvent =
  | { type: 'editor.open'; request: EditorInput }
  | EditorParentEvent
  | { type: 'agent.moved'; agentId: string; x: number; y: number }
  /** The canvas was panned or zoomed: the middle of its visible part, in board coordinates. */
  | { type: 'canvas.viewCentre'; x: number; y: number }
  /** Lay every agent out by its connections and save the positions that changed. */
  | { type: 'canvas.autoLayout' }
  | { type: 'connection.create'; from: string; to: string }
  | { type: 'connections.delete'; ids: string[] }
  | { type: 'connections.autoConnect' }
  | { type: 'agent.delete.request'; agentId: string }
  | { type: 'agent.delete.confirm' }
  | { type: 'agent.delete.cancel' }
  | { type: 'banner.show'; kind: 'error' | 'success'; text: string }
  | { type: 'banner.dismiss' }
  | { type: 'editor.dismiss' }
  /** A positionSave child placed an off-board move at its fallback place. */
  | PositionPlacedEvent;

export type WorkspaceEvent =
  | { type: 'live.frame'; frame: LiveServerFrame }
  /** /ws/updates came back after a drop: whatever changed meanwhile was missed, so both lists reload. */
  | { type: 'live.resync' }
  | { type: 'selection.toggle'; id: string }
  | { type: 'selection.clear' }
  | { type: 'agents.reload' }
  | { type: 'connections.reload' }
  /** A discussion panel relays an agent's status (agent_status frames, speech start and end). */
  | { type: 'discussion.agentStatus'; agentId: string; status: string }
  /** A discussion ended or was stopped: every agent is idle again and nobody holds the floor. */
  | { type: 'discussion.statusesReset' }
  | CanvasEvent;

/** Why an operation child ended without success (its output says). */
const failureOf = (output: { ok: boolean; error?: unknown }) => (output.ok ? null : output.error);

export const workspaceMachine = setup({
  types: {
    context: {} as WorkspaceContext,
    events: {} as WorkspaceEvent,
  },
  actors: {
    loadAgents: fromPromise<Agent[]>(notProvided('workspace', 'loadAgents')),
    loadConnections: fromPromise<Edge[]>(notProvided('workspace', 'loadConnections')),
    loadStats: fromPromise<MonitorStats>(notProvided('workspace', 'loadStats')),
    // ── Canvas operations (real ones: src/services/canvasActors.ts) ──
    editor: editorMachine,
    positionSave: positionSaveMachine,
    connectionCreate: connectionCreateMachine,
    connectionDelete: connectionDeleteMachine,
    autoConnect: autoConnectMachine,
    agentDeletion: agentDeletionMachine,
  },
  delays: {
    successBannerLifetime: SUCCESS_BANNER_MS,
  },
  guards: {
    isKnownAgent: ({ context, event }) => event.type === 'selection.toggle' && context.agents.some((a) => a.id === event.id),
    hasPendingMove: ({ context }) => context.pendingMoves.length > 0,
    haveBothEnds: ({ context, event }) =>
      event.type === 'connection.create' &&
      context.agents.some((a) => a.id === event.from) &&
      context.agents.some((a) => a.id === event.to),
    isDeletableAgent: ({ context, event }) => event.type === 'agent.delete.request' && context.agents.some((a) => a.id === event.agentId),
    isSuccessBanner: ({ event }) => event.type === 'banner.show' && event.kind === 'success',
  },
  actions: {
    applyFrame: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'live.frame') return;
      const { changes, reloadConnections } = applyLiveFrame(context, event.frame);
      if (changes) enqueue.assign(changes);
      if (reloadConnections) enqueue.raise({ type: 'connections.reload' });
    }),
    toggleSelection: assign({
      selectedIds: ({ context, event }) => {
        if (event.type !== 'selection.toggle') return context.selectedIds;
        return context.selectedIds.includes(event.id) ? context.selectedIds.filter((s) => s !== event.id) : [...context.selectedIds, event.id];
      },
    }),
    clearSelection: assign({ selectedIds: [] }),
    queueMove: assign(({ context, event }) => {
      if (event.type !== 'agent.moved') return {};
      return withMoves(context, [{ agentId: event.agentId, x: event.x, y: event.y }]);
    }),
    /** The editor's request; a create carries the free grid cell nearest the middle of the view. */
    rememberEditorRequest: assign({
      editorRequest: ({ context, event }) => {
        if (event.type !== 'editor.open') return context.editorRequest;
        if (event.request.mode !== 'create' || event.request.position) return event.request;
        return { ...event.request, position: newAgentPlace(context.agents, context.viewCentre ?? DEFAULT_VIEW_CENTRE) };
      },
    }),
    queueAutoLayout: assign(({ context }) => withMoves(context, autoLayoutMoves(context.agents, context.edges))),
    setViewCentre: assign({
      viewCentre: ({ context, event }) => (event.type === 'canvas.viewCentre' ? { x: event.x, y: event.y } : context.viewCentre),
    }),
    dropSavedMove: assign({ pendingMoves: ({ context }) => context.pendingMoves.slice(1) }),
    showBanner: raise((_, params: { kind: 'error' | 'success'; text: string }) => ({ type: 'banner.show' as const, ...params })),
    closeEditorOf: enqueueActions(({ context, enqueue }, params: { agentId: string }) => {
      const r = context.editorRequest;
      if (r && r.mode === 'edit' && r.agentId === params.agentId) enqueue.raise({ type: 'editor.dismiss' });
    }),
    closeEditorOfDeletedAgent: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'live.frame' || event.frame.type !== 'agent_deleted') return;
      const r = context.editorRequest;
      if (r && r.mode === 'edit' && r.agentId === event.frame.agent_id) enqueue.raise({ type: 'editor.dismiss' });
    }),
    notify: enqueueActions(notifyToasts),
  },
}).createMachine({
  id: 'workspace',
  type: 'parallel',
  context: {
    agents: [],
    edges: [],
    selectedIds: [],
    statuses: {},
    stats: null,
    loadError: null,
    banner: null,
    editorRequest: null,
    pendingMoves: [],
    pendingConnection: null,
    deletingEdges: [],
    viewCentre: null,
  },
  on: {
    'canvas.viewCentre': { actions: 'setViewCentre' },
    'live.frame': { actions: ['applyFrame', 'closeEditorOfDeletedAgent'] },
    'selection.toggle': { guard: 'isKnownAgent', actions: 'toggleSelection' },
    'selection.clear': { actions: 'clearSelection' },
    'discussion.agentStatus': { actions: assign(({ context, event }) => withStatus(context, event.agentId, event.status)) },
    'discussion.statusesReset': { actions: assign({ statuses: {} }) },
    'live.resync': { actions: [raise({ type: 'agents.reload' }), raise({ type: 'connections.reload' })] },
  },
  states: {
    agents: {
      initial: 'loading',
      // Targeting the child from the region re-enters only the child (the load restarts). `reenter: true` here
      // would exit the region itself and, with it, every sibling region of this parallel chart.
      on: { 'agents.reload': { target: '.loading' } },
      states: {
        loading: {
          invoke: {
            src: 'loadAgents',
            onDone: {
              target: 'loaded',
              actions: assign(({ context, event }) => {
                const ids = new Set(event.output.map((a) => a.id));
                return {
                  agents: reconcileAgents(context.agents, event.output),
                  loadError: null,
                  selectedIds: context.selectedIds.filter((s) => ids.has(s)),
                };
              }),
            },
            onError: { target: 'failed', actions: assign({ loadError: CANVAS_MESSAGES.loadFailed }) },
          },
        },
        loaded: {},
        failed: {},
      },
    },
    connections: {
      initial: 'loading',
      // A newer change supersedes a reload in flight: re-entering restarts the load.
      on: { 'connections.reload': { target: '.loading' } },
      states: {
        loading: {
          invoke: {
            src: 'loadConnections',
            onDone: { target: 'loaded', actions: assign({ edges: ({ event }) => event.output }) },
            onError: { target: 'failed', actions: { type: 'notify', params: { kind: 'error', text: SHELL_MESSAGES.loadConnectionsFailed } } },
          },
        },
        loaded: {},
        failed: {},
      },
    },
    stats: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'loadStats',
            onDone: { target: 'loaded', actions: assign({ stats: ({ event }) => event.output }) },
            onError: 'unavailable',
          },
        },
        loaded: {},
        unavailable: {},
      },
    },

    // ── Canvas operations ────────────────────────────────────────────────────
    editor: {
      initial: 'closed',
      on: {
        'editor.open': { target: '.open', actions: 'rememberEditorRequest' },
        'editor.saved': {
          actions: [
            assign({ agents: ({ context, event }) => upsert(context.agents, event.agent) }),
            raise({ type: 'agents.reload' }),
          ],
        },
        'editor.deleted': {
          actions: [assign(({ context, event }) => withoutAgent(context, event.agentId)), raise({ type: 'agents.reload' })],
        },
      },
      states: {
        closed: {},
        open: {
          invoke: {
            id: 'editor',
            systemId: 'editor',
            src: 'editor',
            input: ({ context }) => context.editorRequest!,
            onDone: { target: 'closed', actions: assign({ editorRequest: null }) },
          },
          on: { 'editor.dismiss': { target: 'closed', actions: assign({ editorRequest: null }) } },
        },
      },
    },

    // The queue of drag ends; each is saved by its own positionSave actor, one at a time.
    positions: {
      initial: 'idle',
      on: {
        'agent.moved': { actions: 'queueMove' },
        'canvas.autoLayout': { actions: 'queueAutoLayout' },
        // Off the board: drawn at the fallback place the positionSave picked while it is saved there.
        'position.placed': {
          actions: assign(({ context, event }) => {
            const [head, ...rest] = context.pendingMoves;
            if (!head || head.agentId !== event.agentId) return {};
            const placed = { agentId: event.agentId, x: event.x, y: event.y };
            return { pendingMoves: [placed, ...rest], agents: withPosition(context.agents, placed.agentId, placed.x, placed.y) };
          }),
        },
      },
      states: {
        idle: {
          always: { guard: 'hasPendingMove', target: 'saving' },
        },
        saving: {
          invoke: {
            src: 'positionSave',
            input: ({ context }) => context.pendingMoves[0],
            onDone: [
              { guard: ({ event }) => event.output.ok || failureOf(event.output) === null, target: 'idle', actions: 'dropSavedMove' },
              {
                target: 'idle',
                actions: ['dropSavedMove', { type: 'showBanner', params: ({ event }) => ({ kind: 'error', text: positionSaveMessage(failureOf(event.output)) }) }],
              },
            ],
          },
        },
      },
    },

    connecting: {
      initial: 'idle',
      on: {
        'connection.create': [
          {
            guard: 'haveBothEnds',
            target: '.creating',
            actions: assign({ pendingConnection: ({ event }) => ({ from: event.from, to: event.to }) }),
          },
          { actions: { type: 'showBanner', params: { kind: 'error', text: CANVAS_MESSAGES.invalidConnection } } },
        ],
      },
      states: {
        idle: {},
        creating: {
          invoke: {
            src: 'connectionCreate',
            input: ({ context }) => context.pendingConnection!,
            onDone: [
              {
                guard: ({ event }) => event.output.ok,
                target: 'idle',
                actions: [
                  assign(({ context, event }) => {
                    const edge = (event.output as Extract<ConnectionCreateOutput, { ok: true }>).edge;
                    return { pendingConnection: null, edges: context.edges.some((e) => e.id === edge.id) ? context.edges : [...context.edges, edge] };
                  }),
                  raise({ type: 'connections.reload' }),
                ],
              },
              {
                target: 'idle',
                actions: [
                  assign({ pendingConnection: null }),
                  { type: 'showBanner', params: ({ event }) => ({ kind: 'error', text: connectionCreateMessage(failureOf(event.output)) }) },
                ],
              },
            ],
          },
        },
      },
    },

    disconnecting: {
      initial: 'idle',
      on: {
        'connections.delete': {
          target: '.deleting',
          actions: assign(({ context, event }) => ({
            deletingEdges: event.ids,
            edges: context.edges.filter((e) => !event.ids.includes(e.id)),
          })),
        },
      },
      states: {
        idle: {},
        deleting: {
          invoke: {
            src: 'connectionDelete',
            input: ({ context }) => ({ connectionIds: context.deletingEdges }),
            onDone: [
              { guard: ({ event }) => event.output.ok, target: 'idle', actions: [assign({ deletingEdges: [] }), raise({ type: 'connections.reload' })] },
              {
                target: 'idle',
                actions: [
                  assign({ deletingEdges: [] }),
                  { type: 'showBanner', params: ({ event }) => ({ kind: 'error', text: connectionDeleteMessage(failureOf(event.output)) }) },
                  raise({ type: 'connections.reload' }),
                ],
              },
            ],
          },
        },
      },
    },

    autoConnect: {
      initial: 'idle',
      states: {
        idle: { on: { 'connections.autoConnect': 'running' } },
        running: {
          invoke: {
            src: 'autoConnect',
            onDone: [
              {
                guard: ({ event }) => event.output.ok,
                target: 'idle',
                actions: [
                  {
                    type: 'showBanner',
                    params: ({ event }) => ({ kind: 'success', text: CANVAS_MESSAGES.autoConnected((event.output as Extract<AutoConnectOutput, { ok: true }>).created) }),
                  },
                  raise({ type: 'connections.reload' }),
                ],
              },
              { target: 'idle', actions: { type: 'showBanner', params: ({ event }) => ({ kind: 'error', text: autoConnectMessage(failureOf(event.output)) }) } },
            ],
          },
        },
      },
    },

    // One agentDeletion actor per request (agentDeletion.machine.ts); the workspace applies how it ended.
    deletion: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'agent.delete.request': { guard: 'isDeletableAgent', target: 'running' } },
        },
        running: {
          invoke: {
            id: 'agentDeletion',
            src: 'agentDeletion',
            input: ({ context, event }) => {
              const agentId = (event as Extract<WorkspaceEvent, { type: 'agent.delete.request' }>).agentId;
              return { agentId, name: context.agents.find((a) => a.id === agentId)!.name };
            },
            onDone: [
              {
                guard: ({ event }) => event.output.outcome === 'deleted',
                target: 'idle',
                actions: [
                  { type: 'closeEditorOf', params: ({ event }) => ({ agentId: event.output.agentId }) },
                  assign(({ context, event }) => withoutAgent(context, event.output.agentId)),
                  raise({ type: 'agents.reload' }),
                ],
              },
              {
                guard: ({ event }) => event.output.outcome === 'failed',
                target: 'idle',
                actions: { type: 'showBanner', params: ({ event }) => ({ kind: 'error', text: agentDeleteMessage(event.output.error) }) },
              },
              { target: 'idle' },
            ],
          },
          on: {
            'agent.delete.confirm': { actions: forwardTo('agentDeletion') },
            'agent.delete.cancel': { actions: forwardTo('agentDeletion') },
          },
        },
      },
    },

    banner: {
      initial: 'hidden',
      on: {
        'banner.show': [
          { guard: 'isSuccessBanner', target: '.success', actions: assign({ banner: ({ event }) => ({ kind: event.kind, text: event.text }) }) },
          { target: '.error', actions: assign({ banner: ({ event }) => ({ kind: event.kind, text: event.text }) }) },
        ],
        'banner.dismiss': { target: '.hidden', actions: assign({ banner: null, loadError: null }) },
      },
      states: {
        hidden: {},
        error: {},
        success: {
          after: { successBannerLifetime: { target: 'hidden', actions: assign({ banner: null }) } },
        },
      },
    },
  },
});

export type WorkspaceActorRef = ActorRefFrom<typeof workspaceMachine>;
export type WorkspaceSnapshot = SnapshotFrom<typeof workspaceMachine>;
