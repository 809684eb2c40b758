import { z } from 'zod';
import { agent } from './agents';
import { modelDownload } from './builtinModels';
import { connection } from './connections';
import { modelLiveFrames } from './modelConnections';
import { monitorStats } from './system';

// /ws/updates and /ws/system (docs/product.md#workspace-states, #workspace-calls).
export const liveServerFrame = z.discriminatedUnion('type', [
  z.object({ type: z.literal('agent_created'), agent }),
  z.object({ type: z.literal('agent_updated'), agent }),
  z.object({ type: z.literal('agent_deleted'), agent_id: z.string() }),
  z.object({ type: z.literal('connection_created'), connection: connection.optional() }),
  z.object({ type: z.literal('connection_deleted'), connection_id: z.string().optional() }),
  z.object({
    type: z.literal('agent_status_update'),
    agent_id: z.string(),
    status: z.string(),
    agent_name: z.string().optional(),
  }),
  z.object({ type: z.literal('system_update'), agents: z.array(z.object({ id: z.string(), status: z.string() })) }),
  z.object({ type: z.literal('stats'), stats: monitorStats }),
  z.object({ type: z.literal('connected'), channel: z.string().optional(), user: z.string().optional() }),
  z.object({ type: z.literal('pong') }),
  ...modelLiveFrames,
  /** A built-in model file's download moved on (throttled while running; always sent when it ends). */
  z.object({ type: z.literal('model_download'), download: modelDownload }),
]);
export type LiveServerFrame = z.infer<typeof liveServerFrame>;

export const liveClientFrame = z.discriminatedUnion('type', [
  z.object({ type: z.literal('get_stats') }),
  z.object({ type: z.literal('ping') }),
]);
export type LiveClientFrame = z.infer<typeof liveClientFrame>;
