// What the canvas draws (docs/product.md#workspace-screens 'Agent canvas', #workspace-states): the user's agents, their
// connections, the selection, runtime statuses and the active speaker, kept current by live-update frames.
// Regions: the agents and connections loads (the stats load is an optional invoke beside them), one region per canvas
// operation, and the canvas banner. Each operation is its own child machine, one per request (as comlink spawns one
// per request): the region only says whether one is under way and starts it; the child owns its steps and tells the
// workspace what changed. The operations, one by one: docs/architecture.md#canvas-operations.
import { assertEvent, assign, forwardTo, raise, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { CANVAS_MESSAGES, SHELL_MESSAGES } from '../schemas/messages';
import { bannerError } from '../model/bannerRequest';
import * as reduce from '../model/workspaceReducers';
import { editorInputOf, initialWorkspaceContext, withPlace } from '../model/workspaceTypes';
import { workspaceSetup } from './workspace.setup';

export const workspaceMachine = workspaceSetup.createMachine({
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
    'canvas.viewCentre': { actions: 'setViewCentre' },
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
    'selection.set': { actions: 'setSelection' },
    'discussion.agentStatus': {
      actions: assign(({ context, event }) => reduce.withStatus(context, event.agentId, event.status)),
    },
    'discussion.statusesReset': { actions: assign({ statuses: {} }) },
    'discussion.agentPosition': { actions: 'setPosition' },
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
            input: ({ context }) => editorInputOf(context.editorRequest!, context.agents),
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
        'canvas.autoLayout': { actions: 'queueAutoLayout' },
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
