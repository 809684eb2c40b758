// One row of the feed: a turn's bubble, or a light row for what is not a turn. The panels and History render
// rows through this; the workspace (when there is one) gives each speaker its colour and avatar.
import type { WorkspaceActorRef } from '../../../machines/workspace.machine';
import type { FeedItem } from '../../../model/feed';
import type { HistoryParticipant } from '../../../schemas/history';
import { isMessageKind } from '../../../shared/messageCount';
import { lookOf, useWorkspaceAgent } from './agentLook';
import { FeedNote } from './FeedNote';
import { TurnBubble } from './TurnBubble';
import type { ToolCallEntry } from '../../../model/feed/types';
import type { ToolAnswer } from './ToolCallRows';

interface Props {
  item: FeedItem;
  workspace?: WorkspaceActorRef;
  nowPlaying?: boolean;
  /** A stored discussion's agents as they were when it started (History): their look wins over a re-derived one. */
  participants?: readonly HistoryParticipant[];
  /** The hybrid discussion's mode (Structured draws each turn as its message card). */
  mode?: string | null;
  /** The turn's tool calls, and where a waiting one is answered (a live panel only). */
  calls?: readonly ToolCallEntry[];
  onToolAnswer?: ToolAnswer;
  /** The turn's model could not call its agent's tools (turnWithoutTools). */
  withoutTools?: boolean;
}

export function FeedRowView(props: Props) {
  const { item, workspace, nowPlaying, participants, mode, calls, onToolAnswer, withoutTools } = props;
  const agent = useWorkspaceAgent(workspace, item.agentId, item.agentName);
  if (!isMessageKind(item.kind)) return <FeedNote item={item} />;
  const stored =
    participants?.find((p) => p.id === item.agentId) ?? participants?.find((p) => p.name === item.agentName);
  const base = lookOf(
    stored ?? agent ?? { id: item.agentId ?? item.agentName ?? 'you', name: item.agentName ?? undefined },
  );
  // The role: the stored discussion's, else the agent's on the canvas (frames of some kinds carry none); likewise
  // whether it speaks with the demo model, for a discussion stored before participants were.
  const live = agent ? lookOf(agent) : null;
  const look = live
    ? { ...base, role: base.role || live.role, demo: base.demo || (!stored?.model && live.demo) }
    : base;
  // A turn that began with a tool call may not carry its speaker's name yet: the canvas knows it.
  const shown = item.agentName == null && agent?.name ? { ...item, agentName: agent.name } : item;
  return (
    <TurnBubble
      item={shown}
      look={look}
      nowPlaying={nowPlaying}
      mode={mode}
      calls={calls}
      onToolAnswer={onToolAnswer}
      withoutTools={withoutTools}
    />
  );
}
