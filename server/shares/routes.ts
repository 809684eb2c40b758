import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { idText } from '../../src/schemas/common';
import { SERVER_DETAIL } from '../../src/schemas/messages';
import {
  ROOM_LIMITS,
  SHARE_INVALID_TEXT,
  shareCreate,
  shareCreated,
  shareList,
  sharePath,
} from '../../src/schemas/rooms';
import { SHARE_OPENS_PER_MINUTE, SHARE_TOKEN_PATTERN, sharedDiscussion } from '../../src/schemas/shares';
import { requireUser } from '../auth/guard';
import { loadDiscussion } from '../engine/store';
import { HttpError } from '../http/errors';
import type { ZodTypeProvider } from '../http/routeSchema';
import { publicDiscussion } from './publicDiscussion';
import { createShare, deleteShare, listShares, openShare, ownDiscussionId } from './store';

const tags = ['Sharing'];
/** Said to search engines and caches on every public answer of a share link. */
const NOINDEX = 'noindex, nofollow';
const NOINDEX_META = '<meta name="robots" content="noindex, nofollow">';

/**
 * Read-only share links (README 'Sharing and rooms'). The owner's routes need the session and only the discussion's
 * owner passes (anyone else's discussion is a 404, as everywhere); the public ones need no account, are rate-limited
 * per client address and answer `noindex`. An unknown, revoked or expired token is one 404 with SHARE_INVALID_TEXT.
 */
export async function shareRoutes(fastify: FastifyInstance) {
  await fastify.register(ownerRoutes);
  await fastify.register(publicRoutes);
}

async function ownerRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  app.addHook('onRequest', requireUser(ctx));
  const discussionParams = z.object({ id: idText() });

  const ownId = async (userId: string, key: string) => {
    const id = await ownDiscussionId(ctx.db, userId, key);
    if (!id) throw new HttpError(404, SERVER_DETAIL.notFound);
    return id;
  };

  const createSchema = {
    tags,
    summary: 'Make a read-only share link to one of your discussions',
    description: `\`url\` is \`/s/{token}\`: shown once (only the token's SHA-256 is stored). It lives \`expires_in_days\` (default ${ROOM_LIMITS.shareDefaultDays}); a discussion has at most ${ROOM_LIMITS.maxShares} valid links.`,
    params: discussionParams,
    body: shareCreate.optional(),
    response: { 201: shareCreated },
    errors: { 404: SERVER_DETAIL.notFound, 409: 'This discussion has as many links as it may have' },
  };
  app.post('/discussions/:id/shares', { schema: createSchema }, async (req, reply) => {
    const id = await ownId(req.userId, req.params.id);
    const days = req.body?.expires_in_days ?? ROOM_LIMITS.shareDefaultDays;
    const made = await createShare(ctx.db, req.userId, id, days, ROOM_LIMITS.maxShares);
    if (!made)
      throw new HttpError(409, `A discussion has at most ${ROOM_LIMITS.maxShares} links; revoke one to make another`);
    return reply
      .status(201)
      .send({ id: made.record.id, url: sharePath(made.token), expires_at: made.record.expires_at });
  });

  const listSchema = {
    tags,
    summary: "A discussion's valid share links (without their tokens)",
    params: discussionParams,
    response: { 200: shareList },
    errors: { 404: SERVER_DETAIL.notFound },
  };
  app.get('/discussions/:id/shares', { schema: listSchema }, async (req) => ({
    shares: await listShares(ctx.db, req.userId, await ownId(req.userId, req.params.id)),
  }));

  const deleteSchema = {
    tags,
    summary: 'Revoke a share link',
    description: 'At once, on every server process: each open reads the links table.',
    params: z.object({ id: idText() }),
    response: { 204: z.undefined() },
    errors: { 404: SERVER_DETAIL.notFound },
  };
  app.delete('/shares/:id', { schema: deleteSchema }, async (req, reply) => {
    if (!(await deleteShare(ctx.db, req.userId, req.params.id))) throw new HttpError(404, SERVER_DETAIL.notFound);
    return reply.status(204).send();
  });
}

async function publicRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const limited = {
    onRequest: app.rateLimit({
      max: SHARE_OPENS_PER_MINUTE,
      timeWindow: '1 minute',
      keyGenerator: (req) => `share:${req.ip}`,
      errorResponseBuilder: (_req, c) =>
        new HttpError(429, `Too many shared pages opened in a minute; try again in ${Math.ceil(c.ttl / 1000)} s`),
    }),
  };
  const tokenParams = z.object({ token: z.string().max(64) });
  const invalid = (reply: FastifyReply) =>
    reply.status(404).header('x-robots-tag', NOINDEX).send({ detail: SHARE_INVALID_TEXT });

  const discussionSchema = {
    tags,
    summary: 'A shared discussion, read-only (public)',
    description: `No account needed. Agent names, roles, turns, positions and the replay's frames; never the owner's email, agents' prompts, models, connection ids or keys. Rate-limited per client address (${SHARE_OPENS_PER_MINUTE} a minute).`,
    security: [],
    params: tokenParams,
    response: { 200: sharedDiscussion },
    errors: { 404: SHARE_INVALID_TEXT, 429: 'Too many shared pages opened from this address' },
  };
  app.get('/shares/:token/discussion', { ...limited, schema: discussionSchema }, async (req, reply) => {
    const { token } = req.params;
    const share = SHARE_TOKEN_PATTERN.test(token) ? await openShare(ctx.db, token) : null;
    const stored = share && (await loadDiscussion(ctx.db, share.userId, share.discussionId));
    if (!share || !stored) return invalid(reply);
    return reply
      .header('x-robots-tag', NOINDEX)
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .send(publicDiscussion(stored, share.expiresAt));
  });

  // The page itself is the app; its HTML says noindex (the app reads the token from the address).
  const pageSchema = {
    tags,
    summary: 'The shared page (the app, marked noindex)',
    security: [],
    params: tokenParams,
    files: { 200: 'text/html' },
    errors: { 404: 'The app is not built' },
  };
  app.get('/s/:token', { ...limited, schema: pageSchema }, async (_req, reply) => {
    const dir = ctx.config.staticDir;
    const html = dir ? await readFile(path.join(dir, 'index.html'), 'utf8').catch(() => null) : null;
    if (!html) throw new HttpError(404, 'The app is not built');
    return reply
      .type('text/html; charset=utf-8')
      .header('x-robots-tag', NOINDEX)
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .send(html.replace('<head>', `<head>\n    ${NOINDEX_META}`));
  });
}
