// The frame both panels draw (docs/product.md#discussions-screens): the side panel at its width (wider when
// expanded), and the question Start asks when a selected agent's model server is not answering.
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { HybridDiscussionActorRef, StandardDiscussionActorRef } from '../../../machines/discussionPanel.machine';
import * as sel from '../../../machines/discussionPanel.selectors';
import { DISCUSSION_PANEL_EXPANDED_WIDTH_PX, DISCUSSION_PANEL_WIDTH_PX } from '../../../schemas/constants';
import { StartQuestion } from './StartQuestion';

export function PanelFrame({
  discussion,
  variant,
  label,
  expanded,
  children,
}: {
  discussion: StandardDiscussionActorRef | HybridDiscussionActorRef;
  variant: 'standard' | 'hybrid';
  /** The panel's accessible name. */
  label: string;
  expanded: boolean;
  children: ReactNode;
}) {
  const asking = useSelector(discussion, sel.selectStartQuestion);
  return (
    <aside
      className={`discussion-panel discussion-panel--${variant}${expanded ? ' discussion-panel--expanded' : ''}`}
      style={{ width: expanded ? DISCUSSION_PANEL_EXPANDED_WIDTH_PX : DISCUSSION_PANEL_WIDTH_PX }}
      aria-label={label}
    >
      {children}
      <StartQuestion
        unreachable={asking}
        onConfirm={() => discussion.send({ type: 'panel.start.confirm' })}
        onCancel={() => discussion.send({ type: 'panel.start.cancel' })}
      />
    </aside>
  );
}
