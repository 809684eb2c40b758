// The hybrid replay bench page: the real HybridPanel over a REAL hybridDiscussion actor (its socket stubbed, the
// machine connected), a real session (a restored token) and a real workspace. The driver hands it a stored
// discussion as raw frame text; replay() runs each through JSON.parse → parseFrame (the hybrid server schema) →
// the socket's frame batch → the machine, with the panel mounted, and waits until the last message's card is in the
// DOM and painted.
import { createRoot } from 'react-dom/client';
import { assign, createActor, fromCallback, fromPromise, setup, spawnChild, type AnyActorLogic } from 'xstate';
import { hybridDiscussionMachine, type HybridDiscussionActorRef } from '../../src/machines/discussionPanel.machine';
import { sessionMachine, type RestoredSession } from '../../src/machines/session.machine';
import { workspaceMachine, type WorkspaceActorRef } from '../../src/machines/workspace.machine';
import { selectMessageIds } from '../../src/model/feedSelectors';
import { knownTypes, parseFrame } from '../../src/schemas/frames';
import { hybridServerFrame, type HybridServerFrame } from '../../src/schemas/hybridSocket';
import { createFrameBatch } from '../../src/services/frameBatch';
import HybridPanel from '../../src/ui/discussion/hybrid/HybridPanel';
import '../../src/ui/styles.css';
import '../../src/ui/discussion/discussion.css';

export interface ReplayFigures {
  frames: number;
  rejected: number;
  messages: number;
  /** JSON.parse → parseFrame → the socket's batches → machine, for every frame (synchronous). */
  ingestMs: number;
  /** From the first frame to the last card in the DOM and painted. */
  totalMs: number;
  domNodes: number;
}
export interface HybridReplayBench {
  /** `mounted`: the panel is on screen while the frames arrive; otherwise it mounts after the last one. */
  replay(raw: string[], mounted: boolean): Promise<ReplayFigures>;
  /** What the page shows now (said when a replay times out). */
  status(): string;
}
declare global {
  interface Window {
    hybridReplayBench: HybridReplayBench;
  }
}

const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
const known = knownTypes(hybridServerFrame);
const AGENTS = [
  { id: 'agent-a', name: 'Ada', role: 'Agronomist' },
  { id: 'agent-b', name: 'Bo', role: 'Economist' },
  { id: 'agent-c', name: 'Cy', role: 'Grower' },
];

const root = createActor(
  setup({
    actors: {
      hybrid: hybridDiscussionMachine.provide({
        actors: {
          socketSession: fromCallback(() => () => {}) as unknown as AnyActorLogic,
          clock: fromCallback(() => undefined),
          loadModes: fromPromise(async () => []),
          loadSettings: fromPromise(async () => null),
        } as never,
        actions: { readClock: assign({ clockNow: () => Date.now() }) },
      }),
      session: sessionMachine.provide({
        actors: {
          restoreSession: fromPromise<RestoredSession | null>(async () => ({
            token: 'bench-token',
            user: { email: 'bench@example.com' },
            claims: { sub: 'bench-user', exp: Math.floor(Date.now() / 1000) + 3600 },
          })),
          sessionTicker: fromCallback(() => undefined),
        },
        actions: { persistLogin: () => undefined, clearStoredLogin: () => undefined },
      }),
      workspace: workspaceMachine.provide({
        actors: {
          loadAgents: fromPromise(async () => AGENTS),
          loadConnections: fromPromise(async () => []),
          loadStats: fromPromise(async () => ({})),
        } as never,
      }),
    },
  }).createMachine({
    entry: [
      spawnChild('workspace', { id: 'workspace', systemId: 'workspace' }),
      spawnChild('session', { id: 'session', systemId: 'session', input: ({ self }) => ({ parent: self }) }),
      spawnChild('hybrid', { id: 'hybrid', systemId: 'hybridDiscussion', input: { token: 'bench-token' } }),
    ],
  }),
).start();
const hybrid = root.system.get('hybridDiscussion') as HybridDiscussionActorRef;
const workspace = root.system.get('workspace') as WorkspaceActorRef;

const stage = document.getElementById('stage')!;
const mount = () =>
  createRoot(stage).render(<HybridPanel discussion={hybrid} workspace={workspace} audio={undefined} />);

async function connected() {
  for (let i = 0; i < 100 && workspace.getSnapshot().context.agents.length === 0; i++)
    await new Promise((r) => setTimeout(r, 5));
  for (const a of AGENTS) workspace.send({ type: 'selection.toggle', id: a.id });
  hybrid.send({ type: 'panel.topic.change', text: 'Drip or furrow irrigation?' });
  hybrid.send({ type: 'panel.start', agentIds: AGENTS.map((a) => a.id) });
  hybrid.send({ type: 'socketSession.open', attempt: 0 });
  if (!hybrid.getSnapshot().hasTag('connected')) throw new Error('the bench hybrid actor did not connect');
  await frame();
}

const rowIndex = (row: Element | undefined) => (row?.closest('[data-index]') as HTMLElement | null)?.dataset.index;

window.hybridReplayBench = {
  status() {
    const rows = stage.querySelectorAll('.feed__row');
    const s = hybrid.getSnapshot();
    return `run ${JSON.stringify(s.value)}, ${selectMessageIds(s.context.feed).length} feed items, ${rows.length} rows drawn, last row index ${rowIndex(rows[rows.length - 1])}`;
  },
  async replay(raw, mounted) {
    if (mounted) mount();
    await connected();
    let rejected = 0;
    const t0 = performance.now();
    // A stored discussion arrives as one burst: the socket hands it on in batches (services/frameBatch.ts; its
    // deferral never comes before the burst is over, so batches of FRAME_BATCH_MAX), as the app's socket does.
    const batch = createFrameBatch<HybridServerFrame>(
      (frames) =>
        hybrid.send(
          frames.length === 1
            ? { type: 'socketSession.frame', frame: frames[0]! }
            : { type: 'socketSession.frames', frames },
        ),
      () => () => {},
    );
    for (const text of raw) {
      const p = parseFrame(hybridServerFrame, text, known);
      if (p.kind === 'frame') batch.push(p.frame);
      else rejected++;
    }
    batch.flush();
    const ingestMs = performance.now() - t0;
    if (!mounted) mount();
    const ids = selectMessageIds(hybrid.getSnapshot().context.feed);
    // The feed follows the newest: wait until the last item's card is rendered, then one frame for paint.
    const lastId = ids[ids.length - 1];
    const isLastShown = () => {
      const rows = stage.querySelectorAll('.feed__row');
      return rows.length > 0 && !!lastId && Number(rowIndex(rows[rows.length - 1])) === ids.length - 1;
    };
    while (!isLastShown()) await frame();
    await frame();
    const totalMs = performance.now() - t0;
    const feed = stage.querySelector('.feed');
    return {
      frames: raw.length,
      rejected,
      messages: ids.length,
      ingestMs,
      totalMs,
      domNodes: feed ? feed.getElementsByTagName('*').length + 1 : 0,
    };
  },
};
