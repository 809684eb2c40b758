import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { idText } from '../../src/schemas/common';
import { ENDPOINTS } from '../../src/schemas/constants';
import { discussionHistory, storedDiscussion } from '../../src/schemas/history';
import { SERVER_DETAIL } from '../../src/schemas/messages';
import { requireUser } from '../auth/guard';
import { HttpError } from '../http/errors';
import type { ZodTypeProvider } from '../http/routeSchema';
import { deleteDiscussion, listDiscussionPage, listDiscussions, loadDiscussion } from '../engine/store';
import { historyPage, historyPageQuery } from '../../src/schemas/history';
import { ROOM_DETAIL } from '../rooms/routes';
import { isMemberOfKey } from '../rooms/store';

const params = z.object({ sessionId: idText() });
const socketPaths = Object.values(ENDPOINTS)
  .map((e) => e.path)
  .join(', ');

/**
 * Stored discussions (every frame each one sent), scoped to the signed-in user:
 * GET /discussion/history (newest first, the latest 500; kept as it was for older clients), GET
 * /discussion/history/page?cursor=&limit=&q= (newest first, a page at a time, `next_cursor` for the next, `q` a topic filter) and GET /discussion/{session_id or id}
 * (whole, for export and replay). DELETE /discussion/{session_id or id} removes one with its frames and human
 * messages in one transaction: anyone else's is a 404, a running one a 409.
 * POST /discussion is declared by the spec without a body; discussions are started over their sockets, so it
 * answers 405 with an Allow header and a detail naming them.
 */
export async function discussionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['Discussions'];
  app.addHook('onRequest', requireUser(ctx));

  const history = async (req: FastifyRequest) => listDiscussions(ctx.db, req.userId);
  const historySchema = {
    tags,
    summary: 'Your stored discussions, newest first (the latest 500)',
    response: { 200: discussionHistory },
  };
  app.get('/discussion/history', { schema: historySchema }, history);
  app.get('/discussion/history/', { schema: historySchema }, history);
  // Past the latest 500: pages with a cursor, and a topic filter (the History dialog's infinite scroll).
  const pageSchema = {
    tags,
    summary: 'Your stored discussions, a page at a time, optionally filtered by topic',
    querystring: historyPageQuery,
    response: { 200: historyPage },
  };
  app.get('/discussion/history/page', { schema: pageSchema }, async (req) =>
    listDiscussionPage(ctx.db, req.userId, req.query),
  );

  const oneSchema = {
    tags,
    summary: 'One stored discussion, whole (every frame it sent), for export and replay',
    description: 'By its session_id or its id.',
    params,
    response: { 200: storedDiscussion },
    errors: { 404: SERVER_DETAIL.notFound },
  };
  app.get('/discussion/:sessionId', { schema: oneSchema }, async (req) => {
    const { sessionId } = req.params;
    const stored = await loadDiscussion(ctx.db, req.userId, sessionId);
    if (!stored) throw new HttpError(404, SERVER_DETAIL.notFound);
    return stored;
  });

  const deleteSchema = {
    tags,
    summary: 'Delete a stored discussion with its frames',
    params,
    response: { 204: z.undefined() },
    errors: { 403: ROOM_DETAIL.ownerOnly, 404: SERVER_DETAIL.notFound, 409: SERVER_DETAIL.discussionRunning },
  };
  app.delete('/discussion/:sessionId', { schema: deleteSchema }, async (req, reply) => {
    const { sessionId } = req.params;
    // Gone from memory too, in the same step: an ended discussion kept for a late reconnect is neither replayed nor
    // re-attached any more, and its session_id starts a new discussion.
    let deleted: string | null = null;
    const outcome = await deleteDiscussion(ctx.db, req.userId, sessionId, (id) => (deleted = id));
    if (deleted) app.discussions.forget(req.userId, deleted);
    // A member of someone else's room sees it, but deleting is its owner's (rooms/).
    if (outcome === 'notFound' && (await isMemberOfKey(ctx.db, req.userId, sessionId)))
      throw new HttpError(403, ROOM_DETAIL.ownerOnly);
    if (outcome === 'notFound') throw new HttpError(404, SERVER_DETAIL.notFound);
    if (outcome === 'running') throw new HttpError(409, SERVER_DETAIL.discussionRunning);
    return reply.status(204).send();
  });

  const notHere = async (_req: FastifyRequest, reply: import('fastify').FastifyReply) =>
    reply
      .status(405)
      .header('allow', 'GET')
      .send({ detail: `Discussions are started over a socket (${socketPaths}); GET /discussion/history lists them.` });
  const notHereSchema = {
    tags,
    summary: 'Not here: discussions are started over their sockets (see /asyncapi.json)',
    errors: { 405: 'Discussions are started over a socket' },
  };
  app.post('/discussion', { schema: notHereSchema }, notHere);
  app.post('/discussion/', { schema: notHereSchema }, notHere);
}
