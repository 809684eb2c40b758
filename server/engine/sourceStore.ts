import type { Queryable } from '../db/db';
import type { AgentRef } from './agentRef';

// What a new discussion reads before it starts: its agents, and for 'Continue from here' the source discussion's
// topic, turn frames and what people said in it. (engine/store.ts writes and lists discussions.)

/** The user's agents among `ids`, in no particular order; someone else's are not found. */
export const agentsOf = (db: Queryable, userId: string, ids: string[]) =>
  db.query<AgentRef>(
    `SELECT id, name, role, prompt, personality, model, color, avatar, tools, ask_before_tools AS "askBeforeTools"
     FROM agents WHERE user_id = $1 AND id = ANY($2::text[])`,
    [userId, ids],
  );

/** The user's discussion by id; someone else's reads as missing. */
export async function ownDiscussion(db: Queryable, userId: string, id: string) {
  const [row] = await db.query<{ id: string; topic: string }>(
    'SELECT id, topic FROM discussions WHERE id = $1 AND user_id = $2',
    [id, userId],
  );
  return row;
}

/** The first `limit` stored frames of the given types, in order: a long discussion is never read whole for this. */
export const firstFramesOfTypes = (db: Queryable, discussionId: string, types: string[], limit: number) =>
  db.query<{ data: unknown; at: string | Date }>(
    `SELECT data, at FROM discussion_frames WHERE discussion_id = $1 AND data->>'type' = ANY($2::text[])
       ORDER BY seq LIMIT $3`,
    [discussionId, types, limit],
  );

/** What people said in the discussion before `until`, in order. */
export const humanMessagesBefore = (db: Queryable, discussionId: string, until: Date) =>
  db.query<{ text: string; at: string | Date }>(
    'SELECT text, at FROM discussion_human_messages WHERE discussion_id = $1 AND at < $2 ORDER BY n',
    [discussionId, until],
  );
