import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  modelConnection,
  modelConnectionCreate,
  modelConnectionList,
  modelConnectionTestBody,
  modelConnectionTestResult,
  modelConnectionUpdate,
  modelJob,
  modelJobList,
  modelPullBody,
} from '../../src/schemas/modelConnections';
import { requireUser } from '../auth/guard';
import { HttpError, parseWith } from '../http/errors';
import { checkUrl } from '../models/addressRule';
import { cancelJob, deleteOllamaModel, listJobs, startPull } from '../models/pullJobs';
import { connectionView, forgetListing, listConnections, probeTarget, rowTarget, secretBox, serverTargets } from '../models/service';
import { deleteRow, insertRow, ownedRow, updateRow } from '../models/store';

// Model connections (README 'Models'): the user's own Ollama and OpenAI-compatible servers beside the server's
// own, their Test, and Ollama pulls as server jobs. Every route is scoped to the signed-in user; no answer ever
// holds an API key (only its '••••1234' hint). Each route names its request and response schemas in
// `config.schemas`, which validate here and from which the OpenAPI document is generated.

const errorBody = z.object({ detail: z.string() });
const idParams = z.object({ id: z.string().min(1).max(100) });
const modelParams = z.object({ id: z.string().min(1).max(100), model: z.string().min(1).max(200) });
const jobParams = z.object({ jobId: z.string().min(1).max(100) });
const empty = z.null();

interface RouteSchemas {
  summary: string;
  params?: z.ZodType;
  body?: z.ZodType;
  response: Record<number, z.ZodType>;
}

/** The request and response schemas of one route, attached where the OpenAPI generator reads them. */
export type ModelRouteConfig = { schemas: RouteSchemas };
declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route's zod request and response schemas (routes/modelConnections.ts). */
    schemas?: RouteSchemas;
  }
}

function route<P extends z.ZodType | undefined, B extends z.ZodType | undefined>(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  schemas: RouteSchemas & { params?: P; body?: B },
  handler: (
    input: { params: P extends z.ZodType ? z.infer<P> : undefined; body: B extends z.ZodType ? z.infer<B> : undefined; userId: string },
    reply: FastifyReply,
  ) => Promise<unknown>,
) {
  const ok = Object.keys(schemas.response).map(Number).find((s) => s < 300) ?? 200;
  app.route({
    method,
    url,
    config: { schemas: { ...schemas, response: { ...schemas.response, 401: errorBody, 404: errorBody, 422: errorBody } } } satisfies ModelRouteConfig,
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const params = schemas.params ? parseWith(schemas.params, req.params) : undefined;
      const body = schemas.body ? parseWith(schemas.body, req.body ?? {}) : undefined;
      const out = await handler({ params, body, userId: req.userId } as never, reply);
      reply.status(reply.statusCode === 200 ? ok : reply.statusCode);
      if (out === undefined) return reply.send();
      // The answer is checked against its schema too: a field a client must never see cannot slip out.
      return schemas.response[reply.statusCode].parse(out);
    },
  });
}

