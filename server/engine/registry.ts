import type { AppContext } from '../context';
import type { DiscussionSession } from './session';

// The discussions this server is running (and, for one grace period, those that just ended), kept in the
// server's context (ctx.engine.sessions), keyed by user and session id so two users' session ids never meet.

export const sessionsOf = (ctx: AppContext): Map<string, DiscussionSession> => ctx.engine.sessions;

/** Stops every running discussion and waits (briefly) until their frames are stored. */
export async function stopAll(ctx: AppContext, reason: string, waitMs = 3_000) {
  const sessions = [...sessionsOf(ctx).values()];
  for (const s of sessions) s.stop(reason);
  await Promise.race([Promise.all(sessions.map((s) => s.done())), new Promise((r) => setTimeout(r, waitMs).unref())]);
}
