// The room of a live discussion as a panel keeps it (README 'Sharing and rooms'): who is here now and what the reader
// is in it, from the room_people frames; what a joined run was opened with (an accepted invite). The views' answers
// — may this reader type, is it the owner, which seats does it hold — are read from here. Pure.
import type { z } from 'zod';
import {
  ROOM_LIMITS,
  type MemberRole,
  type RoomPerson,
  type RoomRole,
  type RoomSeat,
  type roomPeopleFrame,
  type roomJoinMessage,
} from '../schemas/rooms';
import { DISCUSSION_MESSAGES } from '../schemas/messages';

export interface RoomState {
  /** Everyone here now, the reader too (bounded: the owner and ROOM_LIMITS.maxMembers others). */
  people: RoomPerson[];
  /** The reader, as the server knows them; null until the first room_people. */
  you: { user_id: string; role: MemberRole } | null;
}

/** What an accepted invite opens: the discussion the socket attaches to and the role it gives. */
export interface RoomJoin {
  discussionId: string;
  role: RoomRole;
  /** The socket path the discussion runs on (the invite's answer says); the panel's default when not said. */
  endpoint?: string;
}

type RoomPeopleFrame = z.infer<typeof roomPeopleFrame>;

/** The room after a frame: a room_people frame replaces the list; any other frame leaves it as it was. */
export function roomAfter(room: RoomState | null, frame: unknown): RoomState | null {
  if ((frame as { type?: unknown } | null)?.type !== 'room_people') return room;
  const f = frame as RoomPeopleFrame;
  return { people: f.people.slice(0, ROOM_LIMITS.maxMembers + 1), you: f.you };
}

/** The first message of a joined run's socket (again on a reconnect): attach to the discussion, not configure one. */
export const roomJoinFrame = (join: RoomJoin): z.infer<typeof roomJoinMessage> => ({
  type: 'room_join',
  discussion_id: join.discussionId,
});

/** What the reader is: the server's word once it came, else the invite's role; a run started here is the owner's. */
export function roleOf(room: RoomState | null, join: RoomJoin | undefined): MemberRole {
  return room?.you?.role ?? join?.role ?? 'owner';
}

/** A watcher sees the discussion live and has no message box. */
export const mayTalk = (role: MemberRole) => role !== 'watcher';

/** The seats the reader holds, as the room says (empty before the first room_people). */
export function seatsOf(room: RoomState | null): RoomPerson['seats'] {
  const me = room?.you ? room.people.find((p) => p.user_id === room.you!.user_id) : undefined;
  return me?.seats ?? [];
}

/** Others are in the room with the reader (else the panel is the one person's, as before rooms). */
export const hasOthers = (room: RoomState | null) => !!room && room.people.some((p) => p.user_id !== room.you?.user_id);

/** A typing dot goes out after this long without a key (discussionPanel.states.ts, the `typing` region). */
export const ROOM_TYPING_QUIET_MS = 3_000;

/** Whether a person in the room is the reader: the reader's own row says 'you' and has no owner's controls. */
export const isReader = (room: RoomState | null, userId: string) => room?.you?.user_id === userId;

/** The owner's controls show for the owner of a room with others in it. */
export const ownsRoom = (room: RoomState | null, join: RoomJoin | undefined) =>
  roleOf(room, join) === 'owner' && hasOthers(room);

/**
 * What the reader does in the format while in a room: the owner keeps the format's person seats that no one else
 * holds; anyone else has the seats the room says they hold (a participant given the judge's seat votes).
 */
export function roomSeatOf(
  room: RoomState | null,
  join: RoomJoin | undefined,
  ownSeat: { givesFloor: boolean; judges: boolean } | null,
): { givesFloor: boolean; judges: boolean } | null {
  const role = roleOf(room, join);
  const heldByOthers = new Set(
    (room?.people ?? []).filter((p) => p.user_id !== room?.you?.user_id).flatMap((p) => p.seats),
  );
  if (role === 'owner') {
    if (!ownSeat) return null;
    return {
      givesFloor: ownSeat.givesFloor && !heldByOthers.has('moderator'),
      judges: ownSeat.judges && !heldByOthers.has('judge'),
    };
  }
  const mine = seatsOf(room);
  return { givesFloor: mine.includes('moderator'), judges: mine.includes('judge') };
}

/** The seat a format's wait note is for: the judge's vote, or the floor (the moderator's). */
const NOTE_SEATS: Partial<Record<string, RoomSeat>> = { judge: 'judge', waiting: 'moderator' };

/**
 * A format's wait note as this reader should read it. The server words it for the person the format waits for
 * ('Waiting for your vote as judge…'); in a room everyone else reads whom it waits for: the person holding that
 * seat, or the owner when no one else holds it (the owner keeps the seats not given away). `joined`: this reader
 * came by an invite.
 */
export function noteForReader<T extends { type: string }>(room: RoomState | null, frame: T, joined = false): T {
  if (frame.type !== 'format_note') return frame;
  const seat = NOTE_SEATS[(frame as { kind?: string }).kind ?? ''];
  // Alone, or the owner before anyone came: the note is the reader's. Someone who joined hears the discussion so far
  // before the room's first room_people, holding no seat yet.
  if (!seat || (!room?.you && !joined)) return frame;
  const people = room?.you ? room.people : [];
  const holder = people.find((p) => p.seats.includes(seat)) ?? people.find((p) => p.role === 'owner');
  if (room?.you && (holder?.user_id === room.you.user_id || (!holder && room.you.role === 'owner'))) return frame;
  const name = holder?.display_name;
  const text = seat === 'judge' ? DISCUSSION_MESSAGES.waitingForJudge(name) : DISCUSSION_MESSAGES.waitingForFloor(name);
  return { ...frame, text };
}
