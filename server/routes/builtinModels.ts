import { rm } from 'node:fs/promises';
import { availableParallelism, freemem, totalmem } from 'node:os';
import type { FastifyInstance } from 'fastify';
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
import { BUILTIN_CONNECTION_ID, builtinModelId } from '../models/builtinEngine';
import { forgetListing } from '../models/service';
import { HttpError } from '../http/errors';
import type { ZodTypeProvider } from '../http/routeSchema';
import { catalogueFor } from '../providers/llm/builtin/catalog';
import { ModelDownloads } from '../providers/llm/builtin/downloads';
import { importModelFile } from '../providers/llm/builtin/importFile';
import { listModelFiles, modelPath } from '../providers/llm/builtin/modelFiles';
import { Refused } from '../providers/llm/builtin/refused';

// /api/builtin-models: the built-in engine's GGUF files (server-wide, like the engine), their downloads and
// the recommended list. A download runs as a server job; its progress goes to the user who started it on
// /ws/updates as `model_download`, and GET lists it too, so a reload or a second tab picks it up.

const tags = ['Built-in models'];
const NOT_HERE = 'The built-in engine is not available on this server';

export async function builtinModelRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const builtin = ctx.providers.builtin;
  const dir = ctx.config.builtin.modelsDir;
  const downloads = new ModelDownloads({
    dir,
    allowPrivate: ctx.config.builtin.downloadAllowPrivate,
    maxBytes: ctx.config.builtin.maxModelBytes,
    onProgress: (download, userId) => {
      if (!userId) return;
      ctx.hub.broadcast(userId, { type: 'model_download', download });
      if (download.state === 'done') filesChanged(userId);
    },
  });
  // The files are the Built-in connection's models: its listing is read afresh and the user's dialog reloads it.
  function filesChanged(userId: string) {
    forgetListing(ctx, BUILTIN_CONNECTION_ID);
    ctx.hub.broadcast(userId, { type: 'model_connections_changed' });
  }
  app.addHook('onClose', () => downloads.close());

  const files = async (): Promise<BuiltinModelFile[]> => {
    const loaded = new Set(builtin?.loaded() ?? []);
    return (await listModelFiles(dir)).map((f) => ({ name: f.name, model: builtinModelId(f.name), bytes: f.bytes, modified_at: f.modifiedAt, loaded: loaded.has(f.name) }));
  };
  const refusal = (e: unknown) => (e instanceof Refused ? new HttpError(e.status, e.message) : e);
  const need = () => {
    if (!builtin) throw new HttpError(503, NOT_HERE);
  };

  app.addHook('onRequest', requireUser(ctx));

  app.get('/api/builtin-models', {
    schema: { tags, summary: "List the built-in engine's model files, downloads and recommended models", response: { 200: builtinModelsList } },
  }, async () => {
    // Read afresh each time: what fits depends on the memory free now, and a file dropped into the folder shows.
    const system = { total_bytes: totalmem(), free_bytes: freemem(), cpus: availableParallelism() };
    const { recommended, suggested } = catalogueFor(system);
    return { dir, files: await files(), downloads: await downloads.list(), recommended, import_dirs: ctx.config.builtin.importDirs, system, suggested };
  });

  app.post('/api/builtin-models/downloads', {
    schema: {
      tags, summary: 'Download a GGUF model file into the models directory',
      description: 'Runs as a server job (resumed after an interruption, SHA-256 checked when given); its progress goes out as `model_download` frames on /ws/updates, and GET lists it.',
      body: downloadRequest, response: { 202: modelDownload },
      errors: { 409: 'That file is already downloading or in the models directory', 503: NOT_HERE },
    },
  }, async (req, reply) => {
    need();
    const started = await downloads.start(req.body, req.userId).catch((e) => {
      throw refusal(e);
    });
    reply.status(202);
    return started;
  });

  app.delete('/api/builtin-models/downloads/:name', {
    schema: { tags, summary: 'Cancel a running download', params: modelFileParams, response: { 204: z.undefined() }, errors: { 404: 'No such download' } },
  }, async (req, reply) => {
    const { name } = req.params;
    if (!(await downloads.cancel(name))) throw new HttpError(404, `No download of ${name}`);
    return reply.status(204).send();
  });

  app.post('/api/builtin-models/files', {
    schema: {
      tags, summary: "Add a GGUF file already on the server's disk", description: 'Only from the directories in `import_dirs` (BUILTIN_IMPORT_DIRS).',
      body: addFileRequest, response: { 201: builtinModelFile },
      errors: { 403: 'Adding by path is off, or the path is outside the allowed directories', 404: 'No file at that path', 409: 'A file with that name is in the models directory', 503: NOT_HERE },
    },
  }, async (req, reply) => {
    need();
    const name = await importModelFile(req.body.path, ctx.config.builtin.importDirs, dir).catch((e) => {
      throw refusal(e);
    });
    const added = (await files()).find((f) => f.name === name);
    if (!added) throw new HttpError(500, `${name} was added but cannot be listed`);
    filesChanged(req.userId);
    reply.status(201);
    return added;
  });

  app.delete('/api/builtin-models/files/:name', {
    schema: { tags, summary: 'Delete a model file (unloading it first)', params: modelFileParams, response: { 204: z.undefined() }, errors: { 404: 'No such model file' } },
  }, async (req, reply) => {
    const { name } = req.params;
    const file = modelPath(dir, name);
    if (!file || !(await files()).some((f) => f.name === name)) throw new HttpError(404, `No model file ${name}`);
    await builtin?.unload(name);
    await rm(file, { force: true });
    filesChanged(req.userId);
    return reply.status(204).send();
  });
}
