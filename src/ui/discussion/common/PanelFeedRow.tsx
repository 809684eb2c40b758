// One row of a live panel's feed: it selects the item, its tool calls and the hybrid mode from the panel's actor and
// sends the answer to a waiting tool call. Given the audio queue (the hybrid panel), the row that speaks is marked.
import { shallowEqual, useSelector } from '@xstate/react';
import { useCallback } from 'react';
import type { AudioQueueActorRef } from '../../../machines/audioQueue.machine';
import { selectCurrentItem } from '../../../machines/audioQueue.selectors';
import type { HybridDiscussionActorRef, StandardDiscussionActorRef } from '../../../machines/discussionPanel.machine';
import type { WorkspaceActorRef } from '../../../machines/workspace.machine';
import { toolCallsOf, turnWithoutTools } from '../../../model/feed';
import { selectItem } from '../../../model/feedSelectors';
import { FeedRowView } from './FeedRow';

export function PanelFeedRow({
  discussion,
  workspace,
  audio,
  id,
}: {
  discussion: StandardDiscussionActorRef | HybridDiscussionActorRef;
  workspace: WorkspaceActorRef | undefined;
  audio?: AudioQueueActorRef;
  id: string;
}) {
  const item = useSelector(discussion, (s) => selectItem(s.context.feed, id));
  const mode = useSelector(discussion, (s) => s.context.feed.session.mode);
  const playing = useSelector(audio, (s) => {
    const current = s ? selectCurrentItem(s) : null;
    return (
      !!current && !!item && (current.messageId === item.id || (!!item.audioId && current.audioId === item.audioId))
    );
  });
  const calls = useSelector(discussion, (s) => toolCallsOf(s.context.feed, id), shallowEqual);
  const withoutTools = useSelector(discussion, (s) => turnWithoutTools(s.context.feed, id));
  const onToolAnswer = useCallback(
    (callId: string, approve: boolean) => discussion.send({ type: 'panel.tool.answer', id: callId, approve }),
    [discussion],
  );
  return item ? (
    <FeedRowView
      item={item}
      workspace={workspace}
      nowPlaying={playing}
      mode={mode}
      calls={calls}
      onToolAnswer={onToolAnswer}
      withoutTools={withoutTools}
    />
  ) : null;
}
