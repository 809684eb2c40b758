// The right-hand 450 px panel until the discussion panels land.
import { DISCUSSION_PANEL_WIDTH_PX } from '../../schemas/constants';

export function DiscussionPlaceholder({ hybrid }: { hybrid: boolean }) {
  return (
    <aside
      className="discussion-panel"
      style={{ width: DISCUSSION_PANEL_WIDTH_PX }}
      aria-label={hybrid ? 'Hybrid discussion' : 'Discussion'}
    >
      <h2>{hybrid ? 'Hybrid discussion' : 'Discussion'}</h2>
      <p className="muted">
        The {hybrid ? 'hybrid' : 'standard'} discussion panel arrives with the discussion feature. Select two or more
        agents on the canvas to take part.
      </p>
    </aside>
  );
}
