import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { ROOM_LIMITS, type MemberRole, type RoomRole } from '../../src/schemas/rooms';
import type { Db, Queryable } from '../db/db';

// Invites and members in SQL (migration 022_rooms.sql). An invite's token is 128 random bits shown once in its
// link; only its SHA-256 is stored, so a copy of the database opens no room.

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export interface RoomDiscussion {
  id: string;
  user_id: string;
  session_id: string;
  endpoint: string;
  status: string;
  panel: 'standard' | 'hybrid';
}

/** A discussion by its id (or session id of `ownerId`), whoever owns it. */
export async function discussionById(db: Queryable, id: string): Promise<RoomDiscussion | null> {
  const [row] = await db.query<Omit<RoomDiscussion, 'panel'> & { panel: string | null }>(
    `SELECT id, user_id, session_id, endpoint, status, config->>'panel' AS panel FROM discussions WHERE id = $1`,
    [id],
  );
  return row ? { ...row, panel: row.panel === 'hybrid' ? 'hybrid' : 'standard' } : null;
}

export type InviteOutcome = { ok: true; id: string; token: string } | { ok: false; why: 'limit' };

/** A new invite, unless the discussion has ROOM_LIMITS.maxInvites outstanding (expired ones are dropped first). */
export async function createInvite(db: Db, discussionId: string, role: RoomRole): Promise<InviteOutcome> {
  return db.transaction(async (tx) => {
    // The discussion's row lock makes the count and the insert one step for concurrent calls.
    await tx.query('SELECT 1 FROM discussions WHERE id = $1 FOR UPDATE', [discussionId]);
    await tx.query('DELETE FROM room_invites WHERE discussion_id = $1 AND expires_at < now()', [discussionId]);
    const [{ n }] = await tx.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM room_invites WHERE discussion_id = $1',
      [discussionId],
    );
    if (n >= ROOM_LIMITS.maxInvites) return { ok: false, why: 'limit' } as const;
    const id = randomUUID();
    const token = randomBytes(16).toString('base64url');
    await tx.query(
      `INSERT INTO room_invites (id, discussion_id, token_hash, role, expires_at)
       VALUES ($1, $2, $3, $4, now() + $5::int * interval '1 day')`,
      [id, discussionId, tokenHash(token), role, ROOM_LIMITS.inviteDays],
    );
    return { ok: true, id, token } as const;
  });
}

export type AcceptOutcome =
  | { ok: true; discussion: RoomDiscussion; role: RoomRole }
  | { ok: false; why: 'invalid' | 'owner' | 'removed' | 'full' };

/** Makes the user a member with the invite's role (a member already keeps the seats they hold). */
export async function acceptInvite(db: Db, token: string, userId: string): Promise<AcceptOutcome> {
  if (token.length > 100) return { ok: false, why: 'invalid' };
  return db.transaction(async (tx) => {
    const [inv] = await tx.query<{ discussion_id: string; role: RoomRole }>(
      'SELECT discussion_id, role FROM room_invites WHERE token_hash = $1 AND expires_at > now()',
      [tokenHash(token)],
    );
    if (!inv) return { ok: false, why: 'invalid' } as const;
    const discussion = await discussionById(tx, inv.discussion_id);
    if (!discussion) return { ok: false, why: 'invalid' } as const;
    if (discussion.user_id === userId) return { ok: false, why: 'owner' } as const;
    await tx.query('SELECT 1 FROM discussions WHERE id = $1 FOR UPDATE', [discussion.id]);
    const [member] = await tx.query<{ removed: boolean }>(
      'SELECT removed_at IS NOT NULL AS removed FROM room_members WHERE discussion_id = $1 AND user_id = $2',
      [discussion.id, userId],
    );
    if (member?.removed) return { ok: false, why: 'removed' } as const;
    if (!member) {
      const [{ n }] = await tx.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM room_members WHERE discussion_id = $1 AND removed_at IS NULL',
        [discussion.id],
      );
      if (n >= ROOM_LIMITS.maxMembers) return { ok: false, why: 'full' } as const;
      await tx.query('INSERT INTO room_members (discussion_id, user_id, role) VALUES ($1, $2, $3)', [
        discussion.id,
        userId,
        inv.role,
      ]);
    } else {
      // A new link may change the role; a watcher made participant keeps no seat it never had.
      await tx.query(
        `UPDATE room_members SET role = $3, seats = CASE WHEN $3 = 'watcher' THEN '[]'::jsonb ELSE seats END
         WHERE discussion_id = $1 AND user_id = $2`,
        [discussion.id, userId, inv.role],
      );
    }
    return { ok: true, discussion, role: inv.role } as const;
  });
}

export interface Membership {
  role: MemberRole;
  seats: string[];
  removed: boolean;
}

/** What the user is in the discussion: its owner, a member (perhaps removed), or nothing (null). */
export async function membershipOf(
  db: Queryable,
  discussion: Pick<RoomDiscussion, 'id' | 'user_id'>,
  userId: string,
): Promise<Membership | null> {
  if (discussion.user_id === userId) return { role: 'owner', seats: [], removed: false };
  const [row] = await db.query<{ role: RoomRole; seats: unknown; removed: boolean }>(
    'SELECT role, seats, removed_at IS NOT NULL AS removed FROM room_members WHERE discussion_id = $1 AND user_id = $2',
    [discussion.id, userId],
  );
  if (!row) return null;
  const seats = typeof row.seats === 'string' ? (JSON.parse(row.seats) as string[]) : (row.seats as string[]);
  return { role: row.role, seats: Array.isArray(seats) ? seats : [], removed: row.removed };
}

/** Whether the user is a member (not the owner) of the discussion with this id or session id, removed or not. */
export async function isMemberOfKey(db: Queryable, userId: string, key: string): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM room_members m JOIN discussions d ON d.id = m.discussion_id
     WHERE m.user_id = $1 AND (d.id = $2 OR d.session_id = $2) LIMIT 1`,
    [userId, key],
  );
  return rows.length > 0;
}

export async function markRemoved(db: Queryable, discussionId: string, userId: string) {
  await db.query(
    `UPDATE room_members SET removed_at = now(), seats = '[]'::jsonb WHERE discussion_id = $1 AND user_id = $2`,
    [discussionId, userId],
  );
}

/** The seat goes to `userId` (a participant) and leaves whoever held it; `userId` null gives it back to the owner. */
export async function giveSeat(db: Db, discussionId: string, seat: string, userId: string | null) {
  await db.transaction(async (tx) => {
    await tx.query(`UPDATE room_members SET seats = seats - $2::text WHERE discussion_id = $1 AND seats ? $2::text`, [
      discussionId,
      seat,
    ]);
    if (userId)
      await tx.query(
        `UPDATE room_members SET seats = seats || to_jsonb($3::text) WHERE discussion_id = $1 AND user_id = $2`,
        [discussionId, userId, seat],
      );
  });
}

/** Every member who was not removed, with their role and seats (the room's list on a fresh process). */
export async function membersOf(db: Queryable, discussionId: string) {
  const rows = await db.query<{ user_id: string; role: RoomRole; seats: unknown }>(
    'SELECT user_id, role, seats FROM room_members WHERE discussion_id = $1 AND removed_at IS NULL',
    [discussionId],
  );
  return rows.map((r) => ({
    user_id: r.user_id,
    role: r.role,
    seats: (typeof r.seats === 'string' ? JSON.parse(r.seats) : r.seats) as string[],
  }));
}
