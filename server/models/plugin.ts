import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createPullJobs, stopPulls } from './pullJobs';
import { createModelsState, type ModelsState } from './service';

// The models subsystem as a Fastify plugin that owns its life: registering it makes the server's model connections
// state (the server's engines, listings, providers and the secrets box) and the model pulls' table, puts them on the
// context (`ctx.models`, `ctx.modelJobs`, where the model routes and the engine read them) and on the instance
// (`app.models`); the pulls it runs end with the server.

declare module 'fastify' {
  interface FastifyInstance {
    models: ModelsState;
  }
}

export const modelsPlugin = fp(
  async (app: FastifyInstance) => {
    const { ctx } = app;
    ctx.models = createModelsState(ctx.config, ctx.providers);
    ctx.modelJobs = createPullJobs();
    app.decorate('models', ctx.models);
    app.addHook('onClose', async () => stopPulls(ctx));
  },
  { name: 'models', fastify: '5.x' },
);
