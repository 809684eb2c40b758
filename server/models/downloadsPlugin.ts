import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppContext } from '../context';
import { ModelDownloads } from '../providers/llm/builtin/downloads';
import { BUILTIN_CONNECTION_ID } from './builtinEngine';
import { forgetListing } from './service';

// The built-in engine's model downloads as a Fastify plugin: one ModelDownloads per server (`app.modelDownloads`),
// its progress sent to the user who started it on /ws/updates as `model_download`; running downloads are
// aborted when the server closes. The routes (routes/builtinModels.ts) only start, list and cancel them.

declare module 'fastify' {
  interface FastifyInstance {
    modelDownloads: ModelDownloads;
  }
}

/** The files are the Built-in connection's models: its listing is read afresh and the user's dialog reloads it. */
export function modelFilesChanged(ctx: AppContext, userId: string) {
  forgetListing(ctx, BUILTIN_CONNECTION_ID);
  ctx.hub.broadcast(userId, { type: 'model_connections_changed' });
}

export const modelDownloadsPlugin = fp(
  async (app: FastifyInstance) => {
    const { ctx } = app;
    const builtin = ctx.config.builtin;
    const downloads = new ModelDownloads({
      dir: builtin.modelsDir,
      allowPrivate: builtin.downloadAllowPrivate,
      maxBytes: builtin.maxModelBytes,
      maxPerUser: builtin.maxDownloadsPerUser,
      maxRunning: builtin.maxDownloads,
      maxTotalBytes: builtin.maxTotalBytes,
      minFreeBytes: builtin.minFreeDiskBytes,
      onProgress: (download, userId) => {
        if (!userId) return;
        ctx.hub.broadcast(userId, { type: 'model_download', download });
        if (download.state === 'done') modelFilesChanged(ctx, userId);
      },
    });
    app.decorate('modelDownloads', downloads);
    app.addHook('onClose', () => downloads.close());
  },
  // The connections' state first: a finished download forgets the built-in connection's listing.
  { name: 'model-downloads', fastify: '5.x', dependencies: ['models'] },
);
