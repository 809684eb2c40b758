import { z } from 'zod';
import { AGENT_COLOR_PATTERN, AGENT_PERSONALITIES, AGENT_STATUSES } from './constants';
import { id, text } from './common';
import { sourceIds } from './sources';
import { agentToolFields } from './tools';

export const personality = z.enum(AGENT_PERSONALITIES);
export const agentStatus = z.enum(AGENT_STATUSES);
export type AgentStatus = z.infer<typeof agentStatus>;

export const agent = z.looseObject({
  id,
  name: z.string(),
  role: z.string().nullish(),
  prompt: z.string().nullish(),
  model: z.string().nullish(),
  personality: personality.nullish(),
  capabilities: z.array(z.string()).nullish(),
  status: z.string().nullish(),
  x: z.number().nullish(),
  y: z.number().nullish(),
  /** The reader-facing identity (src/model/agentIdentity.ts): '#rrggbb', and initials or an emoji. */
  color: z.string().nullish(),
  avatar: z.string().nullish(),
  created_at: z.string().nullish(),
  /** Which voice it speaks with (README 'Voices'): 'Kokoro · af_bella'; null is the server's default speech. */
  voice: z.string().nullish(),
  /** Its own sources (the editor's 'Knowledge'): only it reads them in a discussion. */
  source_ids: z.array(z.string()).nullish(),
  /** The tools it may call ("<connection id>/<tool name>") and whether each call waits for approval (docs/tools.md). */
  tools: z.array(z.string()).nullish(),
  ask_before_tools: z.boolean().nullish(),
});
export type Agent = z.infer<typeof agent>;
export const agentList = z.array(agent);

const trimmedRequired = text().trim().min(1).max(10_000);
export const agentCreate = z.object({
  name: trimmedRequired.max(120),
  role: trimmedRequired.max(120),
  prompt: trimmedRequired,
  model: trimmedRequired.max(200),
});
export type AgentCreate = z.infer<typeof agentCreate>;
/** An agent's chosen colour ('#rrggbb') and avatar (an emoji or up to 4 characters); null clears back to derived. */
export const agentColorField = z.string().regex(AGENT_COLOR_PATTERN, 'Colour must be #rrggbb').nullable();
export const agentAvatarField = text().trim().max(16).nullable();
export const agentUpdate = agentCreate.partial().extend({
  personality: personality.optional(),
  color: agentColorField.optional(),
  avatar: agentAvatarField.optional(),
  source_ids: sourceIds.optional(),
  ...agentToolFields,
});
export type AgentUpdate = z.infer<typeof agentUpdate>;

export const position = z.object({ x: z.number().finite(), y: z.number().finite() });
export type Position = z.infer<typeof position>;
export const agentDeleteResponse = z.looseObject({
  success: z.boolean(),
  id: z.string(),
  audio_deleted: z.number().int().nonnegative(),
  connections_deleted: z.number().int().nonnegative(),
});

/** What POST /agents/ accepts beyond agentCreate: a personality, an identity and a starting position (all optional). */
export const agentCreateExtras = z.object({
  personality: personality.optional(),
  color: agentColorField.optional(),
  avatar: agentAvatarField.optional(),
  x: z.number().finite().optional(),
  y: z.number().finite().optional(),
});
/** POST /agents: an agent and, optionally, its personality, identity and starting position on the canvas. */
export const agentCreateRequest = agentCreate.extend(agentCreateExtras.shape).meta({
  examples: [
    {
      name: 'Ada',
      role: 'Analyst',
      prompt: 'You weigh evidence carefully and say what would change your mind.',
      model: 'offline',
      personality: 'analytical',
    },
  ],
});
export type AgentCreateRequest = z.infer<typeof agentCreateRequest>;
