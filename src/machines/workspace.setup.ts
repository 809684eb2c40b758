// The workspace chart's vocabulary (the chart itself: workspace.machine.ts): the loads and the canvas operations it
// may start, the banner's lifetime, the guards it asks and the actions that change what the canvas draws. The
// actions only apply the pure reducers of model/workspaceReducers.ts; when they run is the chart's business.
import { assertEvent, assign, enqueueActions, fromPromise, setup } from 'xstate';
import type { Agent } from '../schemas/agents';
import type { Edge } from '../schemas/connections';
import type { MonitorStats } from '../schemas/system';
import { SUCCESS_BANNER_MS } from '../schemas/constants';
import { notProvided, notifyToasts } from './kit/actorKit';
import type { BannerRequest } from '../model/bannerRequest';
import { autoLayoutMoves } from '../shared/canvasPlacement';
import * as reduce from '../model/workspaceReducers';
import type { EditorInput, WorkspaceContext, WorkspaceEvent } from '../model/workspaceTypes';
import { agentDeletionMachine } from './agentDeletion.machine';
import { autoConnectMachine } from './autoConnect.machine';
import { connectionCreateMachine } from './connectionCreate.machine';
import { connectionDeleteMachine } from './connectionDelete.machine';
import { positionSaveMachine } from './positionSave.machine';
import { editorMachine } from './editor.machine';

const isKnown = (agents: Agent[], id: string) => agents.some((a) => a.id === id);

export const workspaceSetup = setup({
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
    setViewCentre: assign(({ context, event }) => {
      assertEvent(event, 'canvas.viewCentre');
      return { viewCentre: { x: event.x, y: event.y }, viewArea: event.area ?? context.viewArea };
    }),
    /** Only agents on the canvas, each once. */
    setSelection: assign(({ context, event }) => {
      assertEvent(event, 'selection.set');
      return { selectedIds: [...new Set(event.ids)].filter((id) => isKnown(context.agents, id)) };
    }),
    setPosition: assign(({ context, event }) => {
      assertEvent(event, 'discussion.agentPosition');
      return { positions: { ...context.positions, [event.agentId]: { label: event.label, slot: event.slot } } };
    }),
    queueAutoLayout: assign(({ context }) =>
      reduce.withMoves(
        context,
        autoLayoutMoves(context.agents, context.edges, context.viewCentre ?? undefined, context.viewArea ?? undefined),
      ),
    ),
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
});
