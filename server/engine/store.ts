import type { z } from 'zod';
import {
  HISTORY_FIRST_LINE_MAX,
  historyParticipant,
  type discussionSummaryRow,
  type storedDiscussion,
} from '../../src/schemas/history';
import type { Db, Queryable } from '../db/db';
import { shownName } from '../rooms/identity';
import { CONTINUATION_LINKS_MAX, DEFAULT_FORMAT_KIND, DISCUSSION_ORIGINS } from '../../src/schemas/constants';
import { continuationLink } from '../../src/schemas/continuation';
import { MESSAGE_FRAME_TYPES, SUMMARY_START_KIND } from '../../src/shared/messageCount';

// Every discussion and every frame it sent, per user. Frames are written in small batches off the hot path:
// the socket never waits for the database.

export type DiscussionStatus = 'running' | 'ended' | 'abandoned';
type SummaryRow = z.input<typeof discussionSummaryRow>;
type StoredDiscussion = z.input<typeof storedDiscussion>;

interface Row {
  id: string;
  session_id: string;
  endpoint: string;
  topic: string;
  status: DiscussionStatus;
  created_at: string | Date;
  ended_at: string | Date | null;
  frame_count: number | string;
  message_count: number | string;
  end_reason: string | null;
  format_kind?: string | null;
  origin?: string | null;
  participants?: unknown;
  first_line?: string | null;
  config?: unknown;
  continued_from_id?: string | null;
  continued_from_turn?: number | string | null;
  continued_from_topic?: string | null;
  continued_in?: unknown;
}

const json = (v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as unknown) : v);

/** The stored participants that still read as participants (a malformed entry is left out, never a failure). */
function participantsOf(v: unknown) {
  const list = json(v ?? null);
  if (!Array.isArray(list)) return undefined;
  return list.flatMap((p) => {
    const r = historyParticipant.safeParse(p);
    return r.success ? [r.data] : [];
  });
}

