import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db/db';

// Share links in SQL (migration 021_shares.sql). A token is 128 random bits in base64url, given once to the owner;
// the table keeps only its SHA-256. Each open reads the table (no cache), so a deleted row is revoked on every process.

export const newShareToken = () => randomBytes(16).toString('base64url');
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export interface ShareRecord {
  id: string;
  created_at: string;
  expires_at: string;
  last_opened_at: string | null;
}
interface Row {
  id: string;
  created_at: string | Date;
  expires_at: string | Date;
  last_opened_at: string | Date | null;
}
const iso = (v: string | Date) => new Date(v).toISOString();
const toRecord = (r: Row): ShareRecord => ({
  id: r.id,
  created_at: iso(r.created_at),
  expires_at: iso(r.expires_at),
  last_opened_at: r.last_opened_at === null ? null : iso(r.last_opened_at),
});

/** The id of the user's own discussion `key` names (its id or session id), or null when it is not theirs. */
export async function ownDiscussionId(db: Db, userId: string, key: string): Promise<string | null> {
  const [row] = await db.query<{ id: string }>(
    'SELECT id FROM discussions WHERE user_id = $1 AND (id = $2 OR session_id = $2) ORDER BY created_at DESC LIMIT 1',
    [userId, key],
  );
  return row?.id ?? null;
}

/** The links of one discussion still valid (not expired), newest first. */
export async function listShares(db: Db, userId: string, discussionId: string): Promise<ShareRecord[]> {
  const rows = await db.query<Row>(
    `SELECT id, created_at, expires_at, last_opened_at FROM discussion_shares
      WHERE user_id = $1 AND discussion_id = $2 AND expires_at > now() ORDER BY created_at DESC, id`,
    [userId, discussionId],
  );
  return rows.map(toRecord);
}

/** A new link; null when the discussion already has `max` valid ones. The token is returned once and not kept. */
export async function createShare(
  db: Db,
  userId: string,
  discussionId: string,
  days: number,
  max: number,
): Promise<{ token: string; record: ShareRecord } | null> {
  return db.transaction(async (tx) => {
    // The discussion's row lock makes the count and the insert one step for concurrent creates.
    await tx.query('SELECT id FROM discussions WHERE id = $1 FOR UPDATE', [discussionId]);
    const [{ n }] = await tx.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM discussion_shares WHERE discussion_id = $1 AND expires_at > now()',
      [discussionId],
    );
    if (Number(n) >= max) return null;
    const token = newShareToken();
    const [row] = await tx.query<Row>(
      `INSERT INTO discussion_shares (id, discussion_id, user_id, token_sha256, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(days => $5::int))
       RETURNING id, created_at, expires_at, last_opened_at`,
      [randomUUID(), discussionId, userId, tokenHash(token), days],
    );
    return { token, record: toRecord(row) };
  });
}

/** Revokes one of the user's links: true when it was theirs. */
export async function deleteShare(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    'DELETE FROM discussion_shares WHERE id = $1 AND user_id = $2 RETURNING id',
    [id, userId],
  );
  return rows.length > 0;
}

/** The discussion a valid token opens (and notes the open), or null for an unknown, revoked or expired one. */
export async function openShare(
  db: Db,
  token: string,
): Promise<{ discussionId: string; userId: string; expiresAt: string } | null> {
  const [row] = await db.query<{ discussion_id: string; user_id: string; expires_at: string | Date }>(
    `UPDATE discussion_shares SET last_opened_at = now()
      WHERE token_sha256 = $1 AND expires_at > now() RETURNING discussion_id, user_id, expires_at`,
    [tokenHash(token)],
  );
  return row ? { discussionId: row.discussion_id, userId: row.user_id, expiresAt: iso(row.expires_at) } : null;
}
