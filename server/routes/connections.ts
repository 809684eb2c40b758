import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { idText } from '../../src/schemas/common';
import { deletedResponse } from '../../src/schemas/common';
import { autoConnectResponse, connection, connectionCreate, connectionList } from '../../src/schemas/connections';
import { listAgents, ownedAgent } from '../agents/agentStore';
import { planAutoConnect, toConnection, type ConnectionRow } from '../agents/connectionStore';
import { requireUser } from '../auth/guard';
import { HttpError } from '../http/errors';
import type { ZodTypeProvider } from '../http/routeSchema';

export const CONNECTION_NOT_FOUND = 'Connection not found';
export const SELF_CONNECTION = 'An agent cannot be connected to itself';
const idParams = z.object({ id: idText() });

/** /connections/ list, create, delete and auto-connect, scoped to the signed-in user. */
export async function connectionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['Connections'];
  app.addHook('onRequest', requireUser(ctx));

  const list = async (req: FastifyRequest) =>
    (
      await ctx.db.query<ConnectionRow>('SELECT * FROM connections WHERE user_id = $1 ORDER BY created_at, id', [
        req.userId,
      ])
    ).map(toConnection);
  const listSchema = {
    tags,
    summary: 'List your connections (directed edges between agents)',
    response: { 200: connectionList },
  };
  app.get('/connections/', { schema: listSchema }, list);
  app.get('/connections', { schema: listSchema }, list);

  // Connections are directed (from → to), so A→B and B→A are two connections. Creating one that already
  // exists answers the existing one with 200 instead of an error: dragging the same edge twice is harmless.
  const create = async (req: FastifyRequest<{ Body: z.output<typeof connectionCreate> }>, reply: FastifyReply) => {
    const body = req.body;
    if (body.from_agent_id === body.to_agent_id) throw new HttpError(400, SELF_CONNECTION);
    const { row, created } = await ctx.db.transaction(async (tx) => {
      await ownedAgent(tx, req.userId, body.from_agent_id);
      await ownedAgent(tx, req.userId, body.to_agent_id);
      const [inserted] = await tx.query<ConnectionRow>(
        `INSERT INTO connections (id, user_id, from_agent_id, to_agent_id) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id, from_agent_id, to_agent_id) DO NOTHING RETURNING *`,
        [randomUUID(), req.userId, body.from_agent_id, body.to_agent_id],
      );
      if (inserted) return { row: inserted, created: true };
      const [existing] = await tx.query<ConnectionRow>(
        'SELECT * FROM connections WHERE user_id = $1 AND from_agent_id = $2 AND to_agent_id = $3',
        [req.userId, body.from_agent_id, body.to_agent_id],
      );
      return { row: existing, created: false };
    });
    const connection = toConnection(row);
    if (created) ctx.hub.broadcast(req.userId, { type: 'connection_created', connection });
    reply.status(created ? 201 : 200);
    return connection;
  };
  const createSchema = {
    tags,
    summary: 'Connect two agents',
    description: 'Answers 201 with the new connection, or 200 with the existing one. Broadcasts `connection_created`.',
    body: connectionCreate,
    response: { 200: connection, 201: connection },
    errors: { 400: SELF_CONNECTION, 404: 'Agent not found' },
  };
  app.post('/connections/', { schema: createSchema }, create);
  app.post('/connections', { schema: createSchema }, create);

  const deleteSchema = {
    tags,
    summary: 'Delete a connection',
    params: idParams,
    response: { 200: deletedResponse },
    errors: { 404: CONNECTION_NOT_FOUND },
  };
  app.delete('/connections/:id', { schema: deleteSchema }, async (req) => {
    const { id } = req.params;
    const [row] = await ctx.db.query<ConnectionRow>(
      'DELETE FROM connections WHERE id = $1 AND user_id = $2 RETURNING *',
      [id, req.userId],
    );
    if (!row) throw new HttpError(404, CONNECTION_NOT_FOUND);
    ctx.hub.broadcast(req.userId, { type: 'connection_deleted', connection_id: id });
    return { success: true, id };
  });

  const autoSchema = {
    tags,
    summary: 'Connect every pair of your agents that is not connected yet',
    response: { 200: autoConnectResponse },
  };
  app.post('/connections/auto-connect', { schema: autoSchema }, async (req) => {
    const created = await ctx.db.transaction(async (tx) => {
      const agents = await listAgents(tx, req.userId);
      const existing = await tx.query<ConnectionRow>(
        'SELECT from_agent_id, to_agent_id FROM connections WHERE user_id = $1',
        [req.userId],
      );
      const rows: ConnectionRow[] = [];
      for (const [from, to] of planAutoConnect(
        agents.map((a) => a.id),
        existing,
      )) {
        const [row] = await tx.query<ConnectionRow>(
          `INSERT INTO connections (id, user_id, from_agent_id, to_agent_id) VALUES ($1, $2, $3, $4)
           ON CONFLICT (user_id, from_agent_id, to_agent_id) DO NOTHING RETURNING *`,
          [randomUUID(), req.userId, from, to],
        );
        if (row) rows.push(row);
      }
      return rows;
    });
    // One frame for the whole batch: the canvas reloads the connection list on it, once instead of n times.
    if (created.length) ctx.hub.broadcast(req.userId, { type: 'connection_created' });
    return { connections_created: created.length, connections: created.map(toConnection) };
  });
}
