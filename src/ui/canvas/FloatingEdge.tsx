// A connection drawn border to border between its two nodes (edgeGeometry.ts), with an arrowhead at the target drawn
// in the same path (no SVG marker, which is one more drawing per edge on every pan frame). It draws from its data
// alone (the two boxes ride on it, flowElements.ts): no subscription to React Flow's store, whose every viewport
// change on a pan would otherwise run a selector per edge end.
// Its tone (from the workspace: an edge of a selected agent, or of the agent speaking now) sets its colour;
// the speaker's edges are drawn live (a moving dash, still when the user prefers reduced motion).
import { memo } from 'react';
import { BaseEdge, type Edge as FlowEdge, type EdgeProps } from '@xyflow/react';
import type { EdgeData } from './flowElements';
import { floatingArrowPath } from './edgeGeometry';

export type FloatingFlowEdge = FlowEdge<EdgeData, 'floating'>;

export const FloatingEdge = memo(function FloatingEdge({ id, data, selected }: EdgeProps<FloatingFlowEdge>) {
  // Two nodes on top of each other have no line between them: the edge keeps its element with an empty path, so
  // the board's DOM does not change shape when nodes are measured or dragged apart (an inserted element costs React
  // a walk over its siblings).
  const path = data ? floatingArrowPath(data.from, data.to, 3) : null;
  const tone = selected ? 'picked' : (data?.tone ?? 'normal');
  // The speaker's edge is dashed and moving: its arrowhead is drawn apart, whole.
  const live = tone === 'speaking';
  return (
    <>
      <BaseEdge
        id={id}
        path={!path ? '' : live ? path.line : `${path.line} ${path.head}`}
        className={`agora-edge agora-edge--${tone}`}
        interactionWidth={16}
      />
      {live && path && <path d={path.head} className="react-flow__edge-path agora-edge agora-edge--speaking-head" />}
    </>
  );
});

export const edgeTypes = { floating: FloatingEdge };
