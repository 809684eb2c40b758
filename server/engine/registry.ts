import type { AppContext } from '../context';
import type { DiscussionSession } from './session';

// The discussions this server is running (and, for one grace period, those that just ended), per server,
// keyed by user and session id so two users' session ids never meet.

const registries = new WeakMap<AppContext, Map<string, DiscussionSession>>();

export function sessionsOf(ctx: AppContext): Map<string, DiscussionSession> {
  let m = registries.get(ctx);
  if (!m) registries.set(ctx, (m = new Map()));
  return m;
}

/** Stops every running discussion and waits (briefly) until their frames are stored. */
export async function stopAll(ctx: AppContext, reason: string, waitMs = 3_000) {
  const sessions = [...sessionsOf(ctx).values()];
  for (const s of sessions) s.stop(reason);
  await Promise.race([Promise.all(sessions.map((s) => s.done())), new Promise((r) => setTimeout(r, waitMs).unref())]);
}
