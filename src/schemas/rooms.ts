import { z } from 'zod';
import { idText, text } from './common';

export { joinPath, sharePath } from './roomPaths';

// Rooms and links (README 'Sharing and rooms'): read-only share links, invites to a live discussion with a role,
// who is here now, and display names. The wire contract every part of that work shares; routes and frames below.

/** What a person may be in someone else's discussion: 'participant' talks (messages, @mentions, a vote when the
 * format gives a person one); 'watcher' only sees it live. The owner is the one who started it. */
export const ROOM_ROLES = ['participant', 'watcher'] as const;
export const roomRole = z.enum(ROOM_ROLES);
export type RoomRole = z.infer<typeof roomRole>;
export const memberRole = z.enum(['owner', ...ROOM_ROLES]);
export type MemberRole = z.infer<typeof memberRole>;

/** A display name: shown to others in rooms and shared pages, never the email. */
export const displayName = text().trim().min(1).max(40);
/** PATCH /auth/me */
export const profileUpdate = z.object({ display_name: displayName });
export type ProfileUpdate = z.infer<typeof profileUpdate>;

// ---- Share links ----------------------------------------------------------------------------------------------
/** POST /discussions/{id}/shares (body optional: `expires_in_days`, default SHARE_DEFAULT_DAYS) → 201. */
export const shareCreate = z.object({ expires_in_days: z.number().int().min(1).max(365).optional() });
export const shareCreated = z.object({ id: idText(), url: z.string(), expires_at: z.string().nullable() });
export type ShareCreated = z.infer<typeof shareCreated>;
/** GET /discussions/{id}/shares: the links still valid (the token itself is never shown again: `url` is absent). */
export const shareRow = z.object({
  id: idText(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_opened_at: z.string().nullable().optional(),
});
export const shareList = z.object({ shares: z.array(shareRow) });
export type ShareRow = z.infer<typeof shareRow>;
export const SHARE_INVALID_TEXT = 'This link is not valid';

// ---- Invites --------------------------------------------------------------------------------------------------
/** POST /discussions/{id}/invites { role } → 201 { id, url, role }; `url` is `/join/{token}` (signed-in users). */
export const inviteCreate = z.object({ role: roomRole });
export const inviteCreated = z.object({ id: idText(), url: z.string(), role: roomRole });
export type InviteCreated = z.infer<typeof inviteCreated>;
/** POST /invites/{token}/accept → the discussion the invite opens and the role it gives. */
export const inviteAccepted = z.object({
  discussion_id: idText(),
  role: roomRole,
  /** Which panel shows it: the standard panel or the hybrid one. */
  panel: z.enum(['standard', 'hybrid']),
  /** The socket path it runs on (a member joins there); absent from servers before it, then the panel's default. */
  endpoint: z.string().max(100).optional(),
});
export type InviteAccepted = z.infer<typeof inviteAccepted>;

// ---- In the room: on the discussion sockets -------------------------------------------------------------------
/**
 * A member who is not the owner opens the panel's socket (same endpoint, same ticket rule) and sends this as the
 * first message instead of a configuration: it attaches to the running discussion with the role of their invite.
 */
export const roomJoinMessage = z.object({ type: z.literal('room_join'), discussion_id: idText() });

/** A seat of the format a person can hold (today the owner's; the owner may give it to a participant). */
export const ROOM_SEATS = ['moderator', 'judge'] as const;
export const roomSeat = z.enum(ROOM_SEATS);
export type RoomSeat = z.infer<typeof roomSeat>;

export const roomPerson = z.object({
  user_id: idText(),
  display_name: z.string(),
  role: memberRole,
  /** A CSS colour, the same for this person in every room (from their id). */
  colour: z.string(),
  typing: z.boolean(),
  seats: z.array(roomSeat).default([]),
});
export type RoomPerson = z.infer<typeof roomPerson>;

/** Who is here now: sent to every member whenever someone joins, leaves, types, or a seat or role changes. */
export const roomPeopleFrame = z.object({
  type: z.literal('room_people'),
  people: z.array(roomPerson),
  /** The receiver's own id and role (so a view knows whether to show the message box and the owner's controls). */
  you: z.object({ user_id: idText(), role: memberRole }),
});

/** A person's message, as every member sees it: the author's display name and colour, never an email. */
export const roomMessageFrame = z.object({
  type: z.literal('room_message'),
  message_id: idText(),
  text: z.string(),
  author: z.object({ user_id: idText(), display_name: z.string(), colour: z.string() }),
  at: z.string(),
});

export const ROOM_SERVER_FRAMES = [roomPeopleFrame, roomMessageFrame] as const;

/** Client → server in a room. `room_typing` from any member who may talk; the others only from the owner. */
export const roomTypingMessage = z.object({ type: z.literal('room_typing'), typing: z.boolean() });
export const roomSeatMessage = z.object({ type: z.literal('room_seat'), seat: roomSeat, user_id: idText() });
export const roomRemoveMessage = z.object({ type: z.literal('room_remove'), user_id: idText() });
export const ROOM_CLIENT_MESSAGES = [roomTypingMessage, roomSeatMessage, roomRemoveMessage] as const;

/** The close code and text of a person the owner removed (application range 4000–4999). */
export const CLOSE_REMOVED_FROM_ROOM = 4003;
export const REMOVED_FROM_ROOM_TEXT = 'You were removed from this discussion';

/** What a person's messages and the room's lists may hold. */
export const ROOM_LIMITS = {
  /** People in one room besides the owner (participants and watchers together). */
  maxMembers: 1_000,
  /** Invites one discussion may have outstanding. */
  maxInvites: 50,
  /** Share links one discussion may have. */
  maxShares: 20,
  /** Days a share link lives unless asked otherwise. */
  shareDefaultDays: 30,
  /** Days an invite lives. */
  inviteDays: 7,
} as const;
