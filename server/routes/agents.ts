import { randomUUID } from 'node:crypto';
import { agentColor, autoColor } from '../../src/shared/agentColors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { setAgentSources } from '../sources/store';
import { forgetAgentVoice } from '../voices/agentVoice';
import { z } from 'zod';
import { idText } from '../../src/schemas/common';
import {
  agent,
  agentCreateRequest,
  agentDeleteResponse,
  agentList,
  agentUpdate,
  position,
} from '../../src/schemas/agents';
import { AGENT_MESSAGES } from '../../src/schemas/messages';
import { toAgent, listAgents, ownedAgent, freeSlot, lockUserAgents, type AgentRow } from '../agents/agentStore';
import { deriveCapabilities } from '../agents/capabilities';
import { requireUser } from '../auth/guard';
import { HttpError } from '../http/errors';
import type { ZodTypeProvider } from '../http/routeSchema';
import { removeStoredFiles } from '../audio/audioFiles';
import { unknownToolIds } from '../tools/service';

// Creation may carry a personality, an identity (colour, avatar) and a starting position (agentCreateRequest).
const idParams = z.object({ id: idText() });
const tags = ['Agents'];
const NOT_FOUND = { 404: AGENT_MESSAGES.notFound };

/** /agents/ CRUD and /agents/{id}/position. Every query is scoped to the signed-in user. */
export async function agentRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  app.addHook('onRequest', requireUser(ctx));

  const list = async (req: FastifyRequest) => (await listAgents(ctx.db, req.userId)).map(toAgent);
  const listSchema = { tags, summary: 'List your agents', response: { 200: agentList } };
  app.get('/agents/', { schema: listSchema }, list);
  app.get('/agents', { schema: listSchema }, list);

  const create = async (req: FastifyRequest<{ Body: z.output<typeof agentCreateRequest> }>, reply: FastifyReply) => {
    const body = req.body;
    const extras = body;
    // A new agent gets a stored position at once (the given one, else a free slot clear of every other agent),
    // so agents made by a script or an import never land on top of one another.
    const row = await ctx.db.transaction(async (tx) => {
      await lockUserAgents(tx, req.userId);
      const place =
        extras.x !== undefined && extras.y !== undefined
          ? { x: extras.x, y: extras.y }
          : await freeSlot(tx, req.userId);
      // No colour given: the one the editor would have offered (from the name, clear of the colours the user's
      // agents wear), so agents a script makes do not share a colour in the feed by chance.
      const color =
        extras.color === undefined
          ? autoColor(
              body.name,
              (
                await tx.query<{ id: string; color: string | null }>(
                  'SELECT id, color FROM agents WHERE user_id = $1',
                  [req.userId],
                )
              ).map(agentColor),
            )
          : (extras.color?.toLowerCase() ?? null);
      const [inserted] = await tx.query<AgentRow>(
        `INSERT INTO agents (id, user_id, name, role, prompt, model, personality, capabilities, status, x, y, color, avatar)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, 'idle', $9, $10, $11, $12) RETURNING *`,
        [
          randomUUID(),
          req.userId,
          body.name,
          body.role,
          body.prompt,
          body.model,
          extras.personality ?? null,
          JSON.stringify(deriveCapabilities(body.role, body.prompt)),
          extras.x ?? place.x,
          extras.y ?? place.y,
          color,
          extras.avatar || null,
        ],
      );
      return inserted;
    });
    // A new agent speaks with the server's default speech until a voice is chosen.
    const agent = toAgent({ ...row, voice_label: null, source_ids: [] });
    ctx.hub.broadcast(req.userId, { type: 'agent_created', agent });
    reply.status(201);
    return agent;
  };
  const createSchema = {
    tags,
    summary: 'Create an agent',
    description: 'Broadcasts `agent_created` on the live-updates socket.',
    body: agentCreateRequest,
    response: { 201: agent },
  };
  app.post('/agents/', { schema: createSchema }, create);
  app.post('/agents', { schema: createSchema }, create);

  app.get(
    '/agents/:id',
    { schema: { tags, summary: 'One agent', params: idParams, response: { 200: agent }, errors: NOT_FOUND } },
    async (req) => {
      const { id } = req.params;
      return toAgent(await ownedAgent(ctx.db, req.userId, id));
    },
  );

  const patchSchema = {
    tags,
    summary: 'Change an agent',
    description: 'Only the fields sent change; capabilities follow the role and prompt. Broadcasts `agent_updated`.',
    params: idParams,
    body: agentUpdate.optional(),
    response: { 200: agent },
    errors: { ...NOT_FOUND, 422: 'A tool id names no tool of yours' },
  };
  app.patch('/agents/:id', { schema: patchSchema }, async (req) => {
    const { id } = req.params;
    const patch = req.body ?? {};
    const current = await ownedAgent(ctx.db, req.userId, id);
    // Its tools: each must be in the person's catalog (GET /tools), said by name otherwise.
    const tools = patch.tools ? [...new Set(patch.tools)] : (current.tools ?? []);
    if (patch.tools) {
      const unknown = await unknownToolIds(ctx, req.userId, tools);
      if (unknown.length)
        throw new HttpError(
          422,
          `No such tool among yours: ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? '…' : ''} (GET /tools lists them)`,
        );
    }
    // The agent's own sources: each must be one of the person's (a 404 in a missing one's words otherwise).
    if (patch.source_ids) {
      const ids = patch.source_ids;
      await ctx.db.transaction((tx) => setAgentSources(tx, req.userId, id, ids));
    }
    const next = {
      name: patch.name ?? current.name,
      role: patch.role ?? current.role,
      prompt: patch.prompt ?? current.prompt,
      model: patch.model ?? current.model,
      personality: patch.personality ?? current.personality,
      // null clears back to the derived look; absent keeps what is stored.
      color: patch.color === undefined ? current.color : (patch.color?.toLowerCase() ?? null),
      avatar: patch.avatar === undefined ? current.avatar : patch.avatar || null,
      ask_before_tools: patch.ask_before_tools ?? current.ask_before_tools ?? false,
    };
    // Capabilities follow the role and prompt, so they are recomputed on every update.
    const [row] = await ctx.db.query<AgentRow>(
      `UPDATE agents SET name = $3, role = $4, prompt = $5, model = $6, personality = $7, capabilities = $8::jsonb, color = $9, avatar = $10, tools = $11::text[], ask_before_tools = $12, updated_at = now()
       WHERE id = $1 AND user_id = $2 RETURNING *`,
      [
        id,
        req.userId,
        next.name,
        next.role,
        next.prompt,
        next.model,
        next.personality,
        JSON.stringify(deriveCapabilities(next.role, next.prompt)),
        next.color,
        next.avatar,
        tools,
        next.ask_before_tools,
      ],
    );
    orMissing(row);
    const agent = toAgent(await ownedAgent(ctx.db, req.userId, id));
    ctx.hub.broadcast(req.userId, { type: 'agent_updated', agent });
    return agent;
  });

  // Positions are stored as given: the 0..2000 rule is the canvas's to apply when drawing.
  const positionSchema = {
    tags,
    summary: 'Move an agent on the canvas',
    params: idParams,
    body: position,
    response: { 200: agent },
    errors: NOT_FOUND,
  };
  app.put('/agents/:id/position', { schema: positionSchema }, async (req) => {
    const { id } = req.params;
    const { x, y } = req.body;
    const [row] = await ctx.db.query<AgentRow>(
      'UPDATE agents SET x = $3, y = $4, updated_at = now() WHERE id = $1 AND user_id = $2 RETURNING *',
      [id, req.userId, x, y],
    );
    orMissing(row);
    // The whole agent, as every other answer gives it (its voice label, its sources), for the other tabs too.
    const agent = toAgent(await ownedAgent(ctx.db, req.userId, id));
    ctx.hub.broadcast(req.userId, { type: 'agent_updated', agent });
    return agent;
  });

  // The agent, its audio rows and its connections go in one transaction; the files are removed after it
  // commits (a crash in between leaves orphan files, never rows pointing at missing files).
  const deleteSchema = {
    tags,
    summary: 'Delete an agent',
    description: 'Its reference audio and its connections go with it. Broadcasts `agent_deleted`.',
    params: idParams,
    response: { 200: agentDeleteResponse },
    errors: NOT_FOUND,
  };
  app.delete('/agents/:id', { schema: deleteSchema }, async (req) => {
    const { id } = req.params;
    await ownedAgent(ctx.db, req.userId, id);
    // A cloned voice is the speaker's: it leaves the voice server with the agent (README 'Voices').
    await forgetAgentVoice(ctx, req.userId, id, (e) =>
      req.log.warn({ err: e }, 'the cloned voice could not be deleted on its server'),
    );
    const { files, connections } = await ctx.db.transaction(async (tx) => {
      await ownedAgent(tx, req.userId, id);
      const audio = await tx.query<{ file_name: string }>(
        'DELETE FROM audio_items WHERE agent_id = $1 AND user_id = $2 RETURNING file_name',
        [id, req.userId],
      );
      const conns = await tx.query<{ id: string }>(
        'DELETE FROM connections WHERE user_id = $1 AND (from_agent_id = $2 OR to_agent_id = $2) RETURNING id',
        [req.userId, id],
      );
      await tx.query('DELETE FROM agents WHERE id = $1 AND user_id = $2', [id, req.userId]);
      return { files: audio.map((a) => a.file_name), connections: conns.map((c) => c.id) };
    });
    await removeStoredFiles(ctx.config.mediaDir, files, (m) => req.log.warn(m));
    // agent_deleted already tells the canvas to drop the node's edges, so no connection_deleted frames follow.
    ctx.hub.broadcast(req.userId, { type: 'agent_deleted', agent_id: id });
    return { success: true, id, audio_deleted: files.length, connections_deleted: connections.length };
  });
}

// A row that vanished between the ownership check and the update (a concurrent delete) is a 404 too.
function orMissing(row: AgentRow | undefined): AgentRow {
  if (!row) throw new HttpError(404, AGENT_MESSAGES.notFound);
  return row;
}
