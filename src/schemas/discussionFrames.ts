import { z } from 'zod';
import { REASONING_STAGES } from './constants';
import {
  aclMessage,
  argument,
  consensus,
  delegation,
  discussionStatistics,
  formalCommunication,
  paper,
  participant,
  reasoningChain,
  researchResult,
} from './discussion';
import { consensusHalvedField, dissentField, outcomeFields, turnPositionFields } from './positions';
import { turnCitationFields } from './sources';
import { BUDGET_NOTICE, turnUsageFields } from './usage';

// Every frame a discussion socket may send, each written once. standardSocket.ts and hybridSocket.ts
// compose their unions from these (docs/product.md#discussions-states lists which panel reads which).

const ts = z.string().optional();

export const discussionStartedFrame = z.looseObject({
  type: z.literal('discussion_started'),
  session_id: z.string(),
  /** The stored discussion's id (the one History lists and /discussions/{id} names), so a client can address a live run. */
  discussion_id: z.string().optional(),
  endpoint: z.string().optional(),
  participants: z.array(participant).default([]),
  topic: z.string().optional(),
  timestamp: ts,
});
export const discussionInitializedFrame = z.looseObject({
  type: z.literal('discussion_initialized'),
  session_id: z.string(),
  discussion_id: z.string().optional(),
  mode: z.string().optional(),
  participants: z.array(participant).default([]),
  topic: z.string().optional(),
  max_rounds: z.number().optional(),
  resumed: z.boolean().optional(),
  timestamp: ts,
});
export const reasoningStageFrame = z.looseObject({
  type: z.literal('reasoning_stage'),
  stage: z.enum(REASONING_STAGES),
  round: z.number().int().optional(),
  description: z.string().optional(),
  timestamp: ts,
});
export const argumentFrame = z.looseObject({
  type: z.literal('argument'),
  argument,
  ...turnPositionFields,
  ...turnCitationFields,
  ...turnUsageFields,
  timestamp: ts,
});
export const researchResultFrame = z.looseObject({
  type: z.literal('research_result'),
  result: researchResult,
  timestamp: ts,
});
export const researchResultsFrame = z.looseObject({
  type: z.literal('research_results'),
  query: z.string().optional(),
  results: z.array(researchResult),
  unavailable: z.string().optional(),
  timestamp: ts,
});
export const aclMessageFrame = z.looseObject({
  type: z.literal('acl_message'),
  performative: z.string(),
  sender: z.string(),
  receiver: z.string().optional(),
  content: z.unknown(),
  natural_language: z.string().optional(),
  message: aclMessage.optional(),
  /** The turn this message answers: its speaker and its first words (Structured mode's card says it). */
  reply_to: z.object({ sender: z.string().max(200), excerpt: z.string().max(400) }).optional(),
  timestamp: ts,
});
export const consensusReachedFrame = z.looseObject({
  type: z.literal('consensus_reached'),
  score: z.number().min(0).max(1),
  ...consensusHalvedField,
  consensus,
  reached: z.boolean().default(true),
  ...outcomeFields,
  ...dissentField,
  timestamp: ts,
});
export const roundStartFrame = z.looseObject({
  type: z.literal('round_start'),
  round: z.number().int().positive(),
  max_rounds: z.number().int().optional(),
  stage: z.string().optional(),
  timestamp: ts,
});
export const roundEndFrame = z.looseObject({
  type: z.literal('round_end'),
  round: z.number().int().positive(),
  agreement: z.number().optional(),
  timestamp: ts,
});
export const agentMessageFrame = z.looseObject({
  type: z.literal('agent_message'),
  id: z.string(),
  agent_id: z.string(),
  agent_name: z.string(),
  agent_role: z.string().nullish(),
  content: z.string(),
  message_type: z.string().default('hybrid'),
  confidence: z.number().min(0).max(1).optional(),
  reasoning_chain: reasoningChain.optional(),
  formal_communications: z.array(formalCommunication).default([]),
  round: z.number().int().optional(),
  audio_id: z.string().nullish(),
  audio_url: z.string().nullish(),
  tts_pending: z.boolean().optional(),
  /** Stop arrived while this turn was streaming: the content is what was written until then. */
  interrupted: z.boolean().optional(),
  ...turnPositionFields,
  ...turnCitationFields,
  ...turnUsageFields,
  timestamp: ts,
});
/**
 * A streamed turn opens: the final `agent_message`/`text`/`argument` (or, for the summary, `discussion_summary`) of the
 * same `id` follows its deltas (docs/protocol.md#sockets).
 */
