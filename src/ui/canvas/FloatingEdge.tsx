// A connection drawn border to border between its two nodes (edgeGeometry.ts), without an arrowhead: a connection
// lets both agents hear each other (when the discussion's 'Hear only connected agents' is on). It draws from its data
// alone (the two boxes ride on it, flowElements.ts): no subscription to React Flow's store, whose every viewport
// change on a pan would otherwise run a selector per edge end.
// Its tone (from the workspace: an edge of a selected agent, or of the agent speaking now) sets its colour;
// the speaker's edges are drawn live (a moving dash, still when the user prefers reduced motion).
import { memo } from 'react';
import { BaseEdge, type Edge as FlowEdge, type EdgeProps } from '@xyflow/react';
import type { EdgeData } from './flowElements';
import { floatingLinePath } from './edgeGeometry';

export type FloatingFlowEdge = FlowEdge<EdgeData, 'floating'>;

export const FloatingEdge = memo(function FloatingEdge({ id, data, selected }: EdgeProps<FloatingFlowEdge>) {
  // Two nodes on top of each other have no line between them: the edge keeps its element with an empty path, so
  // the board's DOM does not change shape when nodes are measured or dragged apart (an inserted element costs React
  // a walk over its siblings).
  const path = data ? floatingLinePath(data.from, data.to, 3) : null;
  const tone = selected ? 'picked' : (data?.tone ?? 'normal');
  return <BaseEdge id={id} path={path ?? ''} className={`agora-edge agora-edge--${tone}`} interactionWidth={16} />;
});

export const edgeTypes = { floating: FloatingEdge };
