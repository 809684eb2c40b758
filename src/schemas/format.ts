import { z } from 'zod';
import { idText, text } from './common';
import { FLOOR_BY, FORMAT_KINDS, MAX_DEBATE_SIDE } from './constants';

// A discussion's format (the first client frame's optional `format`), the frames that say who has the floor and
// how a council or a debate goes, and what a person sends to steer them (docs/protocol.md#formats). Which agent
// ids are in the discussion is checked on the server (formatProblem, server/engine/formats/index.ts): zod sees
// one frame.

const agentOrHuman = z.union([z.literal('human'), idText()]);

export const discussionFormat = z.object({
  kind: z.enum(FORMAT_KINDS),
  moderator: agentOrHuman.optional(),
  chair: idText().optional(),
  judge: agentOrHuman.optional(),
  sides: z
    .object({ for: z.array(idText()).max(MAX_DEBATE_SIDE), against: z.array(idText()).max(MAX_DEBATE_SIDE) })
    .optional(),
});
export type DiscussionFormat = z.infer<typeof discussionFormat>;
export type FormatKind = DiscussionFormat['kind'];
export type FloorBy = (typeof FLOOR_BY)[number];

const ts = z.string().optional();
const side = z.enum(['for', 'against']);

/** Who speaks next and why; sent before every turn of a discussion that has a format. */
export const floorFrame = z.looseObject({
  type: z.literal('floor'),
  agent_id: z.string(),
  agent_name: z.string().optional(),
  by: z.enum(FLOOR_BY),
  reason: z.string(),
  timestamp: ts,
});
/** A judge's vote on a debate, before the opening and after the closing. */
export const voteFrame = z.looseObject({
  type: z.literal('vote'),
  voter_id: z.string(),
  voter_name: z.string().optional(),
  side,
  confidence: z.number().min(0).max(1),
  phase: z.enum(['before', 'after']),
  reason: z.string(),
  timestamp: ts,
});
/** A council's stage or a debate's phase begins. */
export const formatStageFrame = z.looseObject({
  type: z.literal('format_stage'),
  format: z.enum(FORMAT_KINDS),
  stage: z.string(),
  title: z.string(),
  description: z.string().optional(),
  timestamp: ts,
});
/** The council's aggregated ranking: each answer, its agent (revealed once every ranking is in) and its mean rank. */
export const rankingFrame = z.looseObject({
  type: z.literal('ranking'),
  rows: z.array(
    z.object({
      label: z.string(),
      agent_id: z.string(),
      agent_name: z.string(),
      mean_rank: z.number().nullable(),
      ballots: z.number().int(),
    }),
  ),
  ballots: z
    .array(z.object({ voter_id: z.string(), order: z.array(z.string()), reasons: z.record(z.string(), z.string()) }))
    .default([]),
  timestamp: ts,
});
/** The debate's outcome: the side whose support grew (null when neither), and by how many points (0–100). */
export const debateResultFrame = z.looseObject({
  type: z.literal('debate_result'),
  side: side.nullable(),
  change: z.number(),
  for_before: z.number(),
  for_after: z.number(),
  text: z.string(),
  timestamp: ts,
});
/**
 * A plain row about the format: a moderator asking the person, waiting for the floor to be given, a close; also
 * (kind 'sources') the sources a running discussion was given, which it reads from the next turn.
 */
export const formatNoteFrame = z.looseObject({
  type: z.literal('format_note'),
  kind: z.enum(['ask', 'waiting', 'close', 'judge', 'sources']),
  text: z.string(),
  timestamp: ts,
});

/**
 * The floor the person gave while an agent spoke: queued for the next turn, cancelled by the person, or overridden
 * by the person's own @mention (said in the feed). The `floor` frame for the queued agent ends the queue.
 */
export const floorQueueFrame = z.looseObject({
  type: z.literal('floor_queue'),
  change: z.enum(['queued', 'cancelled', 'overridden']),
  /** The agent queued; null once the queue is empty. */
  agent_id: z.string().nullable(),
  agent_name: z.string().optional(),
  text: z.string(),
  timestamp: ts,
});

export const FORMAT_FRAMES = [
  floorFrame,
  floorQueueFrame,
  voteFrame,
  formatStageFrame,
  rankingFrame,
  debateResultFrame,
  formatNoteFrame,
] as const;

/** A human moderator gives the floor to an agent. */
export const giveFloorMessage = z.object({ type: z.literal('give_floor'), agent_id: idText() });
/** The person takes back the floor they gave while an agent spoke (the queue empties). */
export const cancelFloorMessage = z.object({ type: z.literal('cancel_floor') });
/** 'End discussion': the format stops here and the summary is written. */
export const endDiscussionMessage = z.object({ type: z.literal('end_discussion') });
/** A human judge's vote. */
export const judgeVoteMessage = z.object({
  type: z.literal('judge_vote'),
  side,
  confidence: z.number().min(0).max(1),
  reason: text().max(2000).optional(),
});

/** What a panel sends to steer a format (the panels' machines take it as one event). */
export type FormatRequest =
  | z.infer<typeof giveFloorMessage>
  | z.infer<typeof cancelFloorMessage>
  | z.infer<typeof endDiscussionMessage>
  | z.infer<typeof judgeVoteMessage>;
