import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors';

/**
 * A per-user, per-minute rate limit for a route that makes the server call out (a connection Test or Save, a
 * pull, a download): spread into the route's options. Signed-in routes count by user, anything else by address.
 */
export function perUserLimit(app: FastifyInstance, max: number, what: string) {
  return {
    onRequest: app.rateLimit({
      max,
      timeWindow: '1 minute',
      keyGenerator: (req) => `${what}:${req.userId ?? req.ip}`,
      errorResponseBuilder: (_req, c) =>
        new HttpError(
          429,
          `Too many ${what} in a minute (at most ${c.max}); try again in ${Math.ceil(c.ttl / 1000)} s`,
        ),
    }),
  };
}
