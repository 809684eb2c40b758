import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { MemberRole, roomRemoveMessage, roomSeatMessage } from '../../src/schemas/rooms';
import type { AppContext } from '../context';
import type { DiscussionSession } from '../engine/session';
import { incident } from '../http/incident';
import { personOf, type Person } from './identity';
import type { Seat } from './room';
import { giveSeat, markRemoved } from './store';

// Who may send what in a room (README 'Sharing and rooms'). The owner sends everything a panel sends, and alone
// stops, gives a seat and removes a person; a participant sends messages (with @mentions), types, and uses a seat
// the owner gave them; a watcher sends nothing. The format's person seats: the moderator's seat gives and cancels
// the floor and ends the discussion, the judge's seat votes. Whoever does not hold a seat is told who does.

/** Who sent a frame: the owner (their own socket, or a socket that joined as the owner) or a member. */
export interface Sender {
  userId: string;
  role: MemberRole;
}

const SEAT_OF: Record<string, Seat> = {
  give_floor: 'moderator',
  cancel_floor: 'moderator',
  end_discussion: 'moderator',
  judge_vote: 'judge',
};
/** Frames a panel sends by itself (audio played): from a member they change nothing and are not answered. */
const QUIET = new Set(['status', 'audio_acknowledgment']);
const SEAT_WORDS: Record<Seat, string> = { moderator: "the moderator's seat", judge: "the judge's seat" };

/**
 * Whether `from` may send a frame of this type in this discussion: null when it may, 'quiet' when it is ignored
 * without a word, or the sentence that answers it.
 */
export function refusal(session: DiscussionSession, from: Sender, type: string): string | 'quiet' | null {
  const seat = SEAT_OF[type];
  if (seat) {
    if (from.role === 'watcher') return 'Watchers only watch: this message was not sent.';
    const holder = session.room.seatHolder(seat);
    if (holder === from.userId) return null;
    const name =
      holder === session.userId
        ? 'the owner'
        : (session.room.members.get(holder)?.person.display_name ?? 'someone else');
    return `Only the holder of ${SEAT_WORDS[seat]} may do that, and ${name} holds it.`;
  }
  if (from.role === 'owner') return null;
  if (QUIET.has(type)) return 'quiet';
  if (from.role === 'watcher') return 'Watchers only watch: this message was not sent.';
  if (type === 'human_message' || type === 'room_typing') return null;
  if (type === 'stop') return 'Only the owner may stop this discussion.';
  return 'Only the owner may do that in this discussion.';
}

/** The person of a sender as the room knows them (loaded once if not). */
async function personFor(ctx: AppContext, session: DiscussionSession, userId: string): Promise<Person | null> {
  const room = session.room;
  if (userId === session.userId) return (room.owner ??= await personOf(ctx.db, userId));
  return room.members.get(userId)?.person ?? personOf(ctx.db, userId);
}

/**
 * A person's message, accepted: as a `room_message` stored with the discussion's frames (so every member, here or
 * on another process, sees it in order with the turns). Only once the room has members: a discussion nobody joined
 * sends exactly what it sent before rooms.
 */
export async function postMessage(ctx: AppContext, session: DiscussionSession, userId: string, text: string) {
  if (!session.room.opened) return;
  const author = await personFor(ctx, session, userId);
  if (!author) return;
  session.notify({ type: 'room_message', message_id: randomUUID(), text, author, at: new Date().toISOString() });
}

/** The owner gives a seat of the format to a participant (or takes it back: their own id). */
export async function seat(
  ctx: AppContext,
  session: DiscussionSession,
  frame: z.infer<typeof roomSeatMessage>,
  tell: (message: string) => void,
) {
  const s = frame.seat;
  if (!session.room.seatsOffered().includes(s))
    return tell(`This discussion's format has no ${SEAT_WORDS[s]} for a person.`);
  const toOwner = frame.user_id === session.userId;
  const m = session.room.members.get(frame.user_id);
  if (!toOwner && m?.role !== 'participant') return tell('Only a participant in this room can be given a seat.');
  try {
    await giveSeat(ctx.db, session.discussionId, s, toOwner ? null : frame.user_id);
    // The room's list says who holds it now, here and on the other processes.
    session.room.setSeat(s, frame.user_id);
  } catch (err) {
    tell(
      incident(session.log, err, 'The seat was not given because of a server error', {
        discussion: session.discussionId,
      }),
    );
  }
}

/** The owner removes a person: closed with CLOSE_REMOVED_FROM_ROOM on every process; they cannot come back. */
export async function remove(
  ctx: AppContext,
  session: DiscussionSession,
  frame: z.infer<typeof roomRemoveMessage>,
  tell: (message: string) => void,
) {
  if (frame.user_id === session.userId) return tell('The owner cannot be removed; Stop ends the discussion.');
  if (!session.room.members.has(frame.user_id)) return tell('That person is not in this room.');
  try {
    await markRemoved(ctx.db, session.discussionId, frame.user_id);
    session.room.remove(frame.user_id);
    ctx.rooms?.announce(session.discussionId, { removed: frame.user_id });
  } catch (err) {
    tell(
      incident(session.log, err, 'The person was not removed because of a server error', {
        discussion: session.discussionId,
      }),
    );
  }
}
