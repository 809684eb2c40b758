// The canvas's minimap (spec: 'a graph with a minimap'): every agent as a small card in its status colour, the
// visible part of the board left clear under a shade, pannable by dragging and zoomable by the wheel (React Flow's
// XYMinimap, as its own <MiniMap> does). The cards are one layer, drawn again only when the agents or the framed
// part change (miniMapFrame.ts); the shade is the view's outline casting a wide flat shadow, a layer that a pan
// frame only moves (a transform: no paint, no raster, no React render; its size changes with the zoom). React
// Flow's <MiniMap> drew all 500 cards again on every pan frame, and a shade path set each frame still cost a
// repaint of the minimap (npm run bench canvas: the pan was 1.3× bare React Flow's with <MiniMap>, 1.24× with the
// path, 1.17× with four shade bands moved, 1.07× with no minimap).
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Panel, useStore, useStoreApi, type ReactFlowState } from '@xyflow/react';
import { XYMinimap, type XYMinimapInstance } from '@xyflow/system';
import type { AgentFlowNode } from './AgentNode';
import type { Rect } from './edgeGeometry';
import { boundsOf } from './FitVisible';
import { MINIMAP_SIZE, nextFrame, viewBoxOf, viewOnMinimap, viewRect } from './miniMapFrame';

/**
 * After a pan or zoom has rested this long, the frame fits the agents and the view exactly again. A pause of the
 * drawing, not of the flow (nothing is sent or loaded): React Flow's own end of a move comes after every step of a
 * programmatic move, and refitting there redrew the cards at each one (npm run bench canvas: 1.32–1.35×, against
 * 1.06–1.15× with this pause).
 */
const SETTLE_MS = 250;

interface Props {
  nodes: readonly AgentFlowNode[];
  /** Each node's box on the board (AgentCanvas's rect tracker). */
  rects: ReadonlyMap<string, Rect>;
  color: (node: AgentFlowNode) => string;
  borderRadius: number;
  ariaLabel: string;
}

const interaction = (s: ReactFlowState) => ({
  panZoom: s.panZoom,
  translateExtent: s.translateExtent,
  width: s.width,
  height: s.height,
});
const sameInteraction = (a: ReturnType<typeof interaction>, b: ReturnType<typeof interaction>) =>
  a.panZoom === b.panZoom && a.translateExtent === b.translateExtent && a.width === b.width && a.height === b.height;
const viewOf = (s: ReactFlowState) => viewRect(s.transform, s.width, s.height);

export function CanvasMiniMap({ nodes, rects, color, borderRadius, ariaLabel }: Props) {
  const store = useStoreApi();
  const { panZoom, translateExtent, width, height } = useStore(interaction, sameInteraction);
  const bounds = useMemo(() => boundsOf(rects.values()), [rects]);
  const [frame, setFrame] = useState<Rect>(() => nextFrame(null, bounds, viewOf(store.getState())));
  const box = useMemo(() => viewBoxOf(frame), [frame]);
  const shade = useRef<HTMLDivElement>(null);
  const live = useRef({ frame, box, bounds });
  live.current = { frame, box, bounds };

  // The shade follows the view without a React render; the frame changes (rarely) through state.
  useLayoutEffect(() => {
    let settle: ReturnType<typeof setTimeout> | undefined;
    const follow = (s: ReactFlowState, tight = false) => {
      const view = viewOf(s);
      const next = nextFrame(live.current.frame, live.current.bounds, view, tight);
      if (!sameRect(next, live.current.frame)) setFrame(next);
      const outline = shade.current?.firstElementChild as HTMLElement | null | undefined;
      if (outline) place(outline, viewOnMinimap(viewBoxOf(next), view));
    };
    follow(store.getState(), true);
    const stop = store.subscribe((s, prev) => {
      if (s.transform === prev.transform && s.width === prev.width && s.height === prev.height) return;
      follow(s);
      clearTimeout(settle);
      settle = setTimeout(() => follow(store.getState(), true), SETTLE_MS);
    });
    return () => {
      stop();
      clearTimeout(settle);
    };
  }, [store, bounds]);

  const minimap = useRef<XYMinimapInstance | null>(null);
  useEffect(() => {
    if (!shade.current || !panZoom) return;
    const instance = XYMinimap({
      domNode: shade.current,
      panZoom,
      getTransform: () => store.getState().transform,
      getViewScale: () => live.current.box.unitsPerPixel,
    });
    minimap.current = instance;
    return () => {
      instance.destroy();
      minimap.current = null;
    };
  }, [panZoom, store]);
  useEffect(() => {
    minimap.current?.update({ translateExtent, width, height, pannable: true, zoomable: true, zoomStep: 1 });
  }, [panZoom, translateExtent, width, height]);

  const viewBox = `${box.x} ${box.y} ${box.width} ${box.height}`;
  return (
    <Panel position="bottom-right" className="react-flow__minimap agora-minimap" data-testid="rf__minimap">
      <svg
        className="react-flow__minimap-svg agora-minimap-cards"
        {...MINIMAP_SIZE}
        viewBox={viewBox}
        aria-hidden="true"
      >
        <MiniCards nodes={nodes} color={color} radius={borderRadius} />
      </svg>
      <div ref={shade} className="agora-minimap-shade" role="img" aria-label={ariaLabel}>
        <div className="agora-minimap-view" />
      </div>
    </Panel>
  );
}

/** Moves the outline (a transform alone) and sizes it only when the zoom or the frame changed. */
function place(outline: HTMLElement, r: Rect) {
  outline.style.transform = `translate(${r.x}px, ${r.y}px)`;
  const width = `${r.width}px`;
  const height = `${r.height}px`;
  if (outline.style.width !== width) outline.style.width = width;
  if (outline.style.height !== height) outline.style.height = height;
}

const sameRect = (a: Rect, b: Rect) => a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;

const MiniCards = memo(function MiniCards(p: {
  nodes: readonly AgentFlowNode[];
  color: (node: AgentFlowNode) => string;
  radius: number;
}) {
  return p.nodes.map((n) =>
    n.measured?.width && n.measured.height ? (
      <MiniCard
        key={n.id}
        x={n.position.x}
        y={n.position.y}
        width={n.measured.width}
        height={n.measured.height}
        fill={p.color(n)}
        radius={p.radius}
      />
    ) : null,
  );
});

const MiniCard = memo(function MiniCard(p: {
  x: number;
  y: number;
  width: number;
  height: number;
  fill: string;
  radius: number;
}) {
  return (
    <rect
      className="react-flow__minimap-node"
      x={p.x}
      y={p.y}
      width={p.width}
      height={p.height}
      rx={p.radius}
      ry={p.radius}
      style={{ fill: p.fill }}
      shapeRendering="crispEdges"
    />
  );
});
