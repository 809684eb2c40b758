// What the canvas draws (docs/product.md#workspace-screens 'Agent canvas', #workspace-states): the user's agents, their
// connections, the selection, runtime statuses and the active speaker, kept current by live-update frames.
// Regions: the agents and connections loads (the stats load is an optional invoke beside them), one region per canvas
// operation, and the canvas banner. Each operation is its own child machine, one per request (as comlink spawns one
// per request): the region only says whether one is under way and starts it; the child owns its steps and tells the
// workspace what changed. The operations, one by one: docs/architecture.md#canvas-operations.
import {
  assertEvent,
  assign,
  enqueueActions,
  forwardTo,
  fromPromise,
  raise,
  setup,
  type ActorRefFrom,
  type SnapshotFrom,
} from 'xstate';
import type { Agent } from '../schemas/agents';
import type { Edge } from '../schemas/connections';
import { CANVAS_MESSAGES, SHELL_MESSAGES } from '../schemas/messages';
import type { MonitorStats } from '../schemas/system';
import { SUCCESS_BANNER_MS } from '../schemas/constants';
import { notProvided, notifyToasts } from './kit/actorKit';
import { bannerError, type BannerRequest } from '../model/bannerRequest';
import { agentColor } from '../model/agentIdentity';
import { autoLayoutMoves } from '../shared/canvasPlacement';
import * as reduce from '../model/workspaceReducers';
import {
  initialWorkspaceContext,
  withPlace,
  type EditorInput,
  type WorkspaceContext,
  type WorkspaceEvent,
} from '../model/workspaceTypes';
import { agentDeletionMachine } from './agentDeletion.machine';
import { autoConnectMachine } from './autoConnect.machine';
import { connectionCreateMachine } from './connectionCreate.machine';
import { connectionDeleteMachine } from './connectionDelete.machine';
import { positionSaveMachine } from './positionSave.machine';
import { editorMachine } from './editor.machine';

