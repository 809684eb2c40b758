import { rm } from 'node:fs/promises';
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
import { HttpError, parseWith } from '../http/errors';
import { RECOMMENDED_MODELS } from '../providers/llm/builtin/catalog';
import { ModelDownloads } from '../providers/llm/builtin/downloads';
import { importModelFile } from '../providers/llm/builtin/importFile';
import { BUILTIN_PREFIX, listModelFiles, modelPath } from '../providers/llm/builtin/modelFiles';
import { Refused } from '../providers/llm/builtin/refused';

// /api/builtin-models: the built-in engine's GGUF files (server-wide, like the engine), their downloads and
// the recommended list. A download runs as a server job; its progress goes to the user who started it on
// /ws/updates as `model_download`, and GET lists it too, so a reload or a second tab picks it up.

/** Each route's request and response schemas, in one table (the API documentation reads them from here). */
export const builtinModelRouteSchemas = {
  list: { method: 'GET', url: '/api/builtin-models', response: { 200: builtinModelsList } },
  download: { method: 'POST', url: '/api/builtin-models/downloads', body: downloadRequest, response: { 202: modelDownload } },
  cancelDownload: { method: 'DELETE', url: '/api/builtin-models/downloads/:name', params: modelFileParams, response: { 204: z.null() } },
  addFile: { method: 'POST', url: '/api/builtin-models/files', body: addFileRequest, response: { 201: builtinModelFile } },
  deleteFile: { method: 'DELETE', url: '/api/builtin-models/files/:name', params: modelFileParams, response: { 204: z.null() } },
} as const;

const NOT_HERE = 'The built-in engine is not available on this server';

export async function builtinModelRoutes(app: FastifyInstance) {
  const { ctx } = app;
  const builtin = ctx.providers.builtin;
  const dir = ctx.config.builtin.modelsDir;
  const downloads = new ModelDownloads({
    dir,
    allowPrivate: ctx.config.builtin.downloadAllowPrivate,
    maxBytes: ctx.config.builtin.maxModelBytes,
    onProgress: (download, userId) => userId && ctx.hub.broadcast(userId, { type: 'model_download', download }),
  });
  app.addHook('onClose', () => downloads.close());

  const files = async (): Promise<BuiltinModelFile[]> => {
    const loaded = new Set(builtin?.loaded() ?? []);
    return (await listModelFiles(dir)).map((f) => ({ name: f.name, model: BUILTIN_PREFIX + f.name, bytes: f.bytes, modified_at: f.modifiedAt, loaded: loaded.has(f.name) }));
  };
  const refusal = (e: unknown) => (e instanceof Refused ? new HttpError(e.status, e.message) : e);
  const need = () => {
    if (!builtin) throw new HttpError(503, NOT_HERE);
  };

  await app.register(async (authed) => {
    authed.addHook('onRequest', requireUser(ctx));
    const r = builtinModelRouteSchemas;

    authed.get(r.list.url, async () =>
      r.list.response[200].parse({ dir, files: await files(), downloads: await downloads.list(), recommended: RECOMMENDED_MODELS, import_dirs: ctx.config.builtin.importDirs }),
    );

    authed.post(r.download.url, async (req, reply) => {
      need();
      const body = parseWith(r.download.body, req.body);
      const started = await downloads.start(body, req.userId).catch((e) => {
        throw refusal(e);
      });
      reply.status(202);
      return r.download.response[202].parse(started);
    });

    authed.delete(r.cancelDownload.url, async (req, reply) => {
      const { name } = parseWith(r.cancelDownload.params, req.params);
      if (!(await downloads.cancel(name))) throw new HttpError(404, `No download of ${name}`);
      reply.status(204);
    });

    authed.post(r.addFile.url, async (req, reply) => {
      need();
      const body = parseWith(r.addFile.body, req.body);
      const name = await importModelFile(body.path, ctx.config.builtin.importDirs, dir).catch((e) => {
        throw refusal(e);
      });
      reply.status(201);
      return r.addFile.response[201].parse((await files()).find((f) => f.name === name));
    });

    authed.delete(r.deleteFile.url, async (req, reply) => {
      const { name } = parseWith(r.deleteFile.params, req.params);
      const file = modelPath(dir, name);
      if (!file || !(await files()).some((f) => f.name === name)) throw new HttpError(404, `No model file ${name}`);
      await builtin?.unload(name);
      await rm(file, { force: true });
      reply.status(204);
    });
  });
}
