// The room's parts inside a discussion panel (both panels): the Invite button for the header, and 'Here now' with the
// owner's controls. Each selects the panel's snapshot and sends the panel's (or the Invite chart's) events.
import { useSelector } from '@xstate/react';
import type { HybridDiscussionActorRef, StandardDiscussionActorRef } from '../../machines/discussionPanel.machine';
import { systemActor } from '../../machines/kit/systemRegistry';
import type {} from '../../machines/invite.machine';
import * as panelSel from '../../machines/discussionPanel.selectors';
import * as sel from '../../machines/rooms.selectors';
import { personSeat } from '../../model/formats';
import type { RoomSeat } from '../../schemas/rooms';
import { HereNow } from './HereNow';

type Discussion = StandardDiscussionActorRef | HybridDiscussionActorRef;

export function InviteButton({ discussion }: { discussion: Discussion }) {
  // The Invite chart is the panel's neighbour in the app's system (spawned with it after sign-in).
  const invite = systemActor(discussion.system, 'invite');
  const may = useSelector(discussion, sel.selectMayInvite);
  const sessionId = useSelector(discussion, sel.selectInviteSessionId);
  if (!may || !invite || !sessionId) return null;
  return (
    <button
      type="button"
      className="icon-button"
      aria-haspopup="dialog"
      title="Invite someone to this discussion"
      onClick={() => invite.send({ type: 'invite.open', sessionId })}
    >
      Invite
    </button>
  );
}

/** The seats the run's format gives a person: the ones the owner may hand to a participant. */
function formatSeats(seat: { givesFloor: boolean; judges: boolean } | null): RoomSeat[] {
  if (!seat) return [];
  return [...(seat.givesFloor ? (['moderator'] as const) : []), ...(seat.judges ? (['judge'] as const) : [])];
}

export function RoomPeople({ discussion }: { discussion: Discussion }) {
  const room = useSelector(discussion, sel.selectRoom);
  const shows = useSelector(discussion, sel.selectShowsRoom);
  const owner = useSelector(discussion, sel.selectOwnsRoom);
  const format = useSelector(discussion, panelSel.selectRunFormat);
  const agentIds = useSelector(discussion, panelSel.selectRunAgentIds);
  if (!room || !shows) return null;
  return (
    <HereNow
      room={room}
      owner={owner}
      seats={owner ? formatSeats(personSeat(format, agentIds)) : []}
      onSeat={(seat, userId) => discussion.send({ type: 'panel.room.seat', seat, userId })}
      onRemove={(userId) => discussion.send({ type: 'panel.room.remove', userId })}
    />
  );
}
