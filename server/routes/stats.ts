import type { MonitorStats } from '../../src/schemas/system';
import type { AppContext } from '../context';

/**
 * The signed-in user's own figures: what /monitor/stats answers and /ws/system sends on get_stats. Nothing
 * server-wide (other users' sockets, memory, uptime): those are the operator's, at /monitor/server.
 */
export async function userStats(ctx: AppContext, userId: string): Promise<MonitorStats> {
  const [counts] = await ctx.db.query<Record<string, string>>(
    `SELECT (SELECT count(*) FROM agents WHERE user_id = $1) AS agents,
            (SELECT count(*) FROM connections WHERE user_id = $1) AS connections,
            (SELECT count(*) FROM audio_items WHERE user_id = $1) AS audio_files,
            (SELECT count(*) FROM discussions WHERE user_id = $1) AS discussions,
            (SELECT count(*) FROM discussions WHERE user_id = $1 AND status = 'running') AS active_discussions`,
    [userId],
  );
  return {
    ...Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, Number(v)])),
    sockets: ctx.hub.count(userId),
  };
}

/** Server-wide figures for the operator (GET /monitor/server with OPERATOR_TOKEN). */
export async function serverStats(ctx: AppContext) {
  const [counts] = await ctx.db.query<Record<string, string>>(
    `SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM agents) AS agents,
            (SELECT count(*) FROM discussions WHERE status = 'running') AS active_discussions`,
  );
  return {
    ...Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, Number(v)])),
    running_here: ctx.discussions.runningHere(),
    sockets: ctx.hub.count(),
    users_connected: ctx.hub.users(),
    uptime_s: Math.round((Date.now() - ctx.startedAt) / 1000),
    memory_mb: Math.round(process.memoryUsage().rss / 1048576),
    database: ctx.db.kind,
    node: process.version,
  };
}
