// The canvas bench page: mounts either our canvas (CanvasArea over a real workspace actor whose loads answer
// from memory) or bare React Flow with the same nodes and edges, and exposes the measurements to the driver
// (bench/canvas.bench.ts) as window.canvasBench.
import { startWatch, stopWatch } from './commitWatch';
import type { ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { Background, BackgroundVariant, Controls, MiniMap, ReactFlow, type ReactFlowInstance } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { createActor, fromPromise, waitFor } from 'xstate';
import { workspaceMachine, type WorkspaceActorRef } from '../../src/machines/workspace.machine';
import type { MonitorStats } from '../../src/schemas/system';
import { CANVAS_DEFAULT_ZOOM, CANVAS_MAX_ZOOM, CANVAS_MIN_ZOOM } from '../../src/schemas/constants';
import { CanvasArea } from '../../src/ui/canvas/CanvasArea';
import { flowProbe } from '../../src/ui/canvas/AgentCanvas';
import { renderProbe } from '../../src/ui/canvas/AgentNode';
import { AGENTS, CONNECTIONS, agents, bareEdges, bareNodes, edges } from './fixture';

/** ours; bare React Flow; bare React Flow with the minimap, controls and dotted background ours draws. */
export type Kind = 'ours' | 'bare' | 'chrome';

export interface PanFigures {
  /** From the first panned frame's start to the start of the frame after the last one. */
  totalMs: number;
  worstFrameMs: number;
  /** Main-thread time per frame from setViewport until a task after it runs (render, style, layout, paint). */
  busyMs: number;
  worstBusyMs: number;
}

export interface CanvasBench {
  mount(kind: Kind): Promise<{ firstRenderMs: number; domReadyMs: number }>;
  settle(frames?: number): Promise<void>;
  pan(frames: number): Promise<PanFigures>;
  selectionLatency(agentId: string, toggles: number): Promise<number[]>;
  startCounting(): void;
  stopCounting(): Promise<{ nodeRenders: Record<string, number>; wrapperRenders: Record<string, number> }>;
  isSelected(agentId: string): boolean;
}

declare global {
  interface Window {
    canvasBench: CanvasBench;
  }
}

// The same first view for both: our canvas's origin sits beside its overlay boxes.
const viewport = { x: 280, y: 24, zoom: CANVAS_DEFAULT_ZOOM };
const stage = document.getElementById('stage')!;
let root: Root | null = null;
let flow: ReactFlowInstance | null = null;
let workspace: WorkspaceActorRef | null = null;
let nodeRenders = new Map<string, number>();

const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
const task = () =>
  new Promise<void>((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => resolve();
    ch.port2.postMessage(null);
  });

async function frames(n: number) {
  for (let i = 0; i < n; i++) await frame();
}

/** Every node in the DOM and measured (React Flow hides a node until it knows its size), every edge drawn. */
function isDrawn(): boolean {
  const nodes = stage.querySelectorAll<HTMLElement>('.react-flow__node');
  if (nodes.length !== AGENTS) return false;
  for (const n of nodes) if (n.style.visibility === 'hidden') return false;
  return stage.querySelectorAll('.react-flow__edge').length === CONNECTIONS;
}

async function until(check: () => boolean, timeoutMs: number, what: string) {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > timeoutMs) throw new Error(`${what} not reached within ${timeoutMs} ms`);
    await frame();
  }
}

function startWorkspace(): WorkspaceActorRef {
  return createActor(
    workspaceMachine.provide({
      actors: {
        loadAgents: fromPromise(async () => agents),
        loadConnections: fromPromise(async () => edges),
        loadStats: fromPromise<MonitorStats>(async () => {
          throw new Error('no stats in the bench');
        }),
      },
    }),
  ).start();
}

window.canvasBench = {
  async mount(kind) {
    if (root) throw new Error('already mounted');
    let element: ReactNode;
    if (kind === 'ours') {
      const ws = (workspace = startWorkspace());
      // The loads answer from memory; the clock starts once the workspace holds the board.
      await waitFor(ws, (s) => s.matches({ agents: 'loaded' }) && s.matches({ connections: 'loaded' }), {
        timeout: 10_000,
      });
      flowProbe.onInit = (f) => (flow = f as unknown as ReactFlowInstance);
      element = <CanvasArea workspace={ws} />;
    } else {
      element = (
        <ReactFlow
          nodes={bareNodes}
          edges={bareEdges}
          defaultViewport={viewport}
          minZoom={CANVAS_MIN_ZOOM}
          maxZoom={CANVAS_MAX_ZOOM}
          onInit={(f) => (flow = f)}
        >
          {kind === 'chrome' && (
            <>
              <MiniMap pannable zoomable />
              <Controls />
              <Background variant={BackgroundVariant.Dots} gap={18} size={1} />
            </>
          )}
        </ReactFlow>
      );
    }
    const t0 = performance.now();
    root = createRoot(stage);
    root.render(element);
    await until(isDrawn, 60_000, `${AGENTS} nodes and ${CONNECTIONS} edges`);
    const domReadyMs = performance.now() - t0;
    await frames(2); // painted
    return { firstRenderMs: performance.now() - t0, domReadyMs };
  },

  settle: (n = 10) => frames(n),

  pan(n) {
    const f = flow;
    if (!f) throw new Error('no React Flow instance');
    const v0 = f.getViewport();
    const starts: number[] = [];
    const busy: number[] = [];
    return new Promise<PanFigures>((resolve) => {
      let i = 0;
      const tick = (t: number) => {
        starts.push(t);
        if (i === n) {
          // The last frame's busy time arrives in a task after its paint.
          void task().then(() => {
            const durations = starts.slice(1).map((s, k) => s - starts[k]);
            resolve({
              totalMs: starts[n] - starts[0],
              worstFrameMs: Math.max(...durations),
              busyMs: busy.reduce((a, b) => a + b, 0),
              worstBusyMs: Math.max(...busy),
            });
          });
          return;
        }
        i++;
        const started = performance.now();
        void f.setViewport({ x: v0.x - i * 12, y: v0.y - i * 6, zoom: v0.zoom });
        void task().then(() => busy.push(performance.now() - started));
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
  },

  async selectionLatency(agentId, toggles) {
    const ws = workspace;
    if (!ws) throw new Error('our canvas is not mounted');
    const out: number[] = [];
    for (let k = 0; k < toggles; k++) {
      await frames(2);
      const t0 = performance.now();
      ws.send({ type: 'selection.toggle', id: agentId });
      await task(); // React renders the actor's update in a microtask, before this task
      out.push(performance.now() - t0);
    }
    return out;
  },

  startCounting() {
    nodeRenders = new Map();
    renderProbe.count = (id) => nodeRenders.set(id, (nodeRenders.get(id) ?? 0) + 1);
    startWatch();
  },

  async stopCounting() {
    await frames(2);
    renderProbe.count = undefined;
    return { nodeRenders: Object.fromEntries(nodeRenders), wrapperRenders: stopWatch() };
  },

  isSelected: (agentId) => workspace?.getSnapshot().context.selectedIds.includes(agentId) ?? false,
};
