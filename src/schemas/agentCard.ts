import { z } from 'zod';

// The A2A agent card (/.well-known/agent-card.json; the Agent2Agent protocol's discovery document): who this server
// is, the skill it offers (asking a saved panel) and the bearer auth it needs. Public: it names no person's data.

export const agentCard = z.looseObject({
  protocolVersion: z.string(),
  name: z.string(),
  description: z.string(),
  url: z.string(),
  preferredTransport: z.string(),
  version: z.string(),
  documentationUrl: z.string().optional(),
  capabilities: z.looseObject({ streaming: z.boolean(), pushNotifications: z.boolean() }),
  securitySchemes: z.record(z.string(), z.looseObject({ type: z.string() })),
  security: z.array(z.record(z.string(), z.array(z.string()))),
  defaultInputModes: z.array(z.string()),
  defaultOutputModes: z.array(z.string()),
  skills: z.array(
    z.looseObject({
      id: z.string(),
      name: z.string(),
      description: z.string(),
      tags: z.array(z.string()),
      examples: z.array(z.string()).optional(),
    }),
  ),
});
export type AgentCard = z.infer<typeof agentCard>;
