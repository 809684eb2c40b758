import { z } from 'zod';
import { id, idText } from './common';

/** A connection arrives in either spelling; `normalizeConnection` gives the canvas one shape. */
export const connection = z
  .looseObject({
    id,
    source: z.string().optional(),
    target: z.string().optional(),
    from_agent_id: z.string().optional(),
    to_agent_id: z.string().optional(),
  })
  .refine((c) => (c.source ?? c.from_agent_id) && (c.target ?? c.to_agent_id), 'connection needs both ends');
export type Connection = z.infer<typeof connection>;
export const connectionList = z.array(connection);

export const normalizeConnection = (c: Connection) => ({
  id: c.id,
  source: (c.source ?? c.from_agent_id) as string,
  target: (c.target ?? c.to_agent_id) as string,
});
export type Edge = ReturnType<typeof normalizeConnection>;

export const connectionCreate = z.object({ from_agent_id: idText(), to_agent_id: idText() }).meta({
  examples: [
    { from_agent_id: '5b0c7a1e-0d8e-4b9a-9f39-0c7e4f0a1b2c', to_agent_id: '9d2f3c4b-6a7e-4f10-8b21-3e5d6c7b8a90' },
  ],
});
export const autoConnectResponse = z.looseObject({
  connections_created: z.number().int().nonnegative(),
  connections: connectionList.optional(),
});
