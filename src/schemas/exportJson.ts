import { z } from 'zod';
import { citations } from './sources';
import { argument, consensus, researchResult } from './discussion';
import { discussionFormat } from './format';
import { outcomeFields } from './positions';
import { communicationConfig, reasoningConfig, researchConfig } from './settings';

/** A tool call as the export keeps it under its turn (docs/tools.md): what was asked, what came back. */
export const exportedToolCall = z.object({
  id: z.string(),
  tool: z.string(),
  server: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  state: z.enum(['waiting', 'running', 'done', 'failed', 'refused']),
  ok: z.boolean().nullable(),
  content: z.string(),
  truncated: z.boolean(),
  ms: z.number().nullable(),
  error: z.string().nullable(),
  needs_approval: z.boolean(),
});
export type ExportedToolCall = z.infer<typeof exportedToolCall>;

/**
 * The standard panel's JSON export (docs/product.md#discussions-entities). Messages are the feed as shown: one per
 * turn, then the light rows.
 */
export const exportMessage = z.looseObject({
  id: z.string(),
  kind: z.string(),
  agent_id: z.string().nullish(),
  agent_name: z.string().nullish(),
  content: z.string(),
  timestamp: z.string().nullish(),
  audio_url: z.string().nullish(),
  /** What the protocol added to a turn (its ACL message, request, delegation), in plain words and as sent. */
  protocol: z.array(z.looseObject({ kind: z.string(), phrase: z.string() })).optional(),
  /** A format's row keeps the frame it came from (a ranking, a vote, a floor…; docs/protocol.md#formats). */
  frame: z.looseObject({ type: z.string() }).optional(),
  /** The passages of the person's sources the turn cites (docs/sources.md). */
  citations: citations.optional(),
  /** The tools the agent called in this turn, in order (docs/tools.md). */
  tool_calls: z.array(exportedToolCall).optional(),
});
/** Who took part, as a reader of the export sees them: the model by name ('Loopback sim · walk-sim-7b'), the colour. */
export const exportParticipant = z.object({
  id: z.string().max(200),
  name: z.string().max(200),
  role: z.string().max(500).nullish(),
  model: z.string().max(300).nullish(),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/),
});
export type ExportParticipant = z.infer<typeof exportParticipant>;

export const discussionExport = z.object({
  session_id: z.string(),
  endpoint: z.string(),
  context: z.string(),
  /** The agents, in the order they were chosen (absent when the panel did not know them). */
  participants: z.array(exportParticipant).max(1000).optional(),
  configuration: z.object({ communication: communicationConfig, reasoning: reasoningConfig, research: researchConfig }),
  /** The discussion's format as it was sent (the round table when none was). */
  format: discussionFormat.nullish(),
  /** The one message count (src/shared/messageCount.ts): agent turns and human messages. */
  message_count: z.number().int().nonnegative(),
  messages: z.array(exportMessage),
  argument_tree: z.array(argument),
  research_results: z.array(researchResult),
  consensus: consensus.nullable(),
  /** The server's consensus figure, the first and final vote, what the discussion did to it, the changes of mind. */
  consensus_score: z.number().min(0).max(1).nullish(),
  outcome: z.object(outcomeFields).nullish(),
  /** The outcome in the words the panel's closing row says (src/model/outcomeWords.ts); null without that row. */
  outcome_words: z
    .object({
      headline: z.string().max(200),
      body: z.string().max(20_000),
      first_vote: z.string().max(2_000).nullable(),
    })
    .nullish(),
  exported_at: z.string(),
});
export type DiscussionExport = z.infer<typeof discussionExport>;
