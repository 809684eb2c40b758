// The React Flow surface. Nodes and edges come from the workspace (through the identity-keeping derivers);
// the only state kept here is what exists while the pointer is down (drag positions, measured sizes) and
// which edge is selected for deletion.
import { useCallback, useMemo, useRef, useState } from 'react';
import {
  Controls,
  ReactFlow,
  type Connection as FlowConnection,
  type Edge as FlowEdge,
  type EdgeChange,
  type FitViewOptions,
  type NodeChange,
  type NodeMouseHandler,
  type OnNodeDrag,
  type OnMove,
  type ReactFlowInstance,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { Agent } from '../../schemas/agents';
import type { Edge } from '../../schemas/connections';
import {
  CANVAS_DEFAULT_ZOOM,
  CANVAS_DENSE_AGENTS,
  CANVAS_FULL_CARDS_MAX,
  CANVAS_MAX_ZOOM,
  CANVAS_MIN_ZOOM,
} from '../../schemas/constants';
import { createEdgeDeriver, createNodeDeriver, createRectTracker } from './flowElements';
import { NODE_BOX } from '../../shared/canvasPlacement';
import { displayName } from '../../model/agentDisplay';
import { nodeTypes, type AgentFlowNode } from './AgentNode';
import { edgeTypes } from './FloatingEdge';
import { STATUS_LOOKS } from './statusLook';
import { DetailLevel } from './DetailLevel';
import { DotGrid } from './DotGrid';
import { CanvasMiniMap } from './CanvasMiniMap';
import { MINIMAP_SIZE } from './miniMapFrame';
import { FitVisible, type FitOptions } from './FitVisible';
import { useNarrow } from './useNarrow';

export interface AgentCanvasProps {
  agents: readonly Agent[];
  edges: readonly Edge[];
  selection: readonly string[];
  statuses: Readonly<Record<string, string>>;
  /** agent id → the option it holds in the discussion on the panel. */
  positions?: Readonly<Record<string, { label: string; slot: number }>>;
  onToggle: (agentId: string) => void;
  onMoved: (moves: { agentId: string; x: number; y: number }[]) => void;
  onConnect: (from: string, to: string) => void;
  onDeleteEdges: (edgeIds: string[]) => void;
  onNodeMenu: (agentId: string, x: number, y: number) => void;
  onPaneClick?: () => void;
  /** The agent speaking now: its edges are drawn live. */
  speakerId?: string | null;
  /** Agents whose model server is not answering (their cards say so). */
  unreachable?: ReadonlySet<string>;
  /** The middle of the visible board changed (after a pan or zoom): new agents are placed near it. */
  /** The middle of the visible part in board coordinates, and the free part's size in pixels (fitArea). */
  onViewCentre?: (x: number, y: number, area: { width: number; height: number }) => void;
  /** Changes when the agents were laid out anew (Auto-layout): the view fits them all again. */
  fitRequest?: number;
}

/** Hands the React Flow instance to a benchmark that installs a receiver (never in production). */
export const flowProbe: { onInit?: (flow: ReactFlowInstance<AgentFlowNode>) => void } = {};

const DELETE_KEYS = ['Delete', 'Backspace'];
/** At this width and below, the canvas drops its minimap (the overlay boxes need the room). */
const NARROW_CANVAS_PX = 640;
const PRO_OPTIONS = { hideAttribution: true };
// The controls and participants boxes sit over the top-left corner, so the board's origin starts beside them.
const defaultViewport = { x: 280, y: 24, zoom: CANVAS_DEFAULT_ZOOM };
const miniMapColor = (n: AgentFlowNode) => STATUS_LOOKS[n.data.status]?.color ?? '#94a3b8';
/** Width of the controls and participants boxes over the canvas's left side (canvas.css), plus a margin. */
const OVERLAY_WIDTH = 290;
/** Fit View keeps every node clear of the boxes on the left, the minimap at the bottom right and the edges. */
const FIT_VIEW_OPTIONS: FitViewOptions = {
  padding: { top: '40px', right: '40px', bottom: '40px', left: `${OVERLAY_WIDTH}px` },
  maxZoom: 1,
};
/** The minimap's corner (its height and the 15 px panel margin, rounded up) and the overlay boxes' height on a narrow canvas. */
const MINIMAP_HEIGHT = MINIMAP_SIZE.height + 20;
const OVERLAY_HEIGHT = 330;
const FIT_VIEW_WITH_MINIMAP: FitViewOptions = {
  ...FIT_VIEW_OPTIONS,
  padding: { top: '40px', right: '40px', bottom: '180px', left: `${OVERLAY_WIDTH}px` },
};

/** The overlay boxes' width on a narrow canvas, where they take one column (canvas.css), plus a margin. */
const NARROW_OVERLAY_WIDTH = 226;
/** The room a fit keeps round the agents inside the free part, each side. */
const FIT_MARGIN = 16;

/**
 * The free part of the canvas: right of the overlay boxes, above the minimap (a canvas too narrow for that fits below
 * the boxes instead). A narrow canvas has no minimap and narrower boxes, so the agents take its full height.
 */
function fitArea(area: { width: number; height: number }): FitOptions {
  const narrow = area.width <= NARROW_CANVAS_PX;
  const left = narrow ? NARROW_OVERLAY_WIDTH : OVERLAY_WIDTH;
  const beside = area.width - left >= NODE_BOX.width + 80;
  const inset = beside
    ? { top: 24, right: 24, bottom: narrow ? 24 : MINIMAP_HEIGHT, left }
    : { top: OVERLAY_HEIGHT, right: 24, bottom: MINIMAP_HEIGHT, left: 24 };
  const px = (n: number) => `${n + FIT_MARGIN}px` as const;
  return {
    inset,
    maxZoom: 1,
    minZoom: CANVAS_MIN_ZOOM,
    padding: { top: px(inset.top), right: px(inset.right), bottom: px(inset.bottom), left: px(inset.left) },
  };
}

export function AgentCanvas(p: AgentCanvasProps) {
  const [dragging, setDragging] = useState<Record<string, { x: number; y: number }>>({});
  const [selectedEdges, setSelectedEdges] = useState<ReadonlySet<string>>(() => new Set());
  const measured = useRef(new Map<string, { width: number; height: number }>());
  const deriveNodes = useMemo(createNodeDeriver, []);
  const deriveEdges = useMemo(createEdgeDeriver, []);
  const rectsOf = useMemo(createRectTracker, []);

  const nodes = deriveNodes({
    agents: p.agents,
    selection: p.selection,
    statuses: p.statuses,
    positions: p.positions,
    dragging,
    measured: measured.current,
    unreachable: p.unreachable,
  });
  const selectionSet = useMemo(() => new Set(p.selection), [p.selection]);
  const emphasis = useMemo(
    () => ({ selection: selectionSet, speakerId: p.speakerId ?? null }),
    [selectionSet, p.speakerId],
  );
  const names = useMemo(() => new Map(p.agents.map((a) => [a.id, displayName(a)])), [p.agents]);
  const rects = useMemo(() => rectsOf(nodes), [rectsOf, nodes]);
  const edges = deriveEdges(p.edges, rects, selectedEdges, emphasis, names);
  const surface = useRef<HTMLDivElement>(null);
  const { onViewCentre } = p;
  const reportCentre = useCallback(
    (viewport: { x: number; y: number; zoom: number }) => {
      const width = surface.current?.clientWidth ?? 0;
      const height = surface.current?.clientHeight ?? 0;
      if (!onViewCentre || !width || !height) return;
      // The middle of the part the overlay boxes leave free, in board coordinates.
      const left = width > OVERLAY_WIDTH * 2 ? OVERLAY_WIDTH : 0;
      const { inset } = fitArea({ width, height });
      onViewCentre(
        Math.round(((left + width) / 2 - viewport.x) / viewport.zoom),
        Math.round((height / 2 - viewport.y) / viewport.zoom),
        {
          width: Math.max(1, width - inset.left - inset.right - 2 * FIT_MARGIN),
          height: Math.max(1, height - inset.top - inset.bottom - 2 * FIT_MARGIN),
        },
      );
    },
    [onViewCentre],
  );
  const onMoveEnd: OnMove = useCallback((_e, viewport) => reportCentre(viewport), [reportCentre]);
  // Level of detail: one class on the board, changed only when the zoom crosses CANVAS_DETAIL_ZOOM (DetailLevel).
  const [far, setFar] = useState(false);
  const onInit = useCallback(
    (flow: ReactFlowInstance<AgentFlowNode>) => {
      reportCentre(flow.getViewport());
      flowProbe.onInit?.(flow);
    },
    [reportCentre],
  );
  // An empty minimap is an empty white box: it appears with the first agent; a narrow canvas has no room for it.
  const narrow = useNarrow(surface, NARROW_CANVAS_PX);
  const hasAgents = p.agents.length > 0;
  const hasMiniMap = hasAgents && !narrow;
  const dense = p.agents.length > CANVAS_DENSE_AGENTS;
  /** The view is the one FitVisible fitted: no pan or zoom by the user since. */
  const fitted = useRef(false);
  // A move with an input event is the user's (a fit moves without one).
  const onMoveStart: OnMove = useCallback((e) => {
    if (e) fitted.current = false;
  }, []);

  // Bumped when a node's measured size changes, so the sized node reaches React Flow (and its minimap).
  const [, setSizesSeen] = useState(0);
  const onNodesChange = useCallback((changes: NodeChange<AgentFlowNode>[]) => {
    let moved: Record<string, { x: number; y: number }> | null = null;
    let resized = false;
    for (const c of changes) {
      if (c.type === 'dimensions' && c.dimensions) {
        const known = measured.current.get(c.id);
        if (!known || known.width !== c.dimensions.width || known.height !== c.dimensions.height) {
          measured.current.set(c.id, c.dimensions);
          resized = true;
        }
      } else if (c.type === 'position' && c.position && c.dragging) (moved ??= {})[c.id] = c.position;
    }
    if (moved) setDragging((d) => ({ ...d, ...moved }));
    if (resized) setSizesSeen((n) => n + 1);
  }, []);

  const onEdgesChange = useCallback((changes: EdgeChange[]) => {
    const selects = changes.filter((c) => c.type === 'select');
    if (selects.length === 0) return;
    setSelectedEdges((prev) => {
      const next = new Set(prev);
      for (const c of selects) {
        if (c.type !== 'select') continue;
        if (c.selected) next.add(c.id);
        else next.delete(c.id);
      }
      return next;
    });
  }, []);

  const { onMoved, onToggle, onConnect, onDeleteEdges, onNodeMenu } = p;
  const onNodeDragStop: OnNodeDrag<AgentFlowNode> = useCallback(
    (_e, node, dragged) => {
      const all = dragged.length > 0 ? dragged : [node];
      onMoved(all.map((n) => ({ agentId: n.id, x: Math.round(n.position.x), y: Math.round(n.position.y) })));
      // Cleared in the same batch as the workspace update, so the node never flashes back.
      setDragging((d) => {
        const next = { ...d };
        for (const n of all) delete next[n.id];
        return next;
      });
    },
    [onMoved],
  );

  // React Flow hands every node handler to all 500 node wrappers: a new function per render would re-render
  // every wrapper on each selection change, even though the nodes themselves are memoized.
  const handleNodeClick: NodeMouseHandler<AgentFlowNode> = useCallback((_e, node) => onToggle(node.id), [onToggle]);
  const handleNodeContextMenu: NodeMouseHandler<AgentFlowNode> = useCallback(
    (e, node) => {
      e.preventDefault();
      onNodeMenu(node.id, e.clientX, e.clientY);
    },
    [onNodeMenu],
  );
  const handleConnect = useCallback((c: FlowConnection) => onConnect(c.source, c.target), [onConnect]);
  const handleEdgesDelete = useCallback(
    (deleted: FlowEdge[]) => {
      onDeleteEdges(deleted.map((e) => e.id));
      setSelectedEdges(new Set());
    },
    [onDeleteEdges],
  );

  return (
    <ReactFlow<AgentFlowNode>
      ref={surface}
      nodes={nodes}
      edges={edges}
      nodeTypes={nodeTypes}
      edgeTypes={edgeTypes}
      onNodesChange={onNodesChange}
      onEdgesChange={onEdgesChange}
      onNodeClick={handleNodeClick}
      onNodeDragStop={onNodeDragStop}
      onConnect={handleConnect}
      onEdgesDelete={handleEdgesDelete}
      onNodeContextMenu={handleNodeContextMenu}
      onPaneClick={p.onPaneClick}
      onInit={onInit}
      onMoveStart={onMoveStart}
      onMoveEnd={onMoveEnd}
      className={
        [far && p.agents.length > CANVAS_FULL_CARDS_MAX && 'is-far', dense && 'is-dense'].filter(Boolean).join(' ') ||
        undefined
      }
      minZoom={CANVAS_MIN_ZOOM}
      maxZoom={CANVAS_MAX_ZOOM}
      defaultViewport={defaultViewport}
      deleteKeyCode={DELETE_KEYS}
      nodesFocusable={false}
      selectNodesOnDrag={false}
      multiSelectionKeyCode={null}
      selectionKeyCode={null}
      proOptions={PRO_OPTIONS}
      aria-label="Agent canvas"
    >
      {hasMiniMap && (
        <CanvasMiniMap nodes={nodes} rects={rects} color={miniMapColor} borderRadius={6} ariaLabel="Canvas overview" />
      )}
      <Controls fitViewOptions={hasMiniMap ? FIT_VIEW_WITH_MINIMAP : FIT_VIEW_OPTIONS} showInteractive={false} />
      <DotGrid />
      <DetailLevel onFar={setFar} />
      <FitVisible boxes={rects} options={fitArea} fitted={fitted} refit={p.fitRequest ?? 0} />
    </ReactFlow>
  );
}
