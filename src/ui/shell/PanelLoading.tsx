// What the panel's place shows for the moment its code is being fetched.
import { DISCUSSION_PANEL_WIDTH_PX } from '../../schemas/constants';

export function PanelLoading() {
  return (
    <aside
      className="discussion-panel discussion-panel--loading"
      style={{ width: DISCUSSION_PANEL_WIDTH_PX }}
      aria-busy="true"
      aria-label="Discussion"
    >
      <p className="muted">Loading the discussion panel…</p>
    </aside>
  );
}
