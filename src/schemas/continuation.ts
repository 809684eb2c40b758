import { z } from 'zod';
import { CONTINUATION_LINKS_MAX } from './constants';

// 'Continue from here' (History → Replay): a new discussion whose agents first hear a stored one up to a turn.

/**
 * `continued_from` in a discussion socket's first message: the user's own stored discussion (by its id) and the
 * turn (1-based, as the replay's Timeline counts) up to which its transcript goes into the new agents' prompts.
 */
export const continuedFrom = z
  .object({
    discussion_id: z.string().min(1).max(200),
    turn: z.number().int().min(1).max(1_000_000),
  })
  .strict();
export type ContinuedFrom = z.infer<typeof continuedFrom>;

/** One end of a continuation link as History shows it: the other discussion, its topic, and the turn. */
export const continuationLink = z.object({
  discussion_id: z.string(),
  topic: z.string(),
  turn: z.number().int().nonnegative(),
});
export type ContinuationLink = z.infer<typeof continuationLink>;

/** A History row's links: what it continues, and (at most CONTINUATION_LINKS_MAX) what continued it. */
export const continuationFields = {
  /** The discussion this one continues, and at which turn; null when it started fresh (or the source is deleted). */
  continued_from: continuationLink.nullish(),
  /** Discussions continued from this one, oldest first. */
  continued_in: z.array(continuationLink).max(CONTINUATION_LINKS_MAX).optional(),
};
