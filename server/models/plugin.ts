import type { FastifyInstance } from 'fastify';
import { stopPulls } from './pullJobs';
import type { ModelsState } from './service';

// The models subsystem as a Fastify plugin: `app.models` is the server's model connections state (ctx.models,
// made with the context in app.ts: the server's engines, listings, providers and the secrets box), and the model
// pulls it runs end with the server.

declare module 'fastify' {
  interface FastifyInstance {
    models: ModelsState;
  }
}

async function modelsPlugin(app: FastifyInstance) {
  app.decorate('models', app.ctx.models);
  app.addHook('onClose', async () => stopPulls(app.ctx));
}
// Its decoration and hook are the server's own, not a child scope's.
(modelsPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;

export { modelsPlugin };