const isKnown = (agents: Agent[], id: string) => agents.some((a) => a.id === id);

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
    isKnownAgent: ({ context, event }) => {
      assertEvent(event, 'selection.toggle');
      return isKnown(context.agents, event.id);
    },
    hasPendingMove: ({ context }) => context.pendingMoves.length > 0,
    haveBothEnds: ({ context, event }) => {
      assertEvent(event, 'connection.create');
      return isKnown(context.agents, event.from) && isKnown(context.agents, event.to);
    },
    isDeletableAgent: ({ context, event }) => {
      assertEvent(event, 'agent.delete.request');
      return isKnown(context.agents, event.agentId);
    },
    isSuccessBanner: ({ event }) => {
      assertEvent(event, 'banner.show');
      return event.kind === 'success';
    },
  },
  actions: {
    applyFrame: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'live.frame');
      const { changes, reloadConnections } = reduce.applyLiveFrame(context, event.frame);
      if (changes) enqueue.assign(changes);
      if (reloadConnections) enqueue.raise({ type: 'connections.reload' });
    }),
    rememberEditorRequest: assign({ editorRequest: (_, params: { request: EditorInput }) => params.request }),
    showBanner: assign({ banner: (_, params: BannerRequest) => ({ kind: params.kind, text: params.text }) }),
    /** The agent is gone: its node, edges, selection and status with it; the server's list follows. */
    dropAgent: enqueueActions(({ context, enqueue }, params: { agentId: string }) => {
      enqueue.assign(reduce.withoutAgent(context, params.agentId));
      enqueue.raise({ type: 'agents.reload' });
    }),
    /** An agent deleted elsewhere (a frame, the canvas's own delete) takes the editor open on it along. */
    closeEditorOf: enqueueActions(({ context, enqueue }, params: { agentId: string | null }) => {
      const r = context.editorRequest;
      if (r && r.mode === 'edit' && r.agentId === params.agentId) enqueue.raise({ type: 'editor.dismiss' });
    }),
    notify: enqueueActions(notifyToasts),
  },
}).createMachine({
  id: 'workspace',
  type: 'parallel',
  context: initialWorkspaceContext,
  // /monitor/stats is optional. A failure must still be handled here: an unhandled child error stops the chart.
  invoke: {
    src: 'loadStats',
    onDone: { actions: assign({ stats: ({ event }) => event.output }) },
    onError: { description: 'the stats stay unknown' },
  },
  on: {
    'canvas.viewCentre': {
      actions: assign({
        viewCentre: ({ event }) => ({ x: event.x, y: event.y }),
        viewArea: ({ context, event }) => event.area ?? context.viewArea,
      }),
    },
    'live.frame': {
      actions: [
        'applyFrame',
        {
          type: 'closeEditorOf',
          params: ({ event }) => ({ agentId: event.frame.type === 'agent_deleted' ? event.frame.agent_id : null }),
        },
      ],
    },
    'selection.toggle': {
      guard: 'isKnownAgent',
      actions: assign({ selectedIds: ({ context, event }) => reduce.toggled(context.selectedIds, event.id) }),
    },
    'selection.clear': { actions: assign({ selectedIds: [] }) },
    'selection.set': {
      actions: assign({
        selectedIds: ({ context, event }) => [...new Set(event.ids)].filter((id) => isKnown(context.agents, id)),
      }),
    },
    'discussion.agentStatus': {
      actions: assign(({ context, event }) => reduce.withStatus(context, event.agentId, event.status)),
    },
    'discussion.statusesReset': { actions: assign({ statuses: {} }) },
    'discussion.agentPosition': {
      actions: assign({
        positions: ({ context, event }) => ({
          ...context.positions,
          [event.agentId]: { label: event.label, slot: event.slot },
        }),
      }),
    },
    'discussion.positionsReset': { actions: assign({ positions: {} }) },
    'discussion.positionsShow': { actions: assign({ shownPositions: ({ event }) => event.positions }) },
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
              actions: assign(({ context, event }) => ({
                ...reduce.withLoadedAgents(context, event.output),
                loadError: null,
              })),
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
            onError: {
              target: 'failed',
              actions: { type: 'notify', params: { kind: 'error', text: SHELL_MESSAGES.loadConnectionsFailed } },
            },
          },
        },
        loaded: {},
        failed: {},
      },
    },

    // ── Canvas operations ────────────────────────────────────────────────────
    editor: {
      initial: 'closed',
      on: {
        'editor.open': {
          target: '.open',
          actions: {
            type: 'rememberEditorRequest',
            params: ({ context, event }) => ({ request: withPlace(event.request, context.agents, context.viewCentre) }),
          },
        },
        'editor.saved': {
          actions: [
            assign({ agents: ({ context, event }) => reduce.upsert(context.agents, event.agent) }),
            raise({ type: 'agents.reload' }),
          ],
        },
        'editor.deleted': { actions: { type: 'dropAgent', params: ({ event }) => event } },
      },
      states: {
        closed: {},
        open: {
          invoke: {
            id: 'editor',
            systemId: 'editor',
            src: 'editor',
            // A new agent's automatic colour avoids the ones the canvas's agents already wear.
            input: ({ context }) => {
              const request = context.editorRequest!;
              return request.mode === 'create'
                ? { ...request, takenColors: context.agents.map((a) => agentColor(a)) }
                : request;
            },
            onDone: { target: 'closed', actions: assign({ editorRequest: null }) },
          },
          on: { 'editor.dismiss': { target: 'closed', actions: assign({ editorRequest: null }) } },
        },
      },
    },

    // The queue of moves, saved one at a time.
    positions: {
      initial: 'idle',
      on: {
        'agent.moved': {
          actions: assign(({ context, event }) =>
            reduce.withMoves(context, [{ agentId: event.agentId, x: event.x, y: event.y }]),
          ),
        },
        'canvas.autoLayout': {
          actions: assign(({ context }) =>
            reduce.withMoves(
              context,
              autoLayoutMoves(
                context.agents,
                context.edges,
                context.viewCentre ?? undefined,
                context.viewArea ?? undefined,
              ),
            ),
          ),
        },
        'position.placed': {
          actions: assign(({ context, event }) =>
            reduce.withPlacedMove(context, { agentId: event.agentId, x: event.x, y: event.y }),
          ),
        },
      },
      states: {
        idle: { always: { guard: 'hasPendingMove', target: 'saving' } },
        saving: {
          invoke: {
            src: 'positionSave',
            input: ({ context, self }) => ({ ...context.pendingMoves[0], parent: self }),
            onDone: {
              target: 'idle',
              actions: assign({ pendingMoves: ({ context }) => context.pendingMoves.slice(1) }),
            },
          },
        },
      },
    },

    // A newer request replaces one under way (re-entering restarts the child).
    connecting: {
      initial: 'idle',
      on: {
        'connection.create': [
          { guard: 'haveBothEnds', target: '.creating' },
          { actions: raise(bannerError(CANVAS_MESSAGES.invalidConnection)) },
        ],
        'connection.created': {
          actions: [
            assign({ edges: ({ context, event }) => reduce.withEdge(context.edges, event.edge) }),
            raise({ type: 'connections.reload' }),
          ],
        },
      },
      states: {
        idle: {},
        creating: {
          invoke: {
            src: 'connectionCreate',
            input: ({ event, self }) => {
              assertEvent(event, 'connection.create');
              return { ...event, parent: self };
            },
            onDone: 'idle',
          },
        },
      },
    },

    // The edges leave the canvas at once; the child has the connections reloaded either way.
    disconnecting: {
      initial: 'idle',
      on: {
        'connections.delete': {
          target: '.deleting',
          actions: assign({ edges: ({ context, event }) => context.edges.filter((e) => !event.ids.includes(e.id)) }),
        },
      },
      states: {
        idle: {},
        deleting: {
          invoke: {
            src: 'connectionDelete',
            input: ({ event, self }) => {
              assertEvent(event, 'connections.delete');
              return { connectionIds: event.ids, parent: self };
            },
            onDone: 'idle',
          },
        },
      },
    },

    autoConnect: {
      initial: 'idle',
      states: {
        idle: { on: { 'connections.autoConnect': 'running' } },
        running: { invoke: { src: 'autoConnect', input: ({ self }) => ({ parent: self }), onDone: 'idle' } },
      },
    },

    // The agentDeletion child is named, so the confirmation view finds it and the answer reaches it.
    deletion: {
      initial: 'idle',
      on: {
        'agent.deleted': {
          actions: [
            { type: 'closeEditorOf', params: ({ event }) => event },
            { type: 'dropAgent', params: ({ event }) => event },
          ],
        },
      },
      states: {
        idle: {
          on: { 'agent.delete.request': { guard: 'isDeletableAgent', target: 'running' } },
        },
        running: {
          invoke: {
            id: 'agentDeletion',
            src: 'agentDeletion',
            input: ({ context, event, self }) => {
              assertEvent(event, 'agent.delete.request');
              const { agentId } = event;
              return { agentId, name: context.agents.find((a) => a.id === agentId)!.name, parent: self };
            },
            onDone: 'idle',
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
          {
            guard: 'isSuccessBanner',
            target: '.success',
            actions: { type: 'showBanner', params: ({ event }) => event },
          },
          { target: '.error', actions: { type: 'showBanner', params: ({ event }) => event } },
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

declare module './kit/systemRegistry' {
  interface SystemActors {
    workspace: ActorRefFrom<typeof workspaceMachine>;
  }
}