export async function modelConnectionRoutes(app: FastifyInstance) {
  const { ctx } = app;
  app.addHook('onRequest', requireUser(ctx));
  const allowPrivate = () => ctx.config.modelConnectionsAllowPrivate;

  const refuseBlocked = async (baseUrl: string) => {
    const verdict = await checkUrl(baseUrl, allowPrivate());
    if (!verdict.ok) throw new HttpError(422, `This address may not be used: ${verdict.detail}`);
  };
  const ownOllama = async (userId: string, id: string) => {
    const server = serverTargets(ctx).find((t) => t.id === id);
    if (server) throw new HttpError(403, "The server's own connection is read-only; add your own connection to the same Ollama to pull or delete models");
    const target = await rowTarget(ctx, await ownedRow(ctx.db, userId, id));
    if (target.kind !== 'ollama') throw new HttpError(422, 'Only Ollama connections pull and delete models');
    return target;
  };
  const changed = (userId: string) => ctx.hub.broadcast(userId, { type: 'model_connections_changed' });
  // A stored key only ever goes where it was entered for: pointing the connection (or a Test) at another origin
  // needs the key typed again, so a stolen session cannot send the key to a server of its choosing.
  const sameOrigin = (a: string, b: string) => new URL(a).origin === new URL(b).origin;
  const keyStaysHome = (stored: { base_url: string; api_key_sealed: string | null }, baseUrl: string) => {
    if (stored.api_key_sealed && !sameOrigin(stored.base_url, baseUrl)) {
      throw new HttpError(422, 'Enter the API key again to use it at another address (a stored key is only sent where it was entered)');
    }
  };

  route(app, 'GET', '/model-connections', { summary: "The server's own connections and the user's, each with its state and models", response: { 200: modelConnectionList } }, async ({ userId }) => ({
    connections: await listConnections(ctx, userId),
  }));

  route(
    app,
    'POST',
    '/model-connections/test',
    { summary: 'Lists the models a connection would offer, or says exactly what failed', body: modelConnectionTestBody, response: { 200: modelConnectionTestResult } },
    async ({ body, userId }) => {
      // Editing without retyping the key tests with the stored one.
      let apiKey = body.api_key ?? null;
      if (!apiKey && body.id) {
        const row = await ownedRow(ctx.db, userId, body.id);
        keyStaysHome(row, body.base_url);
        apiKey = (await rowTarget(ctx, row)).apiKey ?? null;
      }
      return probeTarget(ctx, { kind: body.kind, baseUrl: body.base_url, apiKey, readOnly: false });
    },
  );

  route(app, 'POST', '/model-connections', { summary: 'Adds a connection', body: modelConnectionCreate, response: { 201: modelConnection, 409: errorBody } }, async ({ body, userId }) => {
    await refuseBlocked(body.base_url);
    const row = await insertRow(ctx.db, await secretBox(ctx), userId, {
      kind: body.kind,
      preset: body.kind === 'openai' ? (body.preset ?? null) : null,
      name: body.name,
      base_url: body.base_url,
      api_key: body.api_key || null,
    });
    changed(userId);
    return connectionView(ctx, userId, row.id);
  });

  route(
    app,
    'PATCH',
    '/model-connections/:id',
    { summary: 'Edits a connection (an absent api_key keeps the stored one; "" removes it)', params: idParams, body: modelConnectionUpdate, response: { 200: modelConnection, 409: errorBody } },
    async ({ params, body, userId }) => {
      if (serverTargets(ctx).some((t) => t.id === params.id)) throw new HttpError(403, "The server's own connection is read-only (it comes from the server's environment)");
      if (body.base_url) {
        await refuseBlocked(body.base_url);
        if (body.api_key === undefined) keyStaysHome(await ownedRow(ctx.db, userId, params.id), body.base_url);
      }
      await updateRow(ctx.db, await secretBox(ctx), userId, params.id, body);
      forgetListing(ctx, params.id);
      changed(userId);
      return connectionView(ctx, userId, params.id);
    },
  );

  route(app, 'DELETE', '/model-connections/:id', { summary: 'Deletes a connection and its stored key', params: idParams, response: { 204: empty } }, async ({ params, userId }, reply) => {
    if (serverTargets(ctx).some((t) => t.id === params.id)) throw new HttpError(403, "The server's own connection is read-only (it comes from the server's environment)");
    await deleteRow(ctx.db, userId, params.id);
    forgetListing(ctx, params.id);
    changed(userId);
    reply.status(204);
    return undefined;
  });

  // ── Ollama: pull with progress, delete ──
  route(
    app,
    'POST',
    '/model-connections/:id/pull',
    { summary: 'Starts pulling a model into an Ollama connection; progress goes out as model_job frames on /ws/updates', params: idParams, body: modelPullBody, response: { 202: modelJob, 403: errorBody } },
    async ({ params, body, userId }, reply) => {
      const target = await ownOllama(userId, params.id);
      reply.status(202);
      return startPull(ctx, userId, target, body.model);
    },
  );

  route(
    app,
    'DELETE',
    '/model-connections/:id/models/:model',
    { summary: 'Removes a model from an Ollama connection', params: modelParams, response: { 204: empty, 403: errorBody, 502: errorBody } },
    async ({ params, userId }, reply) => {
      const target = await ownOllama(userId, params.id);
      try {
        await deleteOllamaModel(ctx, target, params.model);
      } catch (e) {
        throw new HttpError(502, (e as Error).message);
      }
      changed(userId);
      reply.status(204);
      return undefined;
    },
  );

  route(app, 'GET', '/model-jobs', { summary: "The user's pulls, running and recently finished (a reloaded page reads them)", response: { 200: modelJobList } }, async ({ userId }) => ({
    jobs: listJobs(ctx, userId),
  }));

  route(app, 'DELETE', '/model-jobs/:jobId', { summary: 'Cancels a running pull', params: jobParams, response: { 200: modelJob } }, async ({ params, userId }) => {
    const job = cancelJob(ctx, userId, params.jobId);
    if (!job) throw new HttpError(404, 'No such pull');
    return job;
  });
}
