import { z } from 'zod';
import { ARGUMENT_TYPES, REASONING_STAGES } from './constants';

// The entities both discussion panels show (docs/product.md#discussions-entities). Frames in standardSocket.ts and
// hybridSocket.ts carry these.

export const argument = z.looseObject({
  id: z.string(),
  agent_id: z.string(),
  agent_name: z.string().optional(),
  type: z.enum(ARGUMENT_TYPES),
  content: z.string(),
  confidence: z.number().min(0).max(1),
  supporting_evidence: z.array(z.string()).default([]),
  parent_id: z.string().nullish(),
  votes: z
    .object({ support: z.number().int().nonnegative(), oppose: z.number().int().nonnegative() })
    .default({ support: 0, oppose: 0 }),
  stage: z.enum(REASONING_STAGES).optional(),
  round: z.number().int().optional(),
});
export type Argument = z.infer<typeof argument>;

export const consensus = z.looseObject({
  solution: z.string(),
  confidence: z.number().min(0).max(1),
  support_level: z.number().min(0).max(1),
  dissenting_opinions: z.array(z.string()).default([]),
});
export type Consensus = z.infer<typeof consensus>;

export const delegation = z.looseObject({
  from: z.string().optional(),
  from_agent: z.string().optional(),
  to: z.string().optional(),
  to_agent: z.string().optional(),
  reason: z.string().optional(),
  task: z.string().optional(),
  timestamp: z.string().optional(),
});
export type Delegation = z.infer<typeof delegation>;

export const aclMessage = z.looseObject({
  performative: z.string(),
  sender: z.string(),
  receiver: z.string().optional(),
  content: z.unknown(),
  natural_language: z.string().optional(),
});
export type AclMessage = z.infer<typeof aclMessage>;

export const formalCommunication = z.looseObject({
  performative: z.string(),
  receiver: z.string().optional(),
  content: z.unknown(),
});

export const reasoningChain = z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]);

export const paper = z.looseObject({
  title: z.string(),
  authors: z.union([z.array(z.string()), z.string()]).default([]),
  year: z.union([z.number(), z.string()]).nullish(),
  abstract: z.string().nullish(),
  url: z.string().nullish(),
  source: z.string().optional(),
});
export type Paper = z.infer<typeof paper>;

export const researchResult = z.looseObject({
  source: z.string(),
  query: z.string().optional(),
  topic: z.string().optional(),
  articles: z.array(paper).optional(),
  results: z.array(paper).optional(),
});
export type ResearchResult = z.infer<typeof researchResult>;

export const discussionStatistics = z.looseObject({
  avgResponseTime: z.number().optional(),
  avgTtsTime: z.number().optional(),
  totalAudioGenerated: z.number().optional(),
  messageCount: z.number().optional(),
  delegationCount: z.number().optional(),
  consensusScore: z.number().optional(),
});
export type DiscussionStatistics = z.infer<typeof discussionStatistics>;

export const participant = z.looseObject({ id: z.string(), name: z.string(), role: z.string().nullish() });
export type Participant = z.infer<typeof participant>;
