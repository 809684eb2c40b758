import { rm } from 'node:fs/promises';
import { availableParallelism, freemem, totalmem } from 'node:os';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  addFileRequest,
  builtinModelFile,
  builtinModelsList,
  downloadRequest,
  modelDownload,
  modelFileParams,
  type BuiltinModelFile,
} from '../../src/schemas/builtinModels';
import { requireUser } from '../auth/guard';
import { isOperator, requireOperator } from '../auth/operator';
import { builtinModelId } from '../models/builtinEngine';
import { HttpError } from '../http/errors';
import type { ZodTypeProvider } from '../http/routeSchema';
import { perUserLimit } from '../http/userRateLimit';
import { catalogueFor } from '../providers/llm/builtin/catalog';
import type { Viewer } from '../providers/llm/builtin/downloads';
import { modelFilesChanged } from '../models/downloadsPlugin';
import { importModelFile } from '../providers/llm/builtin/importFile';
import { listModelFiles, modelPath, safeModelFileName } from '../providers/llm/builtin/modelFiles';
import { Refused } from '../providers/llm/builtin/refused';

// /api/builtin-models: the built-in engine's GGUF files (server-wide, like the engine), their downloads and
// the recommended list. A download runs as a server job; its progress goes to the user who started it on
// /ws/updates as `model_download`, and GET lists it too, so a reload or a second tab picks it up.

const tags = ['Built-in models'];
const NOT_HERE = 'The built-in engine is not available on this server';
const OPERATOR = "Only the server's operator manages model files";

export async function builtinModelRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const builtin = ctx.providers.builtin;
  const dir = ctx.config.builtin.modelsDir;
  // The downloads are the server's, made and ended by models/downloadsPlugin.ts.
  const downloads = app.modelDownloads;
  const filesChanged = (userId: string) => modelFilesChanged(ctx, userId);

  const files = async (): Promise<BuiltinModelFile[]> => {
    const loaded = new Set(builtin?.loaded() ?? []);
    return (await listModelFiles(dir)).map((f) => ({
      name: f.name,
      model: builtinModelId(f.name),
      bytes: f.bytes,
      modified_at: f.modifiedAt,
      loaded: loaded.has(f.name),
    }));
  };
  const refusal = (e: unknown) => (e instanceof Refused ? new HttpError(e.status, e.message) : e);
  const need = () => {
    if (!builtin) throw new HttpError(503, NOT_HERE);
  };
  // Whose downloads a request sees and may cancel: its user's own (an operator role may widen it with `all`).
  const viewerOf = (req: FastifyRequest): Viewer => ({ userId: req.userId });

  app.addHook('onRequest', requireUser(ctx));

  app.get(
    '/api/builtin-models',
    {
      schema: {
        tags,
        summary: "List the built-in engine's model files, downloads and recommended models",
        response: { 200: builtinModelsList },
      },
    },
    async (req) => {
      // The files are everyone's; managing them, and the server's paths, are the operator's (README 'Operator').
      const operator = await isOperator(ctx, req.userId);
      // Read afresh each time: what fits depends on the memory free now, and a file dropped into the folder shows.
      const system = { total_bytes: totalmem(), free_bytes: freemem(), cpus: availableParallelism() };
      const { recommended, suggested } = catalogueFor(system);
      return {
        dir: operator ? dir : null,
        files: await files(),
        downloads: await downloads.list(viewerOf(req)),
        recommended,
        import_dirs: operator ? ctx.config.builtin.importDirs : [],
        can_manage: operator,
        system,
        suggested,
      };
    },
  );

  app.post(
    '/api/builtin-models/downloads',
    {
      ...perUserLimit(app, ctx.config.downloadRateLimit, 'downloads'),
      schema: {
        tags,
        summary: 'Download a GGUF model file into the models directory',
        description:
          'Runs as a server job (resumed after an interruption, SHA-256 checked when given); its progress goes out as `model_download` frames on /ws/updates, and GET lists it.',
        body: downloadRequest,
        response: { 202: modelDownload },
        errors: {
          403: OPERATOR,
          409: 'That file is already downloading or in the models directory',
          429: 'Too many downloads running or started in a minute',
          503: NOT_HERE,
          507: 'No room for it in the models directory or on the disk',
        },
      },
    },
    async (req, reply) => {
      await requireOperator(ctx, req, 'download model files');
      need();
      const started = await downloads.start(req.body, req.userId).catch((e) => {
        throw refusal(e);
      });
      reply.status(202);
      return started;
    },
  );

  app.delete(
    '/api/builtin-models/downloads/:name',
    {
      schema: {
        tags,
        summary: 'Cancel a running download',
        params: modelFileParams,
        response: { 204: z.undefined() },
        errors: { 403: OPERATOR, 404: 'No such download' },
      },
    },
    async (req, reply) => {
      await requireOperator(ctx, req, 'cancel model downloads');
      const { name } = req.params;
      // Only a model file name names a download; anything else (a path, '..') is not one, and never reaches the disk.
      if (!safeModelFileName(name)) throw new HttpError(404, 'No such download');
      if (!(await downloads.cancel(name, viewerOf(req)))) throw new HttpError(404, `No download of ${name}`);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/builtin-models/files',
    {
      schema: {
        tags,
        summary: "Add a GGUF file already on the server's disk",
        description: 'Only from the directories in `import_dirs` (BUILTIN_IMPORT_DIRS).',
        body: addFileRequest,
        response: { 201: builtinModelFile },
        errors: {
          403: 'Not the operator, adding by path is off, or the path is outside the allowed directories',
          404: 'No file at that path',
          409: 'A file with that name is in the models directory',
          503: NOT_HERE,
        },
      },
    },
    async (req, reply) => {
      await requireOperator(ctx, req, 'add model files');
      need();
      const name = await importModelFile(req.body.path, ctx.config.builtin.importDirs, dir).catch((e) => {
        throw refusal(e);
      });
      const added = (await files()).find((f) => f.name === name);
      if (!added) throw new HttpError(500, `${name} was added but cannot be listed`);
      filesChanged(req.userId);
      reply.status(201);
      return added;
    },
  );

  app.delete(
    '/api/builtin-models/files/:name',
    {
      schema: {
        tags,
        summary: 'Delete a model file (unloading it first)',
        params: modelFileParams,
        response: { 204: z.undefined() },
        errors: { 403: OPERATOR, 404: 'No such model file' },
      },
    },
    async (req, reply) => {
      await requireOperator(ctx, req, 'delete model files');
      const { name } = req.params;
      const file = modelPath(dir, name);
      if (!file || !(await files()).some((f) => f.name === name)) throw new HttpError(404, `No model file ${name}`);
      await builtin?.unload(name);
      await rm(file, { force: true });
      filesChanged(req.userId);
      return reply.status(204).send();
    },
  );
}
