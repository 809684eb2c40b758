import type { FastifyInstance } from 'fastify';
import { authRoutes } from './auth';
import { liveSocketRoutes } from './liveSockets';
import { systemRoutes } from './system';

/** Every route group. Later features add theirs here. */
export async function registerRoutes(app: FastifyInstance) {
  await app.register(authRoutes);
  await app.register(systemRoutes);
  await app.register(liveSocketRoutes);
}
