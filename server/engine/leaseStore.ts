import type { Db } from '../db/db';

// The cluster's SQL (engine/cluster.ts): leases on running discussions, claims of expired ones, and the stored
// frames a socket watching from another process reads.

export interface ClaimedRow {
  id: string;
  user_id: string;
  session_id: string;
  endpoint: string;
  snapshot: unknown;
}

const CLAIMED = 'RETURNING id, user_id, session_id, endpoint, snapshot';

/** Renews the lease of every running discussion this process owns; the ids it still owns. */
export async function renewLeases(db: Db, ownerId: string, leaseMs: number): Promise<Set<string>> {
  const rows = await db.query<{ id: string }>(
    "UPDATE discussions SET lease_until = now() + $2 * interval '1 millisecond' WHERE owner_id = $1 AND status = 'running' RETURNING id",
    [ownerId, leaseMs],
  );
  return new Set(rows.map((r) => r.id));
}

export async function ownership(db: Db, discussionId: string) {
  const [row] = await db.query<{ owner_id: string | null; status: string }>(
    'SELECT owner_id, status FROM discussions WHERE id = $1',
    [discussionId],
  );
  return row;
}

/**
 * Claims up to 20 running discussions whose lease ran out (each by exactly one process); `alone` (one process on
 * PGlite) also claims those another instance owned, since it is gone.
 */
export const claimExpiredRows = (db: Db, ownerId: string, leaseMs: number, alone: boolean) =>
  db.query<ClaimedRow>(
    `UPDATE discussions SET owner_id = $1, lease_until = now() + $2 * interval '1 millisecond'
     WHERE id IN (SELECT id FROM discussions WHERE status = 'running'
                    AND (lease_until IS NULL OR lease_until < now() OR ($3 AND owner_id IS DISTINCT FROM $1))
                  ORDER BY lease_until NULLS FIRST LIMIT 20 FOR UPDATE SKIP LOCKED)
     ${CLAIMED}`,
    [ownerId, leaseMs, alone],
  );

/** Claims one discussion if its lease ran out. */
export async function claimRow(
  db: Db,
  ownerId: string,
  leaseMs: number,
  discussionId: string,
  alone: boolean,
): Promise<ClaimedRow | undefined> {
  const [row] = await db.query<ClaimedRow>(
    `UPDATE discussions SET owner_id = $1, lease_until = now() + $2 * interval '1 millisecond'
     WHERE id = $3 AND status = 'running' AND (lease_until IS NULL OR lease_until < now() OR ($4 AND owner_id IS DISTINCT FROM $1))
     ${CLAIMED}`,
    [ownerId, leaseMs, discussionId, alone],
  );
  return row;
}

export async function abandonDiscussion(db: Db, discussionId: string) {
  await db.query("UPDATE discussions SET status = 'abandoned', ended_at = now() WHERE id = $1", [discussionId]);
}

/** A discussion's stored frames after `afterSeq`, in order, as sent. */
export async function framesAfter(db: Db, discussionId: string, afterSeq = -1) {
  const rows = await db.query<{ seq: number; data: unknown }>(
    'SELECT seq, data FROM discussion_frames WHERE discussion_id = $1 AND seq > $2 ORDER BY seq',
    [discussionId, afterSeq],
  );
  return rows.map((r) => ({ seq: Number(r.seq), data: typeof r.data === 'string' ? r.data : JSON.stringify(r.data) }));
}

/** How long the running discussion's lease has left (ms), or undefined when it is not running. */
export async function leaseLeftMs(db: Db, discussionId: string): Promise<number | undefined> {
  const [row] = await db.query<{ ms: string | number | null }>(
    "SELECT GREATEST(0, EXTRACT(EPOCH FROM (lease_until - now())) * 1000) AS ms FROM discussions WHERE id = $1 AND status = 'running'",
    [discussionId],
  );
  return row ? Number(row.ms ?? 0) : undefined;
}

/** Other server processes on this database (their live-update listeners connected). */
export async function otherProcesses(db: Db, instanceId: string): Promise<number> {
  const [row] = await db.query<{ n: string | number }>(
    "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name LIKE 'agora-live %' AND application_name <> $1",
    [`agora-live ${instanceId}`],
  );
  return Number(row?.n ?? 0);
}

/** Hand-over: this process's running discussions are free to be claimed at once. */
export async function releaseLeases(db: Db, ownerId: string) {
  await db.query(
    "UPDATE discussions SET owner_id = NULL, lease_until = now() - interval '1 second' WHERE owner_id = $1 AND status = 'running'",
    [ownerId],
  );
}
