// Keeps every agent in view of the part of the canvas the user can see. The canvas shares the screen with the
// discussion panel (and its own overlay boxes on the left): when the board is first drawn with agents, and
// whenever the canvas's size changes (the panel opens or closes, the window resizes), the view is fitted to the
// agents if any of them is not fully inside the free area, or if the view is still the one fitted here (the user
// has not panned or zoomed since), so the agents grow back when the panel closes. A user's own pan and zoom are
// kept while every agent stays visible. View-local: it moves the viewport only, nothing is stored.
import { useCallback, useEffect, useRef, type RefObject } from 'react';
import type { FitViewOptions, ReactFlowInstance } from '@xyflow/react';
import type { AgentFlowNode } from './AgentNode';

interface Area {
  width: number;
  height: number;
}

/** Whether every node's box lies inside the free part of the canvas at this viewport. */
export function allVisible(
  nodes: readonly { position: { x: number; y: number }; measured?: { width?: number; height?: number } }[],
  viewport: { x: number; y: number; zoom: number },
  area: Area,
  inset: { top: number; right: number; bottom: number; left: number },
): boolean {
  return nodes.every((n) => {
    const w = (n.measured?.width ?? 200) * viewport.zoom;
    const h = (n.measured?.height ?? 96) * viewport.zoom;
    const x = n.position.x * viewport.zoom + viewport.x;
    const y = n.position.y * viewport.zoom + viewport.y;
    return x >= inset.left && y >= inset.top && x + w <= area.width - inset.right && y + h <= area.height - inset.bottom;
  });
}

export function useFitVisible(
  surface: RefObject<HTMLDivElement | null>,
  /** The instance React Flow hands to onInit (null until then). */
  flowRef: RefObject<ReactFlowInstance<AgentFlowNode> | null>,
  hasAgents: boolean,
  options: (area: Area) => FitViewOptions & { inset: { top: number; right: number; bottom: number; left: number } }) {
  const optionsRef = useRef(options);
  /** The view is the one fitted here (no pan or zoom by the user since). */
  const fitted = useRef(false);
  optionsRef.current = options;

  useEffect(() => {
    const el = surface.current;
    if (!el) return;
    /** Fits when an agent is hidden; false while the nodes are not measured yet (nothing to judge). */
    const fitIfHidden = (): boolean => {
      const flow = flowRef.current;
      if (!flow) return false;
      const area = { width: el.clientWidth, height: el.clientHeight };
      // React Flow's own record has the measured size (the node objects get it a render later).
      const nodes = flow.getNodes().map((n) => ({ position: n.position, measured: flow.getInternalNode(n.id)?.measured }));
      if (!area.width || !area.height || nodes.length === 0 || nodes.some((n) => !n.measured?.width)) return false;
      const { inset, ...fit } = optionsRef.current(area);
      if (fitted.current || !allVisible(nodes, flow.getViewport(), area, inset)) {
        fitted.current = true;
        void flow.fitView(fit);
      }
      return true;
    };
    const observer = new ResizeObserver(() => fitIfHidden());
    observer.observe(el);
    // The first look waits for the nodes to be measured (a frame or two after they arrive).
    let frame = 0;
    let tries = 0;
    const firstLook = () => {
      if (!fitIfHidden() && tries++ < 60) frame = requestAnimationFrame(firstLook);
    };
    if (hasAgents) frame = requestAnimationFrame(firstLook);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [surface, flowRef, hasAgents]);

  /** Call on a pan or zoom the user made: from then on their view is kept while every agent stays visible. */
  return useCallback(() => {
    fitted.current = false;
  }, []);
}
