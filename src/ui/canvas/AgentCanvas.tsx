// The React Flow surface. Nodes and edges come from the workspace (through the identity-keeping derivers);
// the only state kept here is what exists while the pointer is down (drag positions, measured sizes) and
// which edge is selected for deletion.
import { useCallback, useMemo, useRef, useState } from 'react';
import {
  Background,
  BackgroundVariant,
  Controls,
  MiniMap,
  ReactFlow,
  type Connection as FlowConnection,
  type Edge as FlowEdge,
  type EdgeChange,
  type NodeChange,
  type NodeMouseHandler,
  type OnNodeDrag,
  type ReactFlowInstance,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { Agent } from '../../schemas/agents';
import type { Edge } from '../../schemas/connections';
import { CANVAS_DEFAULT_ZOOM, CANVAS_MAX_ZOOM, CANVAS_MIN_ZOOM } from '../../schemas/constants';
import { createEdgeDeriver, createNodeDeriver } from '../../machines/canvas.selectors';
import { nodeTypes, type AgentFlowNode } from './AgentNode';
import { STATUS_LOOKS } from './statusLook';

export interface AgentCanvasProps {
  agents: readonly Agent[];
  edges: readonly Edge[];
  selection: readonly string[];
  statuses: Readonly<Record<string, string>>;
  onToggle: (agentId: string) => void;
  onMoved: (moves: { agentId: string; x: number; y: number }[]) => void;
  onConnect: (from: string, to: string) => void;
  onDeleteEdges: (edgeIds: string[]) => void;
  onNodeMenu: (agentId: string, x: number, y: number) => void;
  onPaneClick?: () => void;
}

/** Hands the React Flow instance to a benchmark that installs a receiver (never in production). */
export const flowProbe: { onInit?: (flow: ReactFlowInstance<AgentFlowNode>) => void } = {};

const DELETE_KEYS = ['Delete', 'Backspace'];
const PRO_OPTIONS = { hideAttribution: true };
// The controls and participants boxes sit over the top-left corner, so the board's origin starts beside them.
const defaultViewport = { x: 280, y: 24, zoom: CANVAS_DEFAULT_ZOOM };
const miniMapColor = (n: AgentFlowNode) => STATUS_LOOKS[n.data.status]?.color ?? '#94a3b8';

export function AgentCanvas(p: AgentCanvasProps) {
  const [dragging, setDragging] = useState<Record<string, { x: number; y: number }>>({});
  const [selectedEdges, setSelectedEdges] = useState<ReadonlySet<string>>(() => new Set());
  const measured = useRef(new Map<string, { width: number; height: number }>());
  const deriveNodes = useMemo(createNodeDeriver, []);
  const deriveEdges = useMemo(createEdgeDeriver, []);

  const nodes = deriveNodes({ agents: p.agents, selection: p.selection, statuses: p.statuses, dragging, measured: measured.current });
  const agentIds = useMemo(() => new Set(p.agents.map((a) => a.id)), [p.agents]);
  const edges = deriveEdges(p.edges, agentIds, selectedEdges);

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
      nodes={nodes}
      edges={edges}
      nodeTypes={nodeTypes}
      onNodesChange={onNodesChange}
      onEdgesChange={onEdgesChange}
      onNodeClick={handleNodeClick}
      onNodeDragStop={onNodeDragStop}
      onConnect={handleConnect}
      onEdgesDelete={handleEdgesDelete}
      onNodeContextMenu={handleNodeContextMenu}
      onPaneClick={p.onPaneClick}
      onInit={flowProbe.onInit}
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
      <MiniMap<AgentFlowNode> nodeColor={miniMapColor} pannable zoomable ariaLabel="Canvas overview" />
      <Controls />
      <Background variant={BackgroundVariant.Dots} gap={18} size={1} />
    </ReactFlow>
  );
}
