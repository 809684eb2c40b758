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

export const connectionCreate = z.object({ from_agent_id: idText(), to_agent_id: idText() });
export const autoConnectResponse = z.looseObject({ connections_created: z.number().int().nonnegative() });
