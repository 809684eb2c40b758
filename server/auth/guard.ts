import type { FastifyReply, FastifyRequest } from 'fastify';
import { SERVER_DETAIL } from '../../src/schemas/messages';
import type { AppContext } from '../context';
import { redeemSocketTicket } from './socketTickets';

const bearer = (req: FastifyRequest) => {
  const h = req.headers.authorization;
  return h && /^bearer /i.test(h) ? h.slice(7).trim() : null;
};

async function userFromToken(ctx: AppContext, token: string | null): Promise<string | null> {
  const sub = await ctx.tokens.verify(token);
  if (!sub) return null;
  // A valid signature for a user that no longer exists is still not a session.
  const rows = await ctx.db.query<{ id: string }>('SELECT id FROM users WHERE id = $1', [sub]);
  return rows.length ? sub : null;
}

/** The user of a request's bearer token, or null (for public routes that say more to a signed-in caller). */
export const requestUser = (ctx: AppContext, req: FastifyRequest) => userFromToken(ctx, bearer(req)).catch(() => null);

/** onRequest hook for every route but /health, login and register. */
export function requireUser(ctx: AppContext) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const token = bearer(req);
    if (!token)
      return reply.status(401).header('www-authenticate', 'Bearer').send({ detail: SERVER_DETAIL.notAuthenticated });
    const userId = await userFromToken(ctx, token);
    if (!userId)
      return reply.status(401).header('www-authenticate', 'Bearer').send({ detail: SERVER_DETAIL.invalidToken });
    req.userId = userId;
  };
}

/**
 * Sockets open with a single-use `?ticket=` (POST /auth/socket-ticket), or with the token itself as `?token=` (the
 * spec's clients; logs redact it); the caller closes with 1008 on null.
 */
export async function socketUser(ctx: AppContext, req: FastifyRequest): Promise<string | null> {
  const q = req.query as Record<string, string | undefined>;
  if (q.ticket !== undefined) {
    const userId = await redeemSocketTicket(ctx.db, q.ticket);
    return userId && (await ctx.db.query('SELECT 1 FROM users WHERE id = $1', [userId])).length ? userId : null;
  }
  return userFromToken(ctx, q.token ?? bearer(req));
}
