// What the person sends into a run, in both panels: the format's own controls while it is live (give the floor,
// judge), and the message box when they have a part in it. In a room the seats follow the people (the owner may give
// the judge's seat away), a watcher has no message box but a line saying so, and typing shows the others a dot.
import { useSelector } from '@xstate/react';
import type { HybridDiscussionActorRef, StandardDiscussionActorRef } from '../../../machines/discussionPanel.machine';
import { personSeat, type FormatAgent } from '../../../model/formats';
import { roomSeatOf } from '../../../model/room';
import * as sel from '../../../machines/discussionPanel.selectors';
import * as roomSel from '../../../machines/rooms.selectors';
import { FormatControls } from './FormatControls';
import { HumanMessageBox } from './HumanMessageBox';

export function RunInput({
  discussion,
  agents,
  live,
  showHuman,
  canSendHuman,
}: {
  discussion: StandardDiscussionActorRef | HybridDiscussionActorRef;
  /** Who takes part (the controls' choices, the @names). */
  agents: FormatAgent[];
  live: boolean;
  showHuman: boolean;
  canSendHuman: boolean;
}) {
  const runFormat = useSelector(discussion, sel.selectRunFormat);
  const floorQueue = useSelector(discussion, (s) => s.context.feed.floorQueue);
  const room = useSelector(discussion, roomSel.selectRoom);
  const joined = useSelector(discussion, roomSel.selectIsJoinedRun);
  const join = useSelector(discussion, (s) => s.context.run?.room);
  const mayTalk = useSelector(discussion, roomSel.selectMayTalk);
  const inRoom = room !== null || joined;
  const roomSeat = inRoom
    ? roomSeatOf(
        room,
        join,
        personSeat(
          runFormat,
          agents.map((a) => a.id),
        ),
      )
    : undefined;
  return (
    <>
      {live && (
        <FormatControls
          format={runFormat}
          agents={agents}
          queued={floorQueue}
          roomSeat={roomSeat}
          mayEnd={!joined}
          onSend={(frame) => discussion.send({ type: 'panel.format.send', frame })}
        />
      )}
      {live && !mayTalk ? (
        <p className="room-watching" role="note">
          You are watching: the discussion shows here live; only participants send messages.
        </p>
      ) : (
        (showHuman || (live && joined)) && (
          <HumanMessageBox
            enabled={canSendHuman}
            names={agents.map((a) => a.name)}
            onSend={(text) => discussion.send({ type: 'panel.human.send', text })}
            onType={inRoom ? () => discussion.send({ type: 'panel.room.typing' }) : undefined}
          />
        )
      )}
    </>
  );
}
