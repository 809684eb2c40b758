// The canvas operations added to the workspace: positions, connections, auto-connect, agent deletion,
// the banner and the editor child.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { workspaceMachine, type WorkspaceActorRef } from '../../src/machines/workspace.machine';
import { agentDeletionMachine } from '../../src/machines/agentDeletion.machine';
import { autoConnectMachine } from '../../src/machines/autoConnect.machine';
import { connectionCreateMachine } from '../../src/machines/connectionCreate.machine';
import { connectionDeleteMachine } from '../../src/machines/connectionDelete.machine';
import { positionSaveMachine } from '../../src/machines/positionSave.machine';
import { selectAgentDeletionRef } from '../../src/machines/workspace.selectors';
import type { EditorActorRef } from '../../src/machines/editor.machine';
import type { Agent } from '../../src/schemas/agents';
import type { Edge } from '../../src/schemas/connections';
import { AGENT_MESSAGES, CANVAS_MESSAGES } from '../../src/schemas/messages';
import { SUCCESS_BANNER_MS } from '../../src/schemas/constants';
import { flush, underParent } from '../support/harness';
import { overlaps } from '../../src/shared/canvasPlacement';
import { editorWithFakes, fakeAgentApi, fakeMicrophone } from './editorHarness';

const agent = (id: string, extra: Partial<Agent> = {}): Agent => ({
  id,
  name: id.toUpperCase(),
  role: 'Analyst',
  x: 10,
  y: 10,
  ...extra,
});
const httpError = (status: number, detail?: string) => Object.assign(new Error(detail ?? 'x'), { status, detail });

