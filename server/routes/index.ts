import type { FastifyInstance } from 'fastify';
import { agentRoutes } from './agents';
import { audioRoutes } from './audio';
import { authRoutes } from './auth';
import { builtinModelRoutes } from './builtinModels';
import { connectionRoutes } from './connections';
import { discussionSocketRoutes } from './discussionSockets';
import { evalRoutes } from '../eval/routes';
import { discussionRoutes } from './discussions';
import { hybridMetaRoutes } from './hybridMeta';
import { liveSocketRoutes } from './liveSockets';
import { mediaRoutes } from './media';
import { modelConnectionRoutes } from './modelConnections';
import { researchRoutes } from './research';
import { speechConnectionRoutes } from './speechConnections';
import { embeddingRoutes } from '../sources/embedRoutes';
import { sourceRoutes } from '../sources/routes';
import { integrationRoutes } from '../integrations/routes';
import { openAiRoutes } from '../integrations/openai/routes';
import { mcpRoutes } from '../integrations/mcp/routes';
import { toolRoutes } from '../tools/routes';
import { systemRoutes } from './system';
import { ttsRoutes } from './tts';

/** Every route group. Later features add theirs here. */
export async function registerRoutes(app: FastifyInstance) {
  await app.register(authRoutes);
  await app.register(systemRoutes);
  await app.register(liveSocketRoutes);
  await app.register(agentRoutes);
  await app.register(connectionRoutes);
  await app.register(audioRoutes);
  await app.register(mediaRoutes);
  await app.register(discussionSocketRoutes);
  await app.register(discussionRoutes);
  await app.register(ttsRoutes);
  await app.register(researchRoutes);
  await app.register(hybridMetaRoutes);
  await app.register(modelConnectionRoutes);
  await app.register(builtinModelRoutes);
  await app.register(evalRoutes);
  await app.register(speechConnectionRoutes);
  await app.register(sourceRoutes);
  await app.register(integrationRoutes);
  await app.register(openAiRoutes);
  await app.register(mcpRoutes);
  await app.register(toolRoutes);
  await app.register(embeddingRoutes);
}
