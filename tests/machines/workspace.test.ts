import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { workspaceMachine, type WorkspaceActorRef } from '../../src/machines/workspace.machine';
import {
  selectPositions,
  selectActiveSpeaker,
  selectActiveSpeakerId,
  selectAgentCount,
  selectConnectionCount,
  selectSelectedCount,
} from '../../src/machines/workspace.selectors';
import type { Agent } from '../../src/schemas/agents';
import type { Edge } from '../../src/schemas/connections';
import type { LiveServerFrame } from '../../src/schemas/liveUpdates';
import { CANVAS_MESSAGES, SHELL_MESSAGES } from '../../src/schemas/messages';
import { flush, underParent } from '../support/harness';

const agent = (id: string, name = id): Agent => ({ id, name, role: 'Analyst' });

function start(
  opts: {
    agents?: () => Promise<Agent[]>;
    connections?: () => Promise<Edge[]>;
    stats?: () => Promise<{ agents?: number }>;
  } = {},
) {
  let connectionLoads = 0;
  let edges: Edge[] = [{ id: 'c1', source: 'a1', target: 'a2' }];
  const logic = workspaceMachine.provide({
    actors: {
      loadAgents: fromPromise(opts.agents ?? (async () => [agent('a1'), agent('a2'), agent('a3')])),
      loadConnections: fromPromise(async () => {
        connectionLoads++;
        return opts.connections ? opts.connections() : edges;
      }),
      loadStats: fromPromise(opts.stats ?? (async () => ({ agents: 3 }))),
    },
  });
  const h = underParent<WorkspaceActorRef>(logic, 'workspace');
  const frame = (f: LiveServerFrame) => h.child.send({ type: 'live.frame', frame: f });
  return {
    ...h,
    ws: h.child,
    frame,
    snap: () => h.child.getSnapshot(),
    connectionLoads: () => connectionLoads,
    setServerEdges: (e: Edge[]) => (edges = e),
  };
}

