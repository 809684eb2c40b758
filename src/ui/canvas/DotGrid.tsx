// The canvas's dotted background (spec: 'a dotted background'), drawn as one layer of its own that a pan only
// moves. React Flow's <Background> sets its SVG pattern's offset on every pan frame, so the whole canvas was filled
// with the pattern again each frame: without a GPU, on a board zoomed out to fit 500 agents, half the raster of a
// pan frame (npm run bench canvas). Same look: dots every 18 board units, as wide as React Flow's, in its colour.
// Drawn inside <ReactFlow>; the position follows the store without a React render, the size re-renders on zoom.
import { useLayoutEffect, useRef, type CSSProperties } from 'react';
import { createPortal } from 'react-dom';
import { useStore, useStoreApi } from '@xyflow/react';

const GAP = 18;
const zoomOf = (s: { transform: [number, number, number] }) => s.transform[2];
const hostOf = (s: { domNode: Element | null }) => s.domNode?.parentElement ?? null;
const mod = (a: number, n: number) => ((a % n) + n) % n;

export function DotGrid() {
  const layer = useRef<HTMLDivElement>(null);
  const store = useStoreApi();
  const zoom = useStore(zoomOf);
  const host = useStore(hostOf);
  const gap = GAP * zoom;

  useLayoutEffect(() => {
    const place = ([x, y, z]: [number, number, number]) => {
      const g = GAP * z;
      // One tile up and left of the canvas, so a shift of up to a tile never uncovers an edge.
      if (layer.current) layer.current.style.transform = `translate(${mod(x, g) - g}px, ${mod(y, g) - g}px)`;
    };
    place(store.getState().transform);
    return store.subscribe((s, prev) => {
      if (s.transform !== prev.transform) place(s.transform);
    });
  }, [store, host]);

  const radius = zoom / 2; // React Flow's dot of size 1: half a board unit
  const style = {
    '--dot-gap': `${gap}px`,
    backgroundImage: `radial-gradient(circle at ${radius}px ${radius}px, var(--agora-dot-color) ${radius}px, transparent ${radius}px)`,
    backgroundSize: `${gap}px ${gap}px`,
  } as CSSProperties;
  // Beside React Flow's root, not in it: a composited layer under the board's own stacking context would make
  // every card that overlaps it a layer of its own; beside it, the board stays one layer above the grid.
  return host && createPortal(<div ref={layer} className="agora-dot-grid" style={style} aria-hidden="true" />, host);
}
