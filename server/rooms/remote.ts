import type { AppContext } from '../context';
import type { DiscussionSession } from '../engine/session';
import type { Sender } from './control';
import { personOf } from './identity';
import { discussionById, membershipOf } from './store';

// The owner's process hears of a member whose socket is on another process (engine/cluster.ts): present (said
// every few seconds) or gone. A member the room does not know yet is read from the database first; a removed
// one is not let back in.

export async function noteRemoteMember(ctx: AppContext, session: DiscussionSession, member: Sender, here: boolean) {
  const room = session.room;
  if (!room.members.has(member.userId)) {
    if (!here || member.role === 'owner') return;
    const d = await discussionById(ctx.db, session.discussionId);
    const [m, person, owner] = await Promise.all([
      d ? membershipOf(ctx.db, d, member.userId) : null,
      personOf(ctx.db, member.userId),
      room.owner ?? personOf(ctx.db, session.userId),
    ]);
    room.owner = owner;
    if (!m || m.removed || m.role === 'owner' || !person) return;
    room.remember(person, m.role, m.seats);
  }
  room.remoteHere(member.userId, here);
}
