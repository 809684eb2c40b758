import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { idText } from '../../src/schemas/common';
import { ENDPOINTS } from '../../src/schemas/constants';
import { discussionHistory, storedDiscussion } from '../../src/schemas/history';
import { SERVER_DETAIL } from '../../src/schemas/messages';
import { requireUser } from '../auth/guard';
import { HttpError } from '../http/errors';
import type { ZodTypeProvider } from '../http/routeSchema';
import { deleteDiscussion, listDiscussions, loadDiscussion } from '../engine/store';

const params = z.object({ sessionId: idText() });
const socketPaths = Object.values(ENDPOINTS).map((e) => e.path).join(', ');

/**
 * Stored discussions (every frame each one sent), scoped to the signed-in user:
 * GET /discussion/history (newest first, the latest 500; it does not page) and GET /discussion/{session_id or id}
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
  const historySchema = { tags, summary: 'Your stored discussions, newest first', response: { 200: discussionHistory } };
  app.get('/discussion/history', { schema: historySchema }, history);
  app.get('/discussion/history/', { schema: historySchema }, history);

  const oneSchema = {
    tags, summary: 'One stored discussion, whole (every frame it sent), for export and replay', description: 'By its session_id or its id.',
    params, response: { 200: storedDiscussion }, errors: { 404: SERVER_DETAIL.notFound },
  };
  app.get('/discussion/:sessionId', { schema: oneSchema }, async (req) => {
    const { sessionId } = req.params;
    const stored = await loadDiscussion(ctx.db, req.userId, sessionId);
    if (!stored) throw new HttpError(404, SERVER_DETAIL.notFound);
    return stored;
  });

  const deleteSchema = {
    tags, summary: 'Delete a stored discussion with its frames', params, response: { 204: z.undefined() },
    errors: { 404: SERVER_DETAIL.notFound, 409: SERVER_DETAIL.discussionRunning },
  };
  app.delete('/discussion/:sessionId', { schema: deleteSchema }, async (req, reply) => {
    const { sessionId } = req.params;
    const outcome = await deleteDiscussion(ctx.db, req.userId, sessionId);
    if (outcome === 'notFound') throw new HttpError(404, SERVER_DETAIL.notFound);
    if (outcome === 'running') throw new HttpError(409, SERVER_DETAIL.discussionRunning);
    return reply.status(204).send();
  });

  const notHere = async (_req: FastifyRequest, reply: import('fastify').FastifyReply) =>
    reply.status(405).header('allow', 'GET').send({ detail: `Discussions are started over a socket (${socketPaths}); GET /discussion/history lists them.` });
  const notHereSchema = { tags, summary: 'Not here: discussions are started over their sockets (see /asyncapi.json)', errors: { 405: 'Discussions are started over a socket' } };
  app.post('/discussion', { schema: notHereSchema }, notHere);
  app.post('/discussion/', { schema: notHereSchema }, notHere);
}
