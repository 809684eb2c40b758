import type { AppContext } from '../context';
import type { DiscussionSession } from './session';

// The discussions this server is running (and, for one grace period, those that just ended), per server context,
// keyed by user and session id so two users' session ids never meet. Kept beside the context rather than in it, so
// the context's type does not depend on the session's (no import circle).

const running = new WeakMap<AppContext, Map<string, DiscussionSession>>();

export function sessionsOf(ctx: AppContext): Map<string, DiscussionSession> {
  let sessions = running.get(ctx);
  if (!sessions) running.set(ctx, (sessions = new Map()));
  return sessions;
}

/** Discussions this process is running for the user (the registry also holds just-ended ones for a grace period). */
export function runningDiscussionsOf(ctx: AppContext, userId: string): number {
  let n = 0;
  for (const s of sessionsOf(ctx).values()) if (s.userId === userId && s.status === 'running') n++;
  return n;
}

/** Stops every running discussion and waits (briefly) until their frames are stored. */
export async function stopAll(ctx: AppContext, reason: string, waitMs = 3_000) {
  const sessions = [...sessionsOf(ctx).values()];
  for (const s of sessions) s.stop(reason);
  await Promise.race([Promise.all(sessions.map((s) => s.done())), new Promise((r) => setTimeout(r, waitMs).unref())]);
}
