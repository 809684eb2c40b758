// While History shows a stored discussion (opened, or at a replay's moment), the canvas rings each of its agents in
// the colour of the option it holds then, with the same words for screen readers as during a live run. When the
// view goes, the canvas shows the panel's positions again. Renders nothing itself. The marks are sent only when
// they change: a replay step usually moves confidences, not options, and the canvas need not redraw for that.
import { useEffect, useMemo } from 'react';
import type { WorkspaceActorRef } from '../../../machines/workspace.machine';
import type { Feed } from '../../../model/feed';
import { canvasPositionsOf } from '../../../model/positionSelectors';

export function CanvasPositions({ workspace, feed }: { workspace: WorkspaceActorRef | undefined; feed: Feed }) {
  const marks = canvasPositionsOf(feed.positions);
  const key = JSON.stringify(marks);
  // The same marks as text keep the object the canvas already has: a new equal object is no change.
  const same = useMemo(() => marks, [key]);
  useEffect(() => {
    workspace?.send({ type: 'discussion.positionsShow', positions: same });
  }, [workspace, same]);
  useEffect(() => () => workspace?.send({ type: 'discussion.positionsShow', positions: null }), [workspace]);
  return null;
}
