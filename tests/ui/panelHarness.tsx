// Renders one discussion panel over REAL actors, wired the way composeLive wires them: the standard and hybrid
// discussion machines built by createStandardDiscussionLogic / createHybridDiscussionLogic, the real socket actor
// (src/services/socket.ts) over a fake WebSocket, a real workspace (agents from a fake loader), a real session (a
// restored token, or none) and real toasts, all in one actor system so systemId look-ups work as in the app.
// Only the I/O edges are fakes: the sockets, the endpoint probe's answer, agent details, settings storage, saveFile.
// react-virtuoso measures nothing in jsdom, so the feed renders inside VirtuosoMockContext (a tall viewport).
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { VirtuosoMockContext } from 'react-virtuoso';
import { createActor, fromCallback, fromPromise, setup, spawnChild } from 'xstate';
import type { HybridDiscussionActorRef } from '../../src/machines/discussionPanel.machine';
import { sessionMachine, type SessionActorRef } from '../../src/machines/session.machine';
import type { StandardDiscussionActorRef } from '../../src/machines/discussionPanel.machine';
import { toastsMachine, type ToastsActorRef } from '../../src/machines/toasts.machine';
import { workspaceMachine, type WorkspaceActorRef } from '../../src/machines/workspace.machine';
import type { Agent } from '../../src/schemas/agents';
import type { Edge } from '../../src/schemas/connections';
import type { MonitorStats } from '../../src/schemas/system';
import type { StandardPanelSettings } from '../../src/schemas/settings';
import { createHybridDiscussionLogic } from '../../src/services/hybridDiscussionActors';
import { createSocketFactory } from '../../src/services/socket';
import { createStandardDiscussionLogic } from '../../src/services/standardDiscussionActors';
import HybridPanel from '../../src/ui/discussion/hybrid/HybridPanel';
import StandardPanel from '../../src/ui/discussion/standard/StandardPanel';
import { fakeSockets } from '../support/fakeWebSocket';
import { tokenExpiringIn } from '../support/tokens';

export const AGENTS: Agent[] = [
  { id: 'agent-ada-0001', name: 'Ada', role: 'Agronomist' },
  { id: 'agent-bo-00002', name: 'Bo', role: 'Economist' },
  { id: 'agent-cy-00003', name: 'Cy', role: 'Grower' },
] as Agent[];

export interface SavedFile {
  blob: Blob;
  fileName: string;
}

export interface PanelWorld {
  standard: StandardDiscussionActorRef;
  hybrid: HybridDiscussionActorRef;
  workspace: WorkspaceActorRef;
  session: SessionActorRef;
  toasts: ToastsActorRef;
  sockets: ReturnType<typeof fakeSockets>;
  saved: SavedFile[];
  savedSettings: StandardPanelSettings[];
  stop: () => void;
}

