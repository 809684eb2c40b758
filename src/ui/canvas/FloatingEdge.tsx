// A connection drawn border to border between its two nodes (edgeGeometry.ts), with an arrow at the target. It draws
// from its data alone (the two boxes ride on it, flowElements.ts): no subscription to React Flow's store, whose
// every viewport change on a pan would otherwise run a selector per edge end.
// Its tone (from the workspace: an edge of a selected agent, or of the agent speaking now) sets its colour;
// the speaker's edges are drawn live (a moving dash, still when the user prefers reduced motion).
import { memo } from 'react';
import { BaseEdge, type Edge as FlowEdge, type EdgeProps } from '@xyflow/react';
import type { EdgeData, EdgeTone } from './flowElements';
import { floatingPath } from './edgeGeometry';

export type FloatingFlowEdge = FlowEdge<EdgeData, 'floating'>;

export const FloatingEdge = memo(function FloatingEdge({ id, data, selected }: EdgeProps<FloatingFlowEdge>) {
  if (!data) return null;
  const path = floatingPath(data.from, data.to, 3);
  if (!path) return null;
  const tone = selected ? 'picked' : data.tone;
  return (
    <BaseEdge
      id={id}
      path={path}
      className={`agora-edge agora-edge--${tone}`}
      markerEnd={`url(#agora-arrow-${tone})`}
      interactionWidth={16}
    />
  );
});

export const edgeTypes = { floating: FloatingEdge };

const ARROW_COLOURS: Record<EdgeTone | 'picked', string> = {
  normal: '#64748b',
  selected: '#2563eb',
  speaking: '#15803d',
  picked: '#dc2626',
};

/** The arrowheads the edges point with, one per tone; drawn once per canvas. */
export function EdgeMarkers() {
  return (
    <svg className="agora-edge-markers" width="0" height="0" aria-hidden="true" focusable="false">
      <defs>
        {Object.entries(ARROW_COLOURS).map(([tone, colour]) => (
          <marker key={tone} id={`agora-arrow-${tone}`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" markerUnits="strokeWidth" orient="auto-start-reverse">
            <path d="M0,0 L10,5 L0,10 z" fill={colour} />
          </marker>
        ))}
      </defs>
    </svg>
  );
}