function start(
  opts: Partial<
    Record<
      'createConnection' | 'deleteConnections' | 'autoConnect' | 'countAgentAudio' | 'deleteAgent' | 'savePosition',
      (input: never) => Promise<unknown>
    >
  > = {},
  agentApi = fakeAgentApi(),
) {
  const calls: Record<string, unknown[]> = {};
  const spy = <T>(name: string, fn: (input: never) => Promise<T>) =>
    fromPromise<T, never>(async ({ input }) => {
      (calls[name] ??= []).push(input);
      return fn(input);
    });
  let serverAgents: Agent[] = [agent('a1'), agent('a2'), agent('a3')];
  let serverEdges: Edge[] = [{ id: 'c1', source: 'a1', target: 'a2' }];
  const randoms = [0.25, 0.75];
  const logic = workspaceMachine.provide({
    actors: {
      loadAgents: spy('loadAgents', async () => serverAgents),
      loadConnections: spy('loadConnections', async () => serverEdges),
      loadStats: fromPromise(async () => ({})),
      editor: editorWithFakes(agentApi, fakeMicrophone().logic),
      positionSave: positionSaveMachine.provide({
        actors: {
          savePosition: spy('savePosition', opts.savePosition ?? (async () => ({}))),
          pickFallbackPosition: spy('pickFallbackPosition', async () => ({
            x: 100 + randoms[0] * 400,
            y: 100 + randoms[1] * 400,
          })),
        } as never,
      }),
      connectionCreate: connectionCreateMachine.provide({
        actors: {
          createConnection: spy(
            'createConnection',
            opts.createConnection ??
              (async (i: { from: string; to: string }) => ({ id: 'c9', source: i.from, target: i.to })),
          ),
        } as never,
      }),
      connectionDelete: connectionDeleteMachine.provide({
        actors: { deleteConnections: spy('deleteConnections', opts.deleteConnections ?? (async () => [])) } as never,
      }),
      autoConnect: autoConnectMachine.provide({
        actors: {
          postAutoConnect: spy('autoConnect', opts.autoConnect ?? (async () => ({ connections_created: 2 }))),
        } as never,
      }),
      agentDeletion: agentDeletionMachine.provide({
        actors: {
          countAgentAudio: spy('countAgentAudio', opts.countAgentAudio ?? (async () => 3)),
          deleteAgent: spy('deleteAgent', opts.deleteAgent ?? (async () => ({ success: true }))),
        } as never,
      }),
    } as never,
  });
  const h = underParent<WorkspaceActorRef>(logic, 'workspace');
  return {
    ...h,
    ws: h.child,
    snap: () => h.child.getSnapshot(),
    /** The agent deletion under way (its own actor), if any. */
    deletion: () => selectAgentDeletionRef(h.child.getSnapshot())?.getSnapshot(),
    calls,
    setServer: (a: Agent[], e?: Edge[]) => {
      serverAgents = a;
      if (e) serverEdges = e;
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('workspace: positions', () => {
  it('a drag end inside 0..2000 is drawn at once and saved as given', async () => {
    const t = start();
    await flush();
    t.ws.send({ type: 'agent.moved', agentId: 'a1', x: 640, y: 2000 });
    expect(t.snap().context.agents[0]).toMatchObject({ x: 640, y: 2000 });
    await flush();
    expect(t.calls.savePosition).toEqual([{ agentId: 'a1', x: 640, y: 2000 }]);
    expect(t.snap().context.pendingMoves).toEqual([]);
  });

  it('outside 0..2000 the injected random source picks a place between 100 and 500, which is saved', async () => {
    const t = start();
    await flush();
    t.ws.send({ type: 'agent.moved', agentId: 'a2', x: -40, y: 2500 });
    await flush();
    expect(t.calls.pickFallbackPosition).toHaveLength(1);
    expect(t.calls.savePosition).toEqual([{ agentId: 'a2', x: 200, y: 400 }]);
    expect(t.snap().context.agents[1]).toMatchObject({ x: 200, y: 400 });
  });

  it('saves one move at a time, in order; a failed save shows in the banner', async () => {
    let n = 0;
    const t = start({ savePosition: async () => (++n === 1 ? Promise.reject(httpError(404, 'Agent not found')) : {}) });
    await flush();
    t.ws.send({ type: 'agent.moved', agentId: 'a1', x: 1, y: 1 });
    t.ws.send({ type: 'agent.moved', agentId: 'a2', x: 2, y: 2 });
    t.ws.send({ type: 'agent.moved', agentId: 'a2', x: 3, y: 3 });
    await flush();
    expect(t.calls.savePosition).toEqual([
      { agentId: 'a1', x: 1, y: 1 },
      { agentId: 'a2', x: 3, y: 3 },
    ]);
    expect(t.snap().context.banner).toEqual({ kind: 'error', text: 'Could not save the position: Agent not found' });
  });
});

describe('workspace: connections', () => {
  it('creates a connection between two known agents and reloads the list', async () => {
    const t = start();
    await flush();
    t.ws.send({ type: 'connection.create', from: 'a2', to: 'a3' });
    await flush();
    expect(t.calls.createConnection).toEqual([{ from: 'a2', to: 'a3' }]);
    expect(t.calls.loadConnections).toHaveLength(2);
  });

  it('refuses a connection to a node that is gone', async () => {
    const t = start();
    await flush();
    t.ws.send({ type: 'connection.create', from: 'a1', to: 'ghost' });
    expect(t.snap().context.banner).toEqual({ kind: 'error', text: CANVAS_MESSAGES.invalidConnection });
    expect(t.calls.createConnection).toBeUndefined();
  });

  it.each([
    [httpError(409, 'Connection already exists'), 'Error creating connection: Connection already exists'],
    [new TypeError('Failed to fetch'), CANVAS_MESSAGES.connectionErrorGeneric],
  ])('a failed create reads the spec words (%#)', async (error, expected) => {
    const t = start({ createConnection: () => Promise.reject(error) });
    await flush();
    t.ws.send({ type: 'connection.create', from: 'a1', to: 'a3' });
    await flush();
    expect(t.snap().context.banner).toEqual({ kind: 'error', text: expected });
  });

  it('deleting edges removes them at once, deletes them on the server and reloads', async () => {
    const t = start();
    await flush();
    t.setServer([agent('a1'), agent('a2'), agent('a3')], []);
    t.ws.send({ type: 'connections.delete', ids: ['c1'] });
    expect(t.snap().context.edges).toEqual([]);
    await flush();
    expect(t.calls.deleteConnections).toEqual([{ connectionIds: ['c1'] }]);
    expect(t.calls.loadConnections).toHaveLength(2);
  });

  it('auto-connect says how many were created, reloads, and the message hides after 3 s', async () => {
    const t = start();
    await flush();
    t.ws.send({ type: 'connections.autoConnect' });
    expect(t.snap().matches({ autoConnect: 'running' })).toBe(true);
    await flush();
    expect(t.snap().context.banner).toEqual({ kind: 'success', text: 'Auto-connected: 2 connections created' });
    expect(t.calls.loadConnections).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(SUCCESS_BANNER_MS - 1);
    expect(t.snap().context.banner).not.toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(t.snap().context.banner).toBeNull();
  });

  it.each([
    [httpError(500, 'database is down'), 'Auto-connect failed: database is down'],
    [httpError(500), CANVAS_MESSAGES.autoConnectFailedGeneric],
  ])('a failed auto-connect reads the spec words and stays until dismissed (%#)', async (error, expected) => {
    const t = start({ autoConnect: () => Promise.reject(error) });
    await flush();
    t.ws.send({ type: 'connections.autoConnect' });
    await flush();
    expect(t.snap().context.banner).toEqual({ kind: 'error', text: expected });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.snap().context.banner).not.toBeNull();
    t.ws.send({ type: 'banner.dismiss' });
    expect(t.snap().context.banner).toBeNull();
  });
});

describe('workspace: deleting an agent', () => {
  it('counts its audio, asks, deletes, and drops its node, edges and selection', async () => {
    const t = start();
    await flush();
    t.ws.send({ type: 'selection.toggle', id: 'a1' });
    t.ws.send({ type: 'agent.delete.request', agentId: 'a1' });
    expect(t.deletion()?.matches('counting')).toBe(true);
    await flush();
    expect(t.deletion()?.matches('confirming')).toBe(true);
    expect(t.deletion()?.context).toMatchObject({ agentId: 'a1', name: 'A1', audioCount: 3 });
    t.ws.send({ type: 'agent.delete.cancel' });
    expect(t.calls.deleteAgent).toBeUndefined();

    t.ws.send({ type: 'agent.delete.request', agentId: 'a1' });
    await flush();
    t.setServer([agent('a2'), agent('a3')], []);
    t.ws.send({ type: 'agent.delete.confirm' });
    await flush();
    expect(t.calls.deleteAgent).toEqual([{ agentId: 'a1' }]);
    const c = t.snap().context;
    expect(c.agents.map((a) => a.id)).toEqual(['a2', 'a3']);
    expect(c.edges).toEqual([]);
    expect(c.selectedIds).toEqual([]);
  });

  it('a failed delete reads "Failed to delete agent: {detail}" or "Failed to delete agent"', async () => {
    for (const [error, expected] of [
      [httpError(500, 'locked'), 'Failed to delete agent: locked'],
      [httpError(500), AGENT_MESSAGES.deleteFailed],
    ] as const) {
      const t = start({ deleteAgent: () => Promise.reject(error) });
      await flush();
      t.ws.send({ type: 'agent.delete.request', agentId: 'a2' });
      await flush();
      t.ws.send({ type: 'agent.delete.confirm' });
      await flush();
      expect(t.snap().context.banner).toEqual({ kind: 'error', text: expected });
      expect(t.snap().context.agents).toHaveLength(3);
    }
  });

  it('an unknown agent is not offered for deletion; a failed count still asks (count unknown)', async () => {
    const t = start({ countAgentAudio: () => Promise.reject(new Error('x')) });
    await flush();
    t.ws.send({ type: 'agent.delete.request', agentId: 'ghost' });
    expect(t.snap().matches({ deletion: 'idle' })).toBe(true);
    t.ws.send({ type: 'agent.delete.request', agentId: 'a3' });
    await flush();
    expect(t.deletion()?.context).toMatchObject({ agentId: 'a3', name: 'A3', audioCount: null });
  });
});

describe('workspace: the editor child', () => {
  const editorOf = (t: ReturnType<typeof start>) => t.root.system.get('editor') as EditorActorRef | undefined;

  it('opens the editor (systemId "editor"), hears its save, and forgets it when it closes', async () => {
    const t = start();
    await flush();
    t.ws.send({ type: 'editor.open', request: { mode: 'create' } });
    const editor = editorOf(t)!;
    expect(editor.getSnapshot().context.mode).toBe('create');
    expect(t.snap().children.editor).toBe(editor);
    t.setServer([agent('a1'), agent('a2'), agent('a3'), agent('new-agent-id')]);
    for (const [field, value] of [
      ['name', 'N'],
      ['role', 'R'],
      ['prompt', 'P'],
      ['model', 'offline'],
    ]) {
      editor.send({ type: 'editor.field', field: field as never, value });
    }
    editor.send({ type: 'editor.submit' });
    await flush();
    expect(t.snap().context.agents.map((a) => a.id)).toContain('new-agent-id');
    expect(t.calls.loadAgents).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(500);
    expect(t.snap().matches({ editor: 'closed' })).toBe(true);
    expect(editorOf(t)).toBeUndefined();
  });

  it('opening another agent replaces the editor; deleting the edited agent closes it', async () => {
    const t = start();
    await flush();
    t.ws.send({ type: 'editor.open', request: { mode: 'edit', agentId: 'a1' } });
    t.ws.send({ type: 'editor.open', request: { mode: 'edit', agentId: 'a2' } });
    expect(editorOf(t)!.getSnapshot().context.agentId).toBe('a2');
    t.ws.send({ type: 'live.frame', frame: { type: 'agent_deleted', agent_id: 'a2' } });
    expect(t.snap().matches({ editor: 'closed' })).toBe(true);
    expect(editorOf(t)).toBeUndefined();
  });

  it('a reload keeps the objects of unchanged agents (the canvas redraws only what changed)', async () => {
    const t = start();
    await flush();
    const before = t.snap().context.agents;
    t.setServer([agent('a1'), agent('a2', { name: 'Bea' }), agent('a3')]);
    t.ws.send({ type: 'agents.reload' });
    await flush();
    const after = t.snap().context.agents;
    expect(after[0]).toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    expect(after[2]).toBe(before[2]);
  });
});

describe('workspace: placing agents', () => {
  const editorOf = (t: ReturnType<typeof start>) => t.root.system.get('editor') as EditorActorRef | undefined;

  async function createThroughEditor(t: ReturnType<typeof start>, id: string) {
    t.ws.send({ type: 'editor.open', request: { mode: 'create' } });
    const editor = editorOf(t)!;
    for (const [field, value] of [
      ['name', id],
      ['role', 'R'],
      ['prompt', 'P'],
      ['model', 'offline'],
    ])
      editor.send({ type: 'editor.field', field: field as never, value });
    editor.send({ type: 'editor.submit' });
    await flush();
    await vi.advanceTimersByTimeAsync(500);
    await flush();
  }

  it('a create carries the free grid cell nearest the view centre, so agents created in a row never overlap', async () => {
    const api = fakeAgentApi();
    const created: Agent[] = [];
    // The server stores the position the create carries, and lists the new agents from then on.
    api.createAgent.answer((b) => {
      const a = { ...agent(`new-${created.length + 1}`), ...(b as object) } as Agent;
      created.push(a);
      t.setServer([agent('a1'), agent('a2'), agent('a3'), ...created]);
      return a;
    });
    const t = start({}, api);
    await flush();
    t.ws.send({ type: 'canvas.viewCentre', x: 900, y: 900 });
    for (let i = 0; i < 4; i++) await createThroughEditor(t, `new-${i + 1}`);
    const bodies = api.createAgent.calls as { x: number; y: number }[];
    expect(bodies).toHaveLength(4);
    expect(Math.abs(bodies[0].x + 100 - 900)).toBeLessThanOrEqual(125);
    expect(Math.abs(bodies[0].y + 48 - 900)).toBeLessThanOrEqual(75);
    for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) expect(overlaps(bodies[i], bodies[j])).toBe(false);
    expect(t.calls.savePosition).toBeUndefined();
  });

  it('Auto-layout saves a new, non-overlapping place for every agent that moves', async () => {
    const t = start();
    await flush();
    t.ws.send({ type: 'canvas.autoLayout' });
    await flush();
    const agents = t.snap().context.agents;
    expect(new Set(agents.map((a) => `${a.x},${a.y}`)).size).toBe(3);
    // a1 → a2 is the one connection: a1 sits above a2.
    expect(agents[0].y!).toBeLessThan(agents[1].y!);
    expect((t.calls.savePosition as { agentId: string }[]).map((m) => m.agentId).sort()).toEqual(['a1', 'a2', 'a3']);
    expect(t.snap().context.pendingMoves).toEqual([]);
  });
});
