import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppContext } from '../context';

// A subsystem as a Fastify plugin that owns its life: registering it makes its state and puts it on the context
// (where the handlers it serves read it), and the server's close ends it. fastify-plugin keeps the state and the
// close hook at the server's level instead of a child scope (no `skip-override` cast), and names the plugin so
// another can declare it as a dependency.

export interface SubsystemSpec<K extends keyof AppContext> {
  /** Makes the subsystem's state; runs once, as the plugin registers (before any route reads it). */
  create(app: FastifyInstance): AppContext[K] | Promise<AppContext[K]>;
  /** Ends what the state still runs (jobs, timers) as the server closes. */
  close?(state: AppContext[K], app: FastifyInstance): unknown;
}

export const subsystemPlugin = <K extends keyof AppContext>(name: string, key: K, spec: SubsystemSpec<K>) =>
  fp(
    async (app: FastifyInstance) => {
      const state = await spec.create(app);
      app.ctx[key] = state;
      const { close } = spec;
      if (close) app.addHook('onClose', async () => void (await close(state, app)));
    },
    { name, fastify: '5.x' },
  );