/** Builds the actor system (not rendered). `token: null` starts signed out. */
export function createPanelWorld(opts: { token?: string | null; agents?: Agent[] } = {}): PanelWorld {
  const token = opts.token === undefined ? tokenExpiringIn(Date.now(), 60 * 60_000) : opts.token;
  const agents = opts.agents ?? AGENTS;
  const sockets = fakeSockets();
  const saved: SavedFile[] = [];
  const savedSettings: StandardPanelSettings[] = [];
  const fromSocket = createSocketFactory({
    wsBase: 'ws://localhost:8000',
    getToken: () => token,
    WebSocket: sockets.Ctor,
    debug: () => {},
  });
  const saveFile = (blob: Blob, fileName: string) => void saved.push({ blob, fileName });

  const standard = createStandardDiscussionLogic({
    fromSocket,
    // Every endpoint answers its probe.
    probeEndpoint: fromPromise(async () => true),
    getAgent: async (id) => {
      const a = agents.find((x) => x.id === id);
      if (!a) throw new Error(`no agent ${id}`);
      return a;
    },
    settings: { load: () => null, save: (s) => void savedSettings.push(s) },
    saveFile,
    renderPdf: async () => new Blob(['%PDF-fake'], { type: 'application/pdf' }),
    log: () => {},
  });
  const hybrid = createHybridDiscussionLogic({
    fromSocket,
    loadModes: async () => [],
    saveFile,
    renderPdf: async () => new Blob(['%PDF-fake']),
  });
  const workspace = workspaceMachine.provide({
    actors: {
      loadAgents: fromPromise(async () => agents),
      loadConnections: fromPromise<Edge[]>(async () => []),
      loadStats: fromPromise<MonitorStats>(async () => ({})),
    },
  });
  const session = sessionMachine.provide({
    actors: {
      restoreSession: fromPromise(async () =>
        token
          ? {
              token,
              user: { email: 'ada@example.com' },
              claims: { sub: 'user-0123456789abcdef', exp: Math.floor(Date.now() / 1000) + 3600 },
            }
          : null,
      ),
      // No clock and no storage here: the session never expires and nothing is written.
      sessionTicker: fromCallback(() => undefined),
    },
    actions: { persistLogin: () => undefined, clearStoredLogin: () => undefined },
  });
  const root = createActor(
    setup({ actors: { toasts: toastsMachine, workspace, session, standard, hybrid } }).createMachine({
      entry: [
        spawnChild('toasts', { id: 'toasts', systemId: 'toasts' }),
        spawnChild('workspace', { id: 'workspace', systemId: 'workspace' }),
        spawnChild('session', { id: 'session', systemId: 'session', input: ({ self }) => ({ parent: self }) }),
        // The app starts the panels once the session holds the token; here the session restores it later, so the
        // panels are given the same token directly.
        spawnChild('standard', {
          id: 'standardDiscussion',
          systemId: 'standardDiscussion',
          input: { token: token ?? null },
        }),
        spawnChild('hybrid', { id: 'hybridDiscussion', systemId: 'hybridDiscussion', input: { token: token ?? null } }),
      ],
    }),
  ).start();
  return {
    standard: root.system.get('standardDiscussion') as StandardDiscussionActorRef,
    hybrid: root.system.get('hybridDiscussion') as HybridDiscussionActorRef,
    workspace: root.system.get('workspace') as WorkspaceActorRef,
    session: root.system.get('session') as SessionActorRef,
    toasts: root.system.get('toasts') as ToastsActorRef,
    sockets,
    saved,
    savedSettings,
    stop: () => root.stop(),
  };
}

const Viewport = ({ children }: { children: ReactNode }) => (
  <VirtuosoMockContext.Provider value={{ viewportHeight: 20_000, itemHeight: 120 }}>
    {children}
  </VirtuosoMockContext.Provider>
);

export function renderStandardPanel(opts: { token?: string | null; agents?: Agent[] } = {}) {
  const world = createPanelWorld(opts);
  const view = render(
    <StandardPanel discussion={world.standard} workspace={world.workspace} session={world.session} />,
    { wrapper: Viewport },
  );
  return { ...view, ...world };
}

export function renderHybridPanel(
  opts: { token?: string | null; agents?: Agent[]; unreachable?: readonly string[] } = {},
) {
  const world = createPanelWorld(opts);
  const view = render(
    <HybridPanel
      discussion={world.hybrid}
      workspace={world.workspace}
      audio={undefined}
      unreachable={opts.unreachable}
    />,
    { wrapper: Viewport },
  );
  return { ...view, ...world };
}

/** Waits for the workspace's agents, then selects the given ones (as a canvas click does). */
export async function selectAgents(world: Pick<PanelWorld, 'workspace'>, ids: string[]) {
  for (let i = 0; i < 100 && world.workspace.getSnapshot().context.agents.length === 0; i++)
    await new Promise((r) => setTimeout(r, 5));
  for (const id of ids) world.workspace.send({ type: 'selection.toggle', id });
}