export const agentMessageStartFrame = z.looseObject({
  type: z.literal('agent_message_start'),
  id: z.string().min(1),
  agent_id: z.string(),
  agent_name: z.string(),
  round: z.number().int().optional(),
  stage: z.string().optional(),
  /** 'summary' when the closing summary is being written (its final frame is discussion_summary); a turn otherwise. */
  kind: z.enum(['turn', 'summary']).optional(),
  timestamp: ts,
});
/** A piece of a streamed turn's text; ephemeral (never stored or replayed). */
export const agentMessageDeltaFrame = z.looseObject({
  type: z.literal('agent_message_delta'),
  id: z.string().min(1),
  delta: z.string(),
});
export const discussionSummaryFrame = z.looseObject({
  type: z.literal('discussion_summary'),
  /** The id of the summary's stream (agent_message_start/delta with `kind: 'summary'`), when it was streamed. */
  id: z.string().optional(),
  summary: z.looseObject({
    text: z.string().optional(),
    rounds: z.number().optional(),
    message_count: z.number().optional(),
    consensus_score: z.number().optional(),
    performance_metrics: discussionStatistics.optional(),
    ...outcomeFields,
  }),
  ...turnUsageFields,
  timestamp: ts,
});
export const textFrame = z.looseObject({
  type: z.literal('text'),
  id: z.string().optional(),
  from_id: z.string(),
  from: z.string(),
  text: z.string(),
  turn: z.number().int(),
  reasoning: z.string().nullish(),
  evidence: z.array(z.union([z.string(), paper])).nullish(),
  delegation: delegation.nullish(),
  interrupted: z.boolean().optional(),
  ...turnPositionFields,
  ...turnCitationFields,
  ...turnUsageFields,
  timestamp: ts,
});
export const delegationFrame = z.looseObject({ type: z.literal('delegation'), delegation, timestamp: ts });
export const agentStatusFrame = z.looseObject({
  type: z.literal('agent_status'),
  agent_id: z.string(),
  agent_name: z.string().optional(),
  status: z.string(),
  timestamp: ts,
});
export const audioFrame = z.looseObject({
  type: z.literal('audio'),
  agent_id: z.string(),
  audio_url: z.string(),
  audio_id: z.string().optional(),
  message_id: z.string().optional(),
  text: z.string().optional(),
  timestamp: ts,
});
export const audioMessageFrame = z.looseObject({
  type: z.literal('audio_message'),
  agent_id: z.string(),
  agent_name: z.string().optional(),
  audio_url: z.string(),
  audio_id: z.string(),
  message_id: z.string().optional(),
  message_timestamp: z.string().optional(),
  timestamp: ts,
});
export const discussionEndedFrame = z.looseObject({
  type: z.literal('discussion_ended'),
  reason: z.string().optional(),
  session_id: z.string().optional(),
  timestamp: ts,
});
export const requestFrame = z.looseObject({
  type: z.literal('request'),
  from_agent: z.string(),
  to_agent: z.string(),
  action: z.string(),
  content: z.string().optional(),
  timestamp: ts,
});
export const ttsStreamingStartFrame = z.looseObject({
  type: z.literal('tts_streaming_start'),
  agent_name: z.string(),
  agent_id: z.string().optional(),
  total_chunks: z.number().int().nonnegative(),
  timestamp: ts,
});
export const ttsStreamingEndFrame = z.looseObject({
  type: z.literal('tts_streaming_end'),
  agent_name: z.string().optional(),
  agent_id: z.string().optional(),
  timestamp: ts,
});
export const performanceMetricFrame = z.looseObject({
  type: z.literal('performance_metric'),
  metric: z.string(),
  value: z.number(),
  timestamp: ts,
});
export const ttsErrorFrame = z.looseObject({
  type: z.literal('tts_error'),
  agent_name: z.string(),
  agent_id: z.string().optional(),
  error: z.string(),
  timestamp: ts,
});
/**
 * The `about`s of notices that are no problem of the run: a model that cannot call tools, the token budget that ended
 * it (docs/protocol.md#costs). The standard sockets send them as non-fatal `error` frames; panels show a system line.
 */
export const NOTICE_ABOUTS: ReadonlySet<string> = new Set(['tools_unsupported', BUDGET_NOTICE]);

/** A non-fatal error may carry a system line's `about`, `agent_id` and `message_id` (the standard panel has none). */
export const errorFrame = z.looseObject({
  type: z.literal('error'),
  message: z.string(),
  error: z.string().optional(),
  fatal: z.boolean().optional(),
  about: z.string().optional(),
  agent_id: z.string().optional(),
  message_id: z.string().optional(),
  timestamp: ts,
});
/**
 * `about: 'research_unavailable'`: a failed search told to the hybrid panel, whose protocol has no research frame.
 * `about: 'tools_unsupported'` with `agent_id` and `message_id`: that agent's model cannot call tools and the turn
 * runs without them (said once per agent, on its first turn with tools).
 */
export const systemFrame = z.looseObject({
  type: z.literal('system'),
  content: z.string(),
  about: z.string().optional(),
  agent_id: z.string().optional(),
  message_id: z.string().optional(),
  timestamp: ts,
});
/** The one frame a `?test=true` probe receives before the server closes 1000. */
export const probeFrame = z.looseObject({ type: z.literal('probe'), endpoint: z.string(), ok: z.literal(true) });
