import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Db } from '../db/db';

// Why this file: the login/register rate limit must hold across every process that shares one PostgreSQL, so with
// DATABASE_URL its counters live in the database (rate_counters, one fixed window per key) instead of each
// process's memory. @fastify/rate-limit calls incr(key, cb, timeWindow, max) per request; one UPSERT both counts and
// restarts an expired window. PGlite keeps the plugin's in-memory store (one process).

interface RouteParams {
  groupId?: string;
  routeInfo?: { url?: string; method?: string };
}

export function pgRateStore(db: Db): FastifyRateLimitStoreCtor {
  return class PgRateStore {
    private readonly prefix: string;

    constructor(params?: object) {
      this.prefix = (params as { prefix?: string } | undefined)?.prefix ?? 'rl';
    }

    incr(key: string, cb: (err: Error | null, res?: { current: number; ttl: number }) => void, timeWindow: number) {
      db.query<{ count: number; ttl: number }>(
        `INSERT INTO rate_counters AS r (key, window_start, count) VALUES ($1, now(), 1)
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN r.window_start + $2 * interval '1 millisecond' <= now() THEN 1 ELSE r.count + 1 END,
           window_start = CASE WHEN r.window_start + $2 * interval '1 millisecond' <= now() THEN now() ELSE r.window_start END
         RETURNING count, greatest(0, ceil(extract(epoch FROM (window_start + $2 * interval '1 millisecond' - now())) * 1000))::int AS ttl`,
        [`${this.prefix}:${key}`, timeWindow],
      ).then(
        ([r]) => {
          cb(null, { current: Number(r.count), ttl: Number(r.ttl) });
          // Now and then, forget windows long gone.
          if (Math.random() < 0.01)
            void db.query("DELETE FROM rate_counters WHERE window_start < now() - interval '1 day'").catch(() => {});
        },
        (err: Error) => cb(err),
      );
    }

    child(routeOptions: object) {
      const params = routeOptions as RouteParams;
      return new PgRateStore({ prefix: `rl:${params.groupId ?? params.routeInfo?.url ?? 'route'}` });
    }
  };
}
