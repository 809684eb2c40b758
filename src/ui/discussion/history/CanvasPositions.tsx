// While History shows a stored discussion (opened, or at a replay's moment), the canvas rings each of its agents in
// the colour of the option it holds then, with the same words for screen readers as during a live run. When the
// view goes, the canvas shows the panel's positions again. Renders nothing itself.
import { useEffect } from 'react';
import type { WorkspaceActorRef } from '../../../machines/workspace.machine';
import type { Feed } from '../../../model/feed';
import { canvasPositionsOf } from '../../../model/positionSelectors';

export function CanvasPositions({ workspace, feed }: { workspace: WorkspaceActorRef | undefined; feed: Feed }) {
  const positions = feed.positions;
  useEffect(() => {
    workspace?.send({ type: 'discussion.positionsShow', positions: canvasPositionsOf(positions) });
  }, [workspace, positions]);
  useEffect(() => () => workspace?.send({ type: 'discussion.positionsShow', positions: null }), [workspace]);
  return null;
}
