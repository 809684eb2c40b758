// The standard and hybrid panels run the way the app runs them (app.machine spawns them under the root with their
// systemIds): next to a real toasts actor and recording stand-ins for the 'workspace' and the 'audioQueue', so a
// test can assert what the panel told them. Their real actors (createStandardDiscussionLogic /
// createHybridDiscussionLogic) are built over a fake WebSocket, a fake probe, fake agents, settings and files.
import {
  createActor,
  fromCallback,
  fromPromise,
  setup,
  spawnChild,
  type AnyActorLogic,
  type AnyEventObject,
} from 'xstate';
import { toastsMachine, type ToastsActorRef } from '../../src/machines/toasts.machine';
import type { StandardDiscussionActorRef } from '../../src/machines/discussionPanel.machine';
import type { HybridDiscussionActorRef } from '../../src/machines/discussionPanel.machine';
import { ENDPOINTS, type EndpointKey } from '../../src/schemas/constants';
import type { StandardPanelSettings } from '../../src/schemas/settings';
import { createSocketFactory } from '../../src/services/socket';
import { createStandardDiscussionLogic } from '../../src/services/standardDiscussionActors';
import { createHybridDiscussionLogic, type HybridDiscussionDeps } from '../../src/services/hybridDiscussionActors';
import { fakeSockets } from '../support/fakeWebSocket';
import type { DeferFlush } from '../../src/services/frameBatch';
import type { PanelInput } from '../../src/machines/kit/actorKit';

/** An actor that keeps every event sent to it. */
const recorder = (log: AnyEventObject[]) =>
  fromCallback<AnyEventObject>(({ receive }) => {
    receive((event) => void log.push(event));
  });

function runUnderApp(panel: AnyActorLogic, systemId: string, input: PanelInput) {
  const workspace: AnyEventObject[] = [];
  const audioQueue: AnyEventObject[] = [];
  const parent = setup({
    actors: { toasts: toastsMachine, workspace: recorder(workspace), audioQueue: recorder(audioQueue), panel },
  }).createMachine({
    entry: [
      spawnChild('toasts', { id: 'toasts', systemId: 'toasts' }),
      spawnChild('workspace', { id: 'workspace', systemId: 'workspace' }),
      spawnChild('audioQueue', { id: 'audioQueue', systemId: 'audioQueue' }),
      spawnChild('panel', { id: systemId, systemId, input }),
    ],
  });
  const root = createActor(parent).start();
  const toasts = root.system.get('toasts') as ToastsActorRef;
  return {
    root,
    workspace,
    audioQueue,
    toasts,
    toastTexts: () => toasts.getSnapshot().context.toasts.map((t) => `${t.kind}: ${t.text}`),
  };
}

export interface StandardOptions {
  /** Endpoints the probe finds (default: all four). */
  available?: EndpointKey[];
  /** What the settings store holds for the user. */
  saved?: StandardPanelSettings | null;
  /** Agent ids whose GET /agents/{id} fails. */
  failingAgents?: string[];
  /** The signed-in user's token the panel starts with ('tok-1'; null: signed out). */
  token?: string | null;
  /** The panel's clock (the fake timers' Date.now by default). */
  now?: () => number;
  /** When a burst of frames is handed on (the app's is `nextTask`); absent, each frame at once. */
  deferFrames?: DeferFlush;
}

const inputOf = (opts: { token?: string | null }): PanelInput => ({
  token: opts.token === undefined ? 'tok-1' : opts.token,
});

export function standardPanel(opts: StandardOptions = {}) {
  const sockets = fakeSockets();
  const fromSocket = createSocketFactory({
    wsBase: 'ws://agora.test',
    getToken: () => 'query-token',
    WebSocket: sockets.Ctor,
    debug: () => {},
    deferFrames: opts.deferFrames,
  });
  const availablePaths = new Set(
    (opts.available ?? (Object.keys(ENDPOINTS) as EndpointKey[])).map((k) => ENDPOINTS[k].path),
  );
  const probed: string[] = [];
  const saves: StandardPanelSettings[] = [];
  const files: { blob: Blob; name: string }[] = [];
  const agentCalls: string[] = [];
  const logic = createStandardDiscussionLogic({
    fromSocket,
    probeEndpoint: fromPromise<boolean, { path: string }>(async ({ input }) => {
      probed.push(input.path);
      return availablePaths.has(input.path);
    }),
    getAgent: async (id) => {
      agentCalls.push(id);
      if (opts.failingAgents?.includes(id)) throw new Error('404');
      return { id, name: `Name ${id}`, role: 'Tester' };
    },
    settings: { load: () => opts.saved ?? null, save: (s) => void saves.push(s) },
    saveFile: (blob, name) => void files.push({ blob, name }),
    renderPdf: async () => new Blob(['%PDF-1.4'], { type: 'application/pdf' }),
    log: () => {},
    now: opts.now,
  });
  const app = runUnderApp(logic, 'standardDiscussion', inputOf(opts));
  const panel = app.root.system.get('standardDiscussion') as StandardDiscussionActorRef;
  return { ...app, panel, sockets, probed, saves, files, agentCalls };
}

export function hybridPanel(
  opts: {
    modes?: { id: string; name: string; description: string; best_for: string[] }[];
    settings?: HybridDiscussionDeps['settings'];
    token?: string | null;
    now?: () => number;
  } = {},
) {
  const sockets = fakeSockets();
  const fromSocket = createSocketFactory({
    wsBase: 'ws://agora.test',
    getToken: () => 'query-token',
    WebSocket: sockets.Ctor,
    debug: () => {},
  });
  const files: { blob: Blob; name: string }[] = [];
  const logic = createHybridDiscussionLogic({
    fromSocket,
    loadModes: async () => {
      if (!opts.modes) throw new Error('no modes');
      return opts.modes as never;
    },
    saveFile: (blob, name) => void files.push({ blob, name }),
    renderPdf: async () => new Blob(['%PDF-1.4'], { type: 'application/pdf' }),
    settings: opts.settings,
    now: opts.now,
    // The export's participants: each agent on the offline model; the second one's lookup fails.
    getAgent: async (id) => {
      if (id === 'agent-b') throw new Error('404');
      return { id, name: `Name ${id}`, role: 'Tester', model: 'offline', color: '#065f46' };
    },
    listConnections: async () => [],
  });
  const app = runUnderApp(logic, 'hybridDiscussion', inputOf(opts));
  const panel = app.root.system.get('hybridDiscussion') as HybridDiscussionActorRef;
  return { ...app, panel, sockets, files };
}
