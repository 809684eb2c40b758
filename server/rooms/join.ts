import type { WebSocket } from 'ws';
import { CLOSE_NORMAL, ENDPOINTS, type EndpointKey } from '../../src/schemas/constants';
import { CLOSE_REMOVED_FROM_ROOM, REMOVED_FROM_ROOM_TEXT, roomJoinMessage } from '../../src/schemas/rooms';
import type { AppContext } from '../context';
import { handleClientFrame, socketBucket } from '../engine/clientFrames';
import { refuse } from '../engine/discussions';
import { framesAfter } from '../engine/leaseStore';
import type { Sender } from './control';
import { personOf } from './identity';
import { discussionById, membershipOf } from './store';

// A member's socket: the same endpoints and ticket rule as the owner's, with `room_join` as the first message
// instead of a configuration. The running discussion is joined here when this process runs it (rooms/room.ts),
// watched from afar when another process does (engine/cluster.ts), or replayed from storage when it has ended.

export const NOT_IN_ROOM = 'You are not in this discussion: open the invite link you were sent.';

/** True when the first message is a `room_join` (then the room, not the engine's entrance, serves the socket). */
export function isRoomJoin(raw: string): boolean {
  if (!raw.includes('room_join')) return false;
  try {
    return (JSON.parse(raw) as { type?: unknown })?.type === 'room_join';
  } catch {
    return false;
  }
}

/** Serves a member's socket; the handler of its later frames, or null when it was answered and closed. */
export async function joinRoom(
  ctx: AppContext,
  ws: WebSocket,
  userId: string,
  endpoint: EndpointKey,
  raw: string,
): Promise<((raw: string) => void) | null> {
  const parsed = roomJoinMessage.safeParse(JSON.parse(raw));
  if (!parsed.success) return (refuse(ws, 'Invalid room_join: it names the discussion_id to join.'), null);
  const discussion = await discussionById(ctx.db, parsed.data.discussion_id);
  const membership = discussion ? await membershipOf(ctx.db, discussion, userId) : null;
  if (ws.readyState !== ws.OPEN) return null;
  if (!discussion || !membership) return (refuse(ws, NOT_IN_ROOM), null);
  if (membership.removed) return (ws.close(CLOSE_REMOVED_FROM_ROOM, REMOVED_FROM_ROOM_TEXT), null);
  if (discussion.endpoint !== ENDPOINTS[endpoint].path)
    return (refuse(ws, `This discussion runs on ${discussion.endpoint}; join it there.`), null);
  const member: Sender = { userId, role: membership.role };

  const session = ctx.discussions.byId(discussion.id);
  if (session) {
    const [owner, person] = await Promise.all([
      session.room.owner ?? personOf(ctx.db, session.userId),
      personOf(ctx.db, userId),
    ]);
    session.room.owner = owner;
    if (ws.readyState !== ws.OPEN || !person) return null;
    if (!session.isLive) return (replayStored(ctx, ws, discussion.id), null);
    session.room.join(ws, person, membership.role, membership.seats);
    const bucket = socketBucket(ctx);
    return (data) => handleClientFrame(ctx, session, data, bucket, member);
  }
  const cluster = ctx.discussions.cluster;
  if (cluster && discussion.status === 'running' && ctx.bus) {
    ctx.rooms.watchRemote(ws, discussion.id, member);
    return null;
  }
  await replayStored(ctx, ws, discussion.id);
  return null;
}

/** It ended: what it said, then close 1000. */
async function replayStored(ctx: AppContext, ws: WebSocket, discussionId: string) {
  const frames = await framesAfter(ctx.db, discussionId, 0);
  for (const f of frames) if (ws.readyState === ws.OPEN) ws.send(f.data);
  if (ws.readyState === ws.OPEN) ws.close(CLOSE_NORMAL, 'Discussion ended');
}
