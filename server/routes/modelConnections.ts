import type { FastifyInstance } from 'fastify';
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
import { OPERATOR_ONLY } from '../../src/schemas/auth';
import { requireUser } from '../auth/guard';
import { isOperator } from '../auth/operator';
import { HttpError } from '../http/errors';
import { perUserLimit } from '../http/userRateLimit';
import type { ZodTypeProvider } from '../http/routeSchema';
import { cancelJob, deleteOllamaModel, listJobs, startPull } from '../models/pullJobs';
import {
  connectionView,
  forgetListing,
  listConnections,
  probeTarget,
  rowTarget,
  serverTargets,
} from '../models/service';
import { modelConnectionStore } from '../models/store';
import { connectionRoutes, idParams } from '../connections/routes';

// Model connections (docs/models.md): the user's own Ollama and OpenAI-compatible servers beside the server's
// own, their Test, and Ollama pulls as server jobs. Every route is scoped to the signed-in user; no answer ever
// holds an API key (only its '••••1234' hint). Each route's `schema` option validates its request and documents
// it in /openapi.json (docs/api.md).

const modelParams = z.object({ id: z.string().min(1).max(100), model: z.string().min(1).max(200) });
const jobParams = z.object({ jobId: z.string().min(1).max(100) });
const tags = ['Models'];
const NOT_FOUND = { 404: 'No such connection' };

export async function modelConnectionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  app.addHook('onRequest', requireUser(ctx));
  // Per user (every route here is signed in) and minute: Test is a cheap scanner of the server's own network,
  // Save and pulls make the server call out too.
  const perUser = (max: number, what: string) => perUserLimit(app, max, what);
  const pullLimited = perUser(ctx.config.modelPullRateLimit, 'pulls');
  const statusLimited = perUser(ctx.config.modelStatusRateLimit, 'connection checks');

  const ownOllama = async (userId: string, id: string) => {
    // The server's own Ollama is everyone's: its models are the operator's to pull and delete.
    const server = serverTargets(ctx).find((t) => t.id === id);
    if (server && !(await isOperator(ctx, userId)))
      throw new HttpError(403, OPERATOR_ONLY("pull or delete the server's own models"));
    if (server?.kind === 'ollama') return server;
    if (server) throw new HttpError(422, 'Only Ollama connections pull and delete models');
    const target = await rowTarget(ctx, await modelConnectionStore.owned(ctx.db, userId, id));
    if (target.kind !== 'ollama') throw new HttpError(422, 'Only Ollama connections pull and delete models');
    return target;
  };
  const changed = (userId: string) => ctx.hub.broadcast(userId, { type: 'model_connections_changed' });
  const serverOwned = (id: string) => serverTargets(ctx).some((t) => t.id === id);

  app.get(
    '/model-connections',
    {
      schema: {
        tags,
        summary: "List the server's own model connections and yours, each with its state and models",
        response: { 200: modelConnectionList },
      },
    },
    async (req) =>
      modelConnectionList.parse({
        connections: await listConnections(ctx, req.userId, { operator: await isOperator(ctx, req.userId) }),
      }),
  );

  // Before Start the panel asks whether the selected agents' model servers answer now: the list above may be up to
  // LISTING_TTL_MS old. Each connection is probed at once (each bounded by LIST_TIMEOUT_MS); what a user who is not
  // the operator reads of the server's own connections is what the list gives them (no address, no error text).
  app.get(
    '/model-connections/status',
    {
      ...statusLimited,
      schema: {
        tags,
        summary: 'Check every model connection now (no cached state) and list them as GET /model-connections does',
        response: { 200: modelConnectionList },
        errors: { 429: 'Too many checks in a minute' },
      },
    },
    async (req) =>
      modelConnectionList.parse({
        connections: await listConnections(ctx, req.userId, {
          fresh: true,
          operator: await isOperator(ctx, req.userId),
        }),
      }),
  );

  connectionRoutes(app, ctx, {
    path: '/model-connections',
    table: 'model_connections',
    tags,
    noun: 'model connection',
    store: modelConnectionStore,
    schemas: {
      create: modelConnectionCreate,
      update: modelConnectionUpdate,
      testBody: modelConnectionTestBody,
      testResult: modelConnectionTestResult,
      view: modelConnection,
    },
    testSummary: 'Test a connection: the models it offers, or exactly what failed',
    serverOwned,
    test: (body, apiKey) => probeTarget(ctx, { kind: body.kind, baseUrl: body.base_url, apiKey, readOnly: false }),
    toInput: (body) => ({
      kind: body.kind,
      preset: body.kind === 'openai' ? (body.preset ?? null) : null,
      name: body.name,
      base_url: body.base_url,
      api_key: body.api_key || null,
    }),
    toPatch: (body) => body,
    view: (userId, id) => connectionView(ctx, userId, id),
    forget: (id) => forgetListing(ctx, id),
  });

  // ── Ollama: pull with progress, delete ──
  app.post(
    '/model-connections/:id/pull',
    {
      ...pullLimited,
      schema: {
        tags,
        summary: 'Pull a model into an Ollama connection',
        description:
          'Runs as a server job; its progress goes out as `model_job` frames on /ws/updates, and GET /model-jobs lists it.',
        params: idParams,
        body: modelPullBody,
        response: { 202: modelJob },
        errors: {
          403: "The server's own connection, and you are not the operator",
          ...NOT_FOUND,
          429: 'Too many pulls at once or in a minute',
        },
      },
    },
    async (req, reply) => {
      const target = await ownOllama(req.userId, req.params.id);
      reply.status(202);
      return startPull(ctx, req.userId, target, req.body.model);
    },
  );

  app.delete(
    '/model-connections/:id/models/:model',
    {
      schema: {
        tags,
        summary: 'Remove a model from an Ollama connection',
        params: modelParams,
        response: { 204: z.undefined() },
        errors: {
          403: "The server's own connection, and you are not the operator",
          ...NOT_FOUND,
          502: 'Ollama refused or failed',
        },
      },
    },
    async (req, reply) => {
      const target = await ownOllama(req.userId, req.params.id);
      try {
        await deleteOllamaModel(ctx, target, req.params.model);
      } catch (e) {
        throw new HttpError(502, (e as Error).message);
      }
      changed(req.userId);
      return reply.status(204).send();
    },
  );

  app.get(
    '/model-jobs',
    {
      schema: {
        tags,
        summary: 'List your pulls, running and recently finished',
        description: 'A reloaded page reads them here.',
        response: { 200: modelJobList },
      },
    },
    async (req) => ({ jobs: listJobs(ctx, req.userId) }),
  );

  app.delete(
    '/model-jobs/:jobId',
    {
      schema: {
        tags,
        summary: 'Cancel a running pull',
        params: jobParams,
        response: { 200: modelJob },
        errors: { 404: 'No such pull' },
      },
    },
    async (req) => {
      const job = cancelJob(ctx, req.userId, req.params.jobId);
      if (!job) throw new HttpError(404, 'No such pull');
      return job;
    },
  );
}
