import type { FastifyInstance } from 'fastify';
import { agentRoutes } from './agents';
import { audioRoutes } from './audio';
import { authRoutes } from './auth';
import { builtinModelRoutes } from './builtinModels';
import { connectionRoutes } from './connections';
import { evalRoutes } from '../eval/routes';
import { discussionRoutes } from './discussions';
import { hybridMetaRoutes } from './hybridMeta';
import { socketRoutes } from '../http/sockets';
import { mediaRoutes } from './media';
import { modelConnectionRoutes } from './modelConnections';
import { researchRoutes } from './research';
import { speechConnectionRoutes } from './speechConnections';
import { embeddingRoutes } from '../sources/embedRoutes';
import { sourceRoutes } from '../sources/routes';
import { integrationRoutes } from '../integrations/routes';
import { openAiRoutes } from '../integrations/openai/routes';
import { mcpRoutes } from '../integrations/mcp/routes';
import { agentCardRoutes } from '../integrations/agentCard';
import { toolRoutes } from '../tools/routes';
import { shareRoutes } from '../shares/routes';
import { systemRoutes } from './system';
import { ttsRoutes } from './tts';

/** Every route group. Later features add theirs here. */
export async function registerRoutes(app: FastifyInstance) {
  await app.register(authRoutes);
  await app.register(systemRoutes);
  // The sockets (/ws/updates, /ws/system, the discussion sockets) and the websocket plugin, in a context of their own.
  await app.register(socketRoutes);
  await app.register(agentRoutes);
  await app.register(connectionRoutes);
  await app.register(audioRoutes);
  await app.register(mediaRoutes);
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
  await app.register(agentCardRoutes);
  await app.register(toolRoutes);
  await app.register(embeddingRoutes);
  await app.register(shareRoutes);
}