describe('workspace', () => {
  it('History shows a stored discussion’s positions over the panel’s, and clearing them brings the panel’s back', async () => {
    const t = start();
    await flush();
    t.ws.send({ type: 'discussion.agentPosition', agentId: 'a1', label: 'Live option', slot: 0 });
    const shown = { a1: { label: 'Stored option', slot: 2 }, a2: { label: 'Other', slot: 1 } };
    t.ws.send({ type: 'discussion.positionsShow', positions: shown });
    expect(selectPositions(t.snap())).toEqual(shown);
    t.ws.send({ type: 'discussion.positionsShow', positions: null });
    expect(selectPositions(t.snap())).toEqual({ a1: { label: 'Live option', slot: 0 } });
  });

  it('selection.set selects the agents still on the canvas, once each (Continue from here)', async () => {
    const t = start();
    await flush();
    t.ws.send({ type: 'selection.set', ids: ['a2', 'gone', 'a1', 'a2'] });
    expect(t.snap().context.selectedIds).toEqual(['a2', 'a1']);
  });

  it('loads agents, connections and stats when it starts', async () => {
    const t = start();
    await flush();
    const s = t.snap();
    expect(selectAgentCount(s)).toBe(3);
    expect(selectConnectionCount(s)).toBe(1);
    expect(s.context.stats).toEqual({ agents: 3 });
    expect(s.matches({ agents: 'loaded', connections: 'loaded' })).toBe(true);
  });

  it('tolerates a stats failure; a connections failure toasts; an agents failure shows the canvas message', async () => {
    const t = start({
      agents: () => Promise.reject(new Error('x')),
      connections: () => Promise.reject(new Error('y')),
      stats: () => Promise.reject(new Error('z')),
    });
    await flush();
    expect(t.snap().matches({ agents: 'failed', connections: 'failed' })).toBe(true);
    expect(t.snap().context.stats).toBeNull();
    expect(t.snap().context.loadError).toBe(CANVAS_MESSAGES.loadFailed);
    expect(t.toastTexts()).toEqual([`error: ${SHELL_MESSAGES.loadConnectionsFailed}`]);
  });

  it('applies agent frames: created adds, updated replaces, a repeat does not duplicate', async () => {
    const t = start();
    await flush();
    t.frame({ type: 'agent_created', agent: agent('a4', 'Dora') });
    t.frame({ type: 'agent_created', agent: agent('a4', 'Dora') });
    t.frame({ type: 'agent_updated', agent: agent('a1', 'Ada v2') });
    expect(t.snap().context.agents.map((a) => a.name)).toEqual(['Ada v2', 'a2', 'a3', 'Dora']);
  });

  it('agent_deleted removes the node, its edges, its selection and its status', async () => {
    const t = start();
    await flush();
    t.ws.send({ type: 'selection.toggle', id: 'a1' });
    t.ws.send({ type: 'selection.toggle', id: 'a3' });
    t.frame({ type: 'agent_status_update', agent_id: 'a1', status: 'speaking' });
    t.frame({ type: 'agent_deleted', agent_id: 'a1' });
    const c = t.snap().context;
    expect(c.agents.map((a) => a.id)).toEqual(['a2', 'a3']);
    expect(c.edges).toEqual([]);
    expect(c.selectedIds).toEqual(['a3']);
    expect(c.statuses).toEqual({});
    expect(selectActiveSpeakerId(t.snap())).toBeNull();
  });

  it('connection_created and connection_deleted reload the connections', async () => {
    const t = start();
    await flush();
    expect(t.connectionLoads()).toBe(1);
    t.setServerEdges([
      { id: 'c1', source: 'a1', target: 'a2' },
      { id: 'c2', source: 'a2', target: 'a3' },
    ]);
    t.frame({ type: 'connection_created', connection: { id: 'c2', from_agent_id: 'a2', to_agent_id: 'a3' } });
    await flush();
    expect(t.connectionLoads()).toBe(2);
    expect(selectConnectionCount(t.snap())).toBe(2);
    t.setServerEdges([{ id: 'c2', source: 'a2', target: 'a3' }]);
    t.frame({ type: 'connection_deleted', connection_id: 'c1' });
    await flush();
    expect(t.snap().context.edges).toEqual([{ id: 'c2', source: 'a2', target: 'a3' }]);
  });

  it('status frames set one or many statuses and follow the active speaker; stats are stored; others ignored', async () => {
    const t = start();
    await flush();
    t.frame({ type: 'agent_status_update', agent_id: 'a2', status: 'speaking', agent_name: 'a2' });
    expect(selectActiveSpeaker(t.snap())?.id).toBe('a2');
    t.frame({
      type: 'system_update',
      agents: [
        { id: 'a1', status: 'thinking' },
        { id: 'a2', status: 'idle' },
      ],
    });
    expect(t.snap().context.statuses).toEqual({ a1: 'thinking', a2: 'idle' });
    expect(selectActiveSpeakerId(t.snap())).toBeNull();
    t.frame({ type: 'stats', stats: { agents: 9 } });
    expect(t.snap().context.stats).toEqual({ agents: 9 });
    const before = t.snap().context;
    t.frame({ type: 'connected', channel: 'updates' });
    t.frame({ type: 'pong' });
    expect(t.snap().context).toEqual(before);
  });

  it('live.resync (after /ws/updates reconnects) reloads agents and connections', async () => {
    let agentsOnServer = [agent('a1')];
    const t = start({ agents: async () => agentsOnServer });
    await flush();
    expect(t.connectionLoads()).toBe(1);
    agentsOnServer = [agent('a1'), agent('a9', 'Missed while offline')];
    t.ws.send({ type: 'live.resync' });
    await flush();
    expect(t.snap().context.agents.map((a) => a.id)).toEqual(['a1', 'a9']);
    expect(t.connectionLoads()).toBe(2);
  });

  it('toggles and clears the selection, only for agents that exist', async () => {
    const t = start();
    await flush();
    t.ws.send({ type: 'selection.toggle', id: 'a1' });
    t.ws.send({ type: 'selection.toggle', id: 'a2' });
    t.ws.send({ type: 'selection.toggle', id: 'ghost' });
    expect(selectSelectedCount(t.snap())).toBe(2);
    t.ws.send({ type: 'selection.toggle', id: 'a1' });
    expect(t.snap().context.selectedIds).toEqual(['a2']);
    t.ws.send({ type: 'selection.clear' });
    expect(selectSelectedCount(t.snap())).toBe(0);
  });
});
