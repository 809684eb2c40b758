import { z } from 'zod';

// The OpenAI-compatible surface's wire shapes (/v1, docs/integrations.md): the subset of OpenAI's API this server
// answers, in OpenAI's own field names.

/** A saved panel is the model `panel:<name>`. */
export const PANEL_MODEL_PREFIX = 'panel:';

export const modelList = z.object({
  object: z.literal('list'),
  data: z.array(
    z.object({ id: z.string(), object: z.literal('model'), created: z.number().int(), owned_by: z.string() }),
  ),
});
