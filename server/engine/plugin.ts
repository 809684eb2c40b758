import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { attachSocket, handleClientFrame } from './clientFrames';
import { ClusterEngine } from './cluster';
import { journalDir, recoverJournals } from './journal';
import { Discussions } from './registry';
import { abandonLeftovers } from './store';

// The discussion engine as a Fastify plugin: it owns the engine's life on this server. Registering it makes the
// registry of running discussions (`ctx.discussions`, `app.discussions`, engine/registry.ts), recovers
// what a killed process left (frame journals, then leftover running rows), starts the cluster engine when
// discussions outlive the process (PostgreSQL, or PGlite with DISCUSSIONS_SURVIVE_RESTART), and decorates
// `app.discussions` (the running discussions, engine/registry.ts). On close, `windDown` hands running discussions
// over to another live process or stops them; the cluster's timers and remote sockets stop with the server.
// The socket routes (routes/discussionSockets.ts) only serve sockets and call into the engine.

declare module 'fastify' {
  interface FastifyInstance {
    discussions: Discussions;
  }
}

/** Whether discussions outlive this process: several processes on PostgreSQL, or PGlite told to survive restarts. */
const survives = (app: FastifyInstance) => {
  const { ctx } = app;
  return ctx.db.kind === 'postgres' || (ctx.config.discussionsSurviveRestart && ctx.config.databaseUrl !== 'memory://');
};

async function engine(app: FastifyInstance) {
  const { ctx } = app;
  const discussions = new Discussions(ctx.config);
  ctx.discussions = discussions;
  app.decorate('discussions', discussions);
  // Frames a killed process had sent but not yet stored (engine/journal.ts) go in first.
  await recoverJournals(ctx.db, journalDir(ctx.config.dataDir), app.log).catch((err) =>
    app.log.warn({ err }, 'could not recover frame journals'),
  );
  const cluster = survives(app) ? new ClusterEngine(ctx, app.log) : null;
  discussions.cluster = cluster;
  await abandonLeftovers(ctx.db, !!cluster).catch((err) =>
    app.log.warn({ err }, 'could not mark leftover discussions abandoned'),
  );
  // Client frames forwarded from another process, and sockets that become local when this process takes their
  // discussion over, go through the same handlers as a local socket's.
  cluster?.start({
    onClientFrame: (session, raw, member) => handleClientFrame(ctx, session, raw, undefined, member),
    attachLocal: (ws, session, resumeFrom) => attachSocket(ctx, ws, session, resumeFrom),
  });
  app.addHook('onClose', async () => {
    await cluster?.stop();
  });
}
export const enginePlugin = fp(engine, { name: 'engine', fastify: '5.x' });

/**
 * The server is closing: with another process alive (cluster), running discussions are handed over to it (it takes
 * them on and their clients reconnect to it); otherwise they end with reason 'shutdown'. Whether they were handed
 * over, which the sockets' close code tells the clients.
 */
export async function windDown(app: FastifyInstance): Promise<boolean> {
  const { cluster } = app.discussions;
  const handOver = !!cluster && (await cluster.othersAlive().catch(() => false));
  if (cluster && handOver)
    app.log.info({ discussions: await cluster.handOver() }, 'handed running discussions over to the other processes');
  else await app.discussions.stopAll('shutdown');
  return handOver;
}
