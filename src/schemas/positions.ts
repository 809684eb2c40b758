import { z } from 'zod';
import { OPTION_LABEL_MAX, OPTIONS_MAX, POSITION_CHANGES } from './constants';

// Positions as data (docs/protocol.md#positions): the options a discussion weighs, which one each turn holds, how
// a change of option came about, the first vote and what the discussion did to it. The server computes all of it
// (server/engine/positions); panels only show it.

export const positionChange = z.enum(POSITION_CHANGES);
export type PositionChange = z.infer<typeof positionChange>;

/**
 * How many of the leading option's holders count at half their confidence in the consensus figure, because
 * evidence was required and their last answer gave none (server/engine/consensus.ts). Absent when none.
 */
export const consensusHalvedField = {
  consensus_halved: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('Holders of the leading option counted at half confidence: evidence required, and they gave none'),
};

/** Fields a turn's final frame (agent_message, text, argument) carries beside its confidence. */
export const turnPositionFields = {
  /** The answer the agent now holds, in its words (≤ OPTION_LABEL_MAX characters). */
  position: z.string().max(OPTION_LABEL_MAX).optional(),
  /** The option on the discussion's list that position is. */
  option_id: z.string().max(64).optional(),
  /** How the agent came to a new option this turn: 'argument', 'majority', or null (kept its option, or neither). */
  changed: positionChange.nullish(),
  /** The discussion's consensus figure right after this turn (server/engine/consensus.ts). */
  consensus_score: z.number().min(0).max(1).optional(),
  /** The leading option right after this turn. */
  leader_id: z.string().max(64).nullish(),
  ...consensusHalvedField,
};

export const positionOption = z.object({ id: z.string().max(64), label: z.string().max(OPTION_LABEL_MAX) });
export type PositionOption = z.infer<typeof positionOption>;

/** A vote: the leading option, how many of how many hold it, and the consensus figure then. */
export const vote = z.object({
  option_id: z.string().max(64),
  label: z.string().max(OPTION_LABEL_MAX),
  holders: z.number().int().nonnegative(),
  of: z.number().int().nonnegative(),
  score: z.number().min(0).max(1),
});
export type Vote = z.infer<typeof vote>;

export const changeCounts = z.object({
  argument: z.number().int().nonnegative(),
  majority: z.number().int().nonnegative(),
});

/** The options list, sent when it changes (and with the first vote once every agent has answered once). */
export const positionsFrame = z.looseObject({
  type: z.literal('positions'),
  options: z.array(positionOption).max(OPTIONS_MAX),
  first_vote: vote.nullish(),
  timestamp: z.string().optional(),
});

/**
 * Who holds another option than the leading one, each with that option's label (agents that hold no option yet
 * are not dissent). Absent in frames stored before it was sent.
 */
export const dissentField = {
  dissent: z
    .array(z.object({ agent_name: z.string().max(200), label: z.string().max(OPTION_LABEL_MAX) }))
    .max(200) // one per participant
    .optional(),
};

/** What the discussion did to the first vote, carried by consensus_reached and discussion_summary. */
export const outcomeFields = {
  first_vote: vote.nullish(),
  final_vote: vote.nullish(),
  /** 'Moved by the discussion: from "…" (2 of 3) to "…" (3 of 3)' or 'The discussion did not change the first vote'. */
  outcome: z.string().optional(),
  changes: changeCounts.optional(),
};