/** The first line of the first turn, cut at a word where it is long. */
function firstLineOf(text: string | null | undefined): string | null {
  const line = (text ?? '').trim().split('\n')[0].trim();
  if (!line) return null;
  if (line.length <= HISTORY_FIRST_LINE_MAX) return line;
  const cut = line.slice(0, HISTORY_FIRST_LINE_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > HISTORY_FIRST_LINE_MAX / 2 ? cut.slice(0, space) : cut}…`;
}

const withParticipants = (list: ReturnType<typeof participantsOf>) => (list ? { participants: list } : {});
const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());
const toSummary = (r: Row): SummaryRow => ({
  id: r.id,
  session_id: r.session_id,
  endpoint: r.endpoint,
  topic: r.topic,
  status: r.status,
  frame_count: Number(r.frame_count),
  message_count: Number(r.message_count),
  created_at: iso(r.created_at)!,
  ended_at: iso(r.ended_at),
  end_reason: r.end_reason ?? null,
  format: r.format_kind ?? null,
  // Older rows and the app's own carry none: 'app'.
  origin: DISCUSSION_ORIGINS.find((o) => o === r.origin) ?? 'app',
  ...withParticipants(participantsOf(r.participants)),
  first_line: firstLineOf(r.first_line),
  continued_from:
    r.continued_from_id && r.continued_from_topic !== null && r.continued_from_topic !== undefined
      ? { discussion_id: r.continued_from_id, topic: r.continued_from_topic, turn: Number(r.continued_from_turn ?? 0) }
      : null,
  ...continuationsOf(r.continued_in),
});

/** The discussions continued from a row (a malformed entry is left out). */
function continuationsOf(v: unknown) {
  const list = json(v ?? null);
  if (!Array.isArray(list) || list.length === 0) return {};
  return {
    continued_in: list.flatMap((c) => {
      const r = continuationLink.safeParse(c);
      return r.success ? [r.data] : [];
    }),
  };
}

export interface NewDiscussion {
  id: string;
  userId: string;
  sessionId: string;
  endpoint: string;
  topic: string;
  config: unknown;
  /** The process that runs it and how long its claim holds without a renewal (engine/leases.ts). */
  ownerId?: string;
  leaseMs?: number;
  /** The discussion (the same user's) this one continues, and the turn it continues from. */
  continuedFrom?: { id: string; turn: number };
}

const INSERT_DISCUSSION = `INSERT INTO discussions (id, user_id, session_id, endpoint, topic, config, status, owner_id,
    lease_until, continued_from_id, continued_from_turn)
  VALUES ($1, $2, $3, $4, $5, $6::jsonb, 'running', $7, now() + $8 * interval '1 millisecond', $9, $10)`;
const insertParams = (d: NewDiscussion) => [
  d.id,
  d.userId,
  d.sessionId,
  d.endpoint,
  d.topic.slice(0, 2000),
  JSON.stringify(d.config),
  d.ownerId ?? null,
  d.leaseMs ?? 0,
  d.continuedFrom?.id ?? null,
  d.continuedFrom?.turn ?? null,
];

export async function createDiscussion(db: Queryable, d: NewDiscussion) {
  await db.query(INSERT_DISCUSSION, insertParams(d));
}

/**
 * More than one process: counts the user's running discussions in the database (a discussion whose owner stopped
 * renewing its lease no longer counts) and creates the new one only under `max`, atomically across processes
 * (a per-user advisory lock). Resolves false when the user is at the limit.
 */
export async function createDiscussionWithinLimit(db: Db, d: NewDiscussion, max: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('discussions:' || $1))", [d.userId]);
    if (max > 0) {
      const [row] = await tx.query<{ n: string | number }>(
        "SELECT count(*) AS n FROM discussions WHERE user_id = $1 AND status = 'running' AND lease_until > now()",
        [d.userId],
      );
      if (Number(row.n) >= max) return false;
    }
    await tx.query(INSERT_DISCUSSION, insertParams(d));
    return true;
  });
}

export async function finishDiscussion(db: Db, id: string, status: Exclude<DiscussionStatus, 'running'>) {
  await db.query('UPDATE discussions SET status = $2, ended_at = now() WHERE id = $1', [id, status]);
}

/**
 * After a restart nothing this process ran is running any more: what was left running was cut off. With more than
 * one process (PostgreSQL) nothing is abandoned here: a discussion whose owner stopped renewing its lease is taken
 * over by a live process (engine/cluster.ts), and the others are still running elsewhere.
 */
export async function abandonLeftovers(db: Db, takenOver = false) {
  if (db.kind === 'postgres' || takenOver) return; // engine/cluster.ts takes them over (or abandons those it cannot continue)
  await db.query("UPDATE discussions SET status = 'abandoned', ended_at = now() WHERE status = 'running'");
}

/**
 * The History list's message count: the one definition the panel, History, PDF and JSON share
 * (src/shared/messageCount.ts, countStoredMessages): distinct turns (by id, whatever frames carried them) plus the
 * human's messages. An ACL message, request or delegation is part of its turn, not a message; the summary's
 * stream start (kind 'summary') is not a turn.
 */
const MESSAGE_TYPES = MESSAGE_FRAME_TYPES.map((t) => `'${t}'`).join(', ');
const SUMMARY_COLUMNS = `d.id, d.session_id, d.endpoint, d.topic, d.status, d.created_at, d.ended_at, d.config->'format'->>'kind' AS format_kind,
  d.config->>'origin' AS origin,
  (SELECT count(*) FROM discussion_frames f WHERE f.discussion_id = d.id) AS frame_count,
  (SELECT count(DISTINCT coalesce(f.data->>'id', f.data->'argument'->>'id', 'seq:' || f.seq::text)) FROM discussion_frames f
    WHERE f.discussion_id = d.id AND f.data->>'type' IN (${MESSAGE_TYPES}) AND coalesce(f.data->>'kind', '') <> '${SUMMARY_START_KIND}')
    + (SELECT count(*) FROM discussion_human_messages h WHERE h.discussion_id = d.id) AS message_count,
  (SELECT f.data->>'reason' FROM discussion_frames f WHERE f.discussion_id = d.id AND f.data->>'type' = 'discussion_ended' ORDER BY f.seq DESC LIMIT 1) AS end_reason,
  d.config->'participants' AS participants,
  (SELECT left(coalesce(f.data->>'content', f.data->>'text', f.data->'argument'->>'content'), 2000) FROM discussion_frames f
    WHERE f.discussion_id = d.id AND f.data->>'type' IN ('agent_message', 'text', 'argument')
      AND coalesce(f.data->>'kind', '') <> '${SUMMARY_START_KIND}' ORDER BY f.seq LIMIT 1) AS first_line,
  d.continued_from_id, d.continued_from_turn,
  (SELECT s.topic FROM discussions s WHERE s.id = d.continued_from_id AND s.user_id = d.user_id)
    AS continued_from_topic,
  (SELECT json_agg(json_build_object('discussion_id', c.id, 'topic', c.topic, 'turn', c.continued_from_turn)) FROM
    (SELECT id, topic, continued_from_turn FROM discussions c WHERE c.continued_from_id = d.id AND c.user_id = d.user_id
      ORDER BY c.created_at, c.id LIMIT ${CONTINUATION_LINKS_MAX}) c) AS continued_in`;

export async function listDiscussions(db: Db, userId: string): Promise<SummaryRow[]> {
  const rows = await db.query<Row>(
    `SELECT ${SUMMARY_COLUMNS} FROM discussions d WHERE d.user_id = $1 ORDER BY d.created_at DESC, d.id DESC LIMIT 500`,
    [userId],
  );
  return rows.map(toSummary);
}

/**
 * One page of a user's discussions, newest first. The cursor is opaque to clients: the last row's created_at (in
 * full precision, as the database writes it) and id, so pages neither skip nor repeat a row when discussions are
 * added or deleted between two requests. A malformed cursor is treated as the start.
 */
export async function listDiscussionPage(
  db: Db,
  userId: string,
  opts: { cursor?: string; limit: number; q?: string; format?: string },
): Promise<{ items: SummaryRow[]; next_cursor: string | null }> {
  const after = decodeCursor(opts.cursor);
  const q = (opts.q ?? '').trim();
  const pattern = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : '';
  const rows = await db.query<Row & { created_key: string }>(
    `SELECT ${SUMMARY_COLUMNS}, d.created_at::text AS created_key FROM discussions d
     WHERE d.user_id = $1
       AND ($2::text IS NULL OR (d.created_at, d.id) < ($2::timestamptz, $3::text))
       AND ($4 = '' OR d.topic ILIKE $4)
       AND ($6 = '' OR coalesce(d.config->'format'->>'kind', $7) = $6)
     ORDER BY d.created_at DESC, d.id DESC LIMIT $5`,
    [userId, after?.at ?? null, after?.id ?? '', pattern, opts.limit + 1, opts.format ?? '', DEFAULT_FORMAT_KIND],
  );
  const more = rows.length > opts.limit;
  const page = rows.slice(0, opts.limit);
  const last = page[page.length - 1];
  return { items: page.map(toSummary), next_cursor: more && last ? encodeCursor(last.created_key, last.id) : null };
}

/** A timestamptz as PostgreSQL writes it as text ('2026-01-01 00:06:40.123456+00'): checked before it is cast. */
const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)?$/;
const encodeCursor = (at: string, id: string) => Buffer.from(JSON.stringify([at, id])).toString('base64url');
function decodeCursor(cursor: string | undefined): { at: string; id: string } | null {
  if (!cursor) return null;
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && typeof v[0] === 'string' && typeof v[1] === 'string' && CURSOR_TIME.test(v[0]))
      return { at: v[0], id: v[1] };
  } catch {
    /* not ours */
  }
  return null;
}

/** A user's discussion by session id (or by its own id), with every frame in order; null for anyone else's. */
export async function loadDiscussion(
  db: Db,
  userId: string,
  key: string,
  afterSeq = 0,
): Promise<StoredDiscussion | null> {
  const [row] = await db.query<Row>(
    `SELECT ${SUMMARY_COLUMNS}, d.config FROM discussions d WHERE d.user_id = $1 AND (d.session_id = $2 OR d.id = $2) ORDER BY d.created_at DESC LIMIT 1`,
    [userId, key],
  );
  if (!row) return null;
  const frames = await db.query<{ seq: number; data: unknown; at: string | Date }>(
    'SELECT seq, data, at FROM discussion_frames WHERE discussion_id = $1 AND seq > $2 ORDER BY seq',
    [row.id, afterSeq],
  );
  const human = await db.query<{
    text: string;
    client_timestamp: string | null;
    at: string | Date;
    author_id: string | null;
    email: string | null;
    display_name: string | null;
  }>(
    `SELECT h.text, h.client_timestamp, h.at, h.author_id, u.email, u.display_name
     FROM discussion_human_messages h LEFT JOIN users u ON u.id = h.author_id WHERE h.discussion_id = $1 ORDER BY h.n`,
    [row.id],
  );
  return {
    ...toSummary(row),
    config: json(row.config) as Record<string, unknown>,
    frames: frames.map((f) => ({ seq: Number(f.seq), data: json(f.data) as Record<string, unknown>, at: iso(f.at)! })),
    human_messages: human.map((h) => ({
      text: h.text,
      at: iso(h.at)!,
      timestamp: h.client_timestamp,
      // The author by display name (never the email), where it is known.
      ...(h.author_id && h.email
        ? { author: { user_id: h.author_id, display_name: shownName(h.display_name, h.email) } }
        : {}),
    })),
  };
}

export type DeleteOutcome = 'deleted' | 'notFound' | 'running';

/**
 * Deletes one of a user's discussions (by session id or id) with its frames and human messages, in one
 * transaction. Anyone else's discussion is 'notFound'; a running one is refused ('running').
 */
export async function deleteDiscussion(
  db: Db,
  userId: string,
  key: string,
  onDeleted?: (id: string) => void,
): Promise<DeleteOutcome> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: string; status: DiscussionStatus }>(
      'SELECT id, status FROM discussions WHERE user_id = $1 AND (session_id = $2 OR id = $2) ORDER BY created_at DESC LIMIT 1 FOR UPDATE',
      [userId, key],
    );
    if (!row) return 'notFound';
    if (row.status === 'running') return 'running';
    // The foreign keys cascade too; deleting explicitly keeps this independent of the schema's ON DELETE.
    await tx.query('DELETE FROM discussion_frames WHERE discussion_id = $1', [row.id]);
    await tx.query('DELETE FROM discussion_human_messages WHERE discussion_id = $1', [row.id]);
    await tx.query('DELETE FROM discussions WHERE id = $1', [row.id]);
    onDeleted?.(row.id);
    return 'deleted';
  });
}

/**
 * Stores one human message of a discussion, numbered after the ones before it. The number comes from the
 * discussion's counter, bumped under its row lock in the same statement, so concurrent calls (a PostgreSQL pool,
 * several processes) each get their own; `max(n) + 1` would let two read the same maximum and lose one.
 */
export async function recordHumanMessage(
  db: Db,
  discussionId: string,
  text: string,
  clientTimestamp: string | null,
  /** Who wrote it: the owner or a participant of the room (rooms/). */
  authorId: string | null = null,
): Promise<number | null> {
  const rows = await db.query<{ n: number }>(
    `WITH next AS (UPDATE discussions SET human_messages = human_messages + 1 WHERE id = $1 RETURNING human_messages AS n)
     INSERT INTO discussion_human_messages (discussion_id, n, text, client_timestamp, author_id)
     SELECT $1, n, $2, $3, $4 FROM next RETURNING n`,
    [discussionId, text, clientTimestamp, authorId],
  );
  return rows[0]?.n ?? null;
}

/**
 * Appends frames in order, batching those that arrive in the same tick into one INSERT. With a snapshot given
 * (lease mode, engine/cluster.ts) the batch and the machine's snapshot as of its last frame are written in one
 * transaction, and `onStored` hears the highest seq that is safely stored (the session sends a frame only then).
 */
export class FrameWriter {
  private pending: Array<[number, string]> = [];
  private snapshot: { seq: number; data: string } | null = null;
  private chain: Promise<void> = Promise.resolve();
  private scheduled = false;

  constructor(
    private readonly db: Db,
    private readonly discussionId: string,
    private readonly onError: (e: unknown) => void,
    private readonly onStored?: (seq: number) => void,
  ) {}

  push(seq: number, data: string) {
    this.pending.push([seq, data]);
    this.schedule();
  }

  /** The machine's persisted snapshot as of frame `seq`; written with the frames up to it. */
  pushSnapshot(seq: number, data: string) {
    this.snapshot = { seq, data };
    this.schedule();
  }

  private schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.chain = this.chain.then(() => this.write());
    });
  }

  /** Resolves once everything pushed so far is stored. */
  async flush(): Promise<void> {
    this.chain = this.chain.then(() => this.write());
    await this.chain;
  }

  private async write() {
    const batch = this.pending.splice(0, this.pending.length);
    const snapshot = this.snapshot;
    this.snapshot = null;
    if (!batch.length && !snapshot) return;
    const insert = async (q: Queryable) => {
      for (let i = 0; i < batch.length; i += 200) {
        const part = batch.slice(i, i + 200);
        const values = part.map((_, j) => `($1, $${j * 2 + 2}, $${j * 2 + 3}::jsonb)`).join(', ');
        await q.query(`INSERT INTO discussion_frames (discussion_id, seq, data) VALUES ${values}`, [
          this.discussionId,
          ...part.flat(),
        ]);
      }
    };
    try {
      if (snapshot) {
        await this.db.transaction(async (tx) => {
          await insert(tx);
          await tx.query('UPDATE discussions SET snapshot = $2::jsonb, snapshot_seq = $3 WHERE id = $1', [
            this.discussionId,
            snapshot.data,
            snapshot.seq,
          ]);
        });
      } else await insert(this.db);
    } catch (e) {
      this.onError(e);
    }
    const last = batch.length ? batch[batch.length - 1][0] : snapshot?.seq;
    if (last !== undefined) this.onStored?.(last);
  }
}

export async function discussionExists(db: Queryable, id: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM discussions WHERE id = $1', [id])).length > 0;
}

/** Frames [seq, JSON] a journal kept, stored unless stored already; how many were missing. */
export async function insertMissingFrames(db: Queryable, discussionId: string, frames: Array<[number, string]>) {
  const values = frames.map((_, j) => `($1, $${j * 2 + 2}, $${j * 2 + 3}::jsonb)`).join(', ');
  const rows = await db.query(
    `INSERT INTO discussion_frames (discussion_id, seq, data) VALUES ${values} ON CONFLICT (discussion_id, seq) DO NOTHING RETURNING seq`,
    [discussionId, ...frames.flat()],
  );
  return rows.length;
}
