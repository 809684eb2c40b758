// What the canvas draws (part 1 §2 'Agent canvas', §4): the user's agents, their connections, the selection,
// runtime statuses and the active speaker. Three loads run side by side when the workspace starts:
//   agents       — /agents/ ('Failed to load data. Please refresh the page.' when it fails)
//   connections  — /connections/ (toast 'Failed to load agent connections'); reloaded on every connection change
//   stats        — /monitor/stats (optional: a failure is tolerated)
// Live-update frames ('live.frame', forwarded by liveUpdates) keep the data current.
import { assign, enqueueActions, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { Agent } from '../schemas/agents';
import type { Edge } from '../schemas/connections';
import type { LiveServerFrame } from '../schemas/liveUpdates';
import { CANVAS_MESSAGES, SHELL_MESSAGES } from '../schemas/messages';
import type { MonitorStats } from '../schemas/system';
import type { ToastRequest } from './toastRequest';

export interface WorkspaceContext {
  agents: Agent[];
  edges: Edge[];
  selectedIds: string[];
  /** Runtime status per agent id, as the sockets report it (idle when absent). */
  statuses: Record<string, string>;
  activeSpeakerId: string | null;
  stats: MonitorStats | null;
  loadError: string | null;
}

export type WorkspaceEvent =
  | { type: 'live.frame'; frame: LiveServerFrame }
  | { type: 'selection.toggle'; id: string }
  | { type: 'selection.clear' }
  | { type: 'agents.reload' }
  | { type: 'connections.reload' };

/** Statuses in which an agent holds the floor. */
const SPEAKING_STATUSES = new Set(['speaking', 'responding']);

function withStatus(context: WorkspaceContext, id: string, status: string): Partial<WorkspaceContext> {
  const speaking = SPEAKING_STATUSES.has(status);
  return {
    statuses: { ...context.statuses, [id]: status },
    activeSpeakerId: speaking ? id : context.activeSpeakerId === id ? null : context.activeSpeakerId,
  };
}

function withoutAgent(context: WorkspaceContext, id: string): Partial<WorkspaceContext> {
  const { [id]: _gone, ...statuses } = context.statuses;
  return {
    agents: context.agents.filter((a) => a.id !== id),
    edges: context.edges.filter((e) => e.source !== id && e.target !== id),
    selectedIds: context.selectedIds.filter((s) => s !== id),
    statuses,
    activeSpeakerId: context.activeSpeakerId === id ? null : context.activeSpeakerId,
  };
}

/** Adds the agent, or replaces the one with its id (a frame may repeat what a load already brought). */
const upsert = (agents: Agent[], agent: Agent) =>
  agents.some((a) => a.id === agent.id) ? agents.map((a) => (a.id === agent.id ? agent : a)) : [...agents, agent];

export const workspaceMachine = setup({
  types: {
    context: {} as WorkspaceContext,
    events: {} as WorkspaceEvent,
  },
  actors: {
    loadAgents: fromPromise<Agent[]>(async () => {
      throw new Error('loadAgents is provided by the composition root');
    }),
    loadConnections: fromPromise<Edge[]>(async () => {
      throw new Error('loadConnections is provided by the composition root');
    }),
    loadStats: fromPromise<MonitorStats>(async () => {
      throw new Error('loadStats is provided by the composition root');
    }),
  },
  guards: {
    isKnownAgent: ({ context, event }) => event.type === 'selection.toggle' && context.agents.some((a) => a.id === event.id),
  },
  actions: {
    applyFrame: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'live.frame') return;
      const frame = event.frame;
      switch (frame.type) {
        case 'agent_created':
        case 'agent_updated':
          enqueue.assign({ agents: upsert(context.agents, frame.agent) });
          return;
        case 'agent_deleted':
          enqueue.assign(withoutAgent(context, frame.agent_id));
          return;
        case 'connection_created':
        case 'connection_deleted':
          enqueue.raise({ type: 'connections.reload' });
          return;
        case 'agent_status_update':
          enqueue.assign(withStatus(context, frame.agent_id, frame.status));
          return;
        case 'system_update': {
          let next: WorkspaceContext = context;
          for (const a of frame.agents) next = { ...next, ...withStatus(next, a.id, a.status) };
          enqueue.assign({ statuses: next.statuses, activeSpeakerId: next.activeSpeakerId });
          return;
        }
        case 'stats':
          enqueue.assign({ stats: frame.stats });
          return;
        default:
          // 'connected', 'pong' and anything later added to the protocol: nothing to draw.
          return;
      }
    }),
    toggleSelection: assign({
      selectedIds: ({ context, event }) => {
        if (event.type !== 'selection.toggle') return context.selectedIds;
        return context.selectedIds.includes(event.id) ? context.selectedIds.filter((s) => s !== event.id) : [...context.selectedIds, event.id];
      },
    }),
    clearSelection: assign({ selectedIds: [] }),
    notify: enqueueActions(({ system, enqueue }, params: ToastRequest) => {
      const toasts = system.get('toasts');
      if (toasts) enqueue.sendTo(toasts, { type: 'toast.show', ...params });
    }),
  },
}).createMachine({
  id: 'workspace',
  type: 'parallel',
  context: { agents: [], edges: [], selectedIds: [], statuses: {}, activeSpeakerId: null, stats: null, loadError: null },
  on: {
    'live.frame': { actions: 'applyFrame' },
    'selection.toggle': { guard: 'isKnownAgent', actions: 'toggleSelection' },
    'selection.clear': { actions: 'clearSelection' },
  },
  states: {
    agents: {
      initial: 'loading',
      on: { 'agents.reload': { target: '.loading', reenter: true } },
      states: {
        loading: {
          invoke: {
            src: 'loadAgents',
            onDone: {
              target: 'loaded',
              actions: assign(({ context, event }) => {
                const ids = new Set(event.output.map((a) => a.id));
                return { agents: event.output, loadError: null, selectedIds: context.selectedIds.filter((s) => ids.has(s)) };
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
      on: { 'connections.reload': { target: '.loading', reenter: true } },
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
  },
});

export type WorkspaceActorRef = ActorRefFrom<typeof workspaceMachine>;
export type WorkspaceSnapshot = SnapshotFrom<typeof workspaceMachine>;
