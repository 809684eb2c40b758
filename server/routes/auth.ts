import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { credentials, loginResponse, refreshResponse, socketTicket, user } from '../../src/schemas/auth';
import { SERVER_DETAIL } from '../../src/schemas/messages';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../auth/passwords';
import { requireUser } from '../auth/guard';
import { roleOf } from '../auth/operator';
import { issueSocketTicket } from '../auth/socketTickets';
import { HttpError } from '../http/errors';
import { shownName } from '../rooms/identity';
import { profileUpdate } from '../../src/schemas/rooms';
import type { ZodTypeProvider } from '../http/routeSchema';

interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  created_at: string;
  display_name: string | null;
}
type Shown = Pick<UserRow, 'id' | 'email' | 'created_at'> & { display_name?: string | null };
const shownUser = (u: Shown, role: 'operator' | 'user') => ({
  id: u.id,
  email: u.email,
  created_at: new Date(u.created_at).toISOString(),
  role,
  display_name: shownName(u.display_name, u.email),
});

/** Public routes (register, login) and the authenticated ones (me, refresh). */
export async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  // The role rides with the user on every answer that has one, so the client knows it from the first screen.
  const publicUser = async (u: Shown) => shownUser(u, await roleOf(ctx, u.id, u.email));
  const tags = ['Auth'];
  // One counter per client address for login and register together (the address is the socket's peer unless
  // TRUST_PROXY names the proxies in front, so a forged X-Forwarded-For buys nothing).
  const limited = { onRequest: app.rateLimit({ max: ctx.config.loginRateLimit, timeWindow: '1 minute' }) };

  const registerSchema = {
    tags,
    summary: 'Create an account',
    description: 'Answers a session token at once (as login does). Rate-limited per client address with login.',
    security: [],
    body: credentials,
    response: { 200: loginResponse },
    errors: { 400: SERVER_DETAIL.emailAlreadyRegistered, 429: 'Too many attempts from this address' },
  };
  app.post('/auth/register', { ...limited, schema: registerSchema }, async (req) => {
    const body = req.body;
    const email = body.email.toLowerCase();
    const hash = await hashPassword(body.password);
    const id = randomUUID();
    const rows = await ctx.db.query<UserRow>(
      'INSERT INTO users (id, email, password_hash) VALUES ($1, $2, $3) ON CONFLICT (email) DO NOTHING RETURNING id, email, created_at',
      [id, email, hash],
    );
    if (!rows.length) throw new HttpError(400, SERVER_DETAIL.emailAlreadyRegistered);
    return { access_token: await ctx.tokens.issue(id), token_type: 'bearer', user: await publicUser(rows[0]) };
  });

  const loginSchema = {
    tags,
    summary: 'Sign in',
    description:
      'Answers the bearer token for every other call (`Authorization: Bearer <access_token>`, or `?ticket=` from /auth/socket-ticket, or `?token=`, on sockets).',
    security: [],
    body: credentials,
    response: { 200: loginResponse },
    errors: { 401: SERVER_DETAIL.invalidCredentials, 429: 'Too many attempts from this address' },
  };
  app.post('/auth/login', { ...limited, schema: loginSchema }, async (req) => {
    const body = req.body;
    const [row] = await ctx.db.query<UserRow>('SELECT * FROM users WHERE email = $1', [body.email.toLowerCase()]);
    const ok = await verifyPassword(body.password, row?.password_hash ?? DUMMY_HASH);
    if (!row || !ok) throw new HttpError(401, SERVER_DETAIL.invalidCredentials);
    return { access_token: await ctx.tokens.issue(row.id), token_type: 'bearer', user: await publicUser(row) };
  });

  await app.register(async (plugin) => {
    const authed = plugin.withTypeProvider<ZodTypeProvider>();
    authed.addHook('onRequest', requireUser(ctx));
    authed.get(
      '/auth/me',
      { schema: { tags, summary: 'The signed-in user', response: { 200: user } } },
      async (req) => {
        const [row] = await ctx.db.query<UserRow>(
          'SELECT id, email, created_at, display_name FROM users WHERE id = $1',
          [req.userId],
        );
        if (!row) throw new HttpError(401, SERVER_DETAIL.invalidToken);
        return await publicUser(row);
      },
    );
    const profileSchema = {
      tags,
      summary: 'Set your display name',
      description:
        'What other people in a room see beside your messages instead of your email (1–40 characters). Answers the user as GET /auth/me does.',
      body: profileUpdate,
      response: { 200: user },
    };
    authed.patch('/auth/me', { schema: profileSchema }, async (req) => {
      const [row] = await ctx.db.query<UserRow>(
        'UPDATE users SET display_name = $2 WHERE id = $1 RETURNING id, email, created_at, display_name',
        [req.userId, req.body.display_name],
      );
      if (!row) throw new HttpError(401, SERVER_DETAIL.invalidToken);
      return await publicUser(row);
    });
    const ticketSchema = {
      tags,
      summary: 'A ticket that opens one socket',
      description:
        'Single-use and short-lived (`expires_in` seconds, SOCKET_TICKET_TTL_SECONDS): open a socket with `?ticket=<ticket>` instead of `?token=`, so the session token never appears in a URL.',
      response: { 200: socketTicket },
    };
    authed.post('/auth/socket-ticket', { schema: ticketSchema }, async (req) => {
      const ttl = ctx.config.socketTicketTtlSeconds;
      return { ticket: await issueSocketTicket(ctx.db, req.userId, ttl), expires_in: ttl };
    });
    authed.post(
      '/auth/refresh',
      { schema: { tags, summary: 'A fresh token for the same user', response: { 200: refreshResponse } } },
      async (req) => ({ access_token: await ctx.tokens.issue(req.userId), token_type: 'bearer' }),
    );
  });
}
