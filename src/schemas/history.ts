import { z } from 'zod';

export const discussionSummaryRow = z.looseObject({
  id: z.string(),
  session_id: z.string(),
  endpoint: z.string(),
  topic: z.string(),
  status: z.enum(['running', 'ended', 'abandoned']),
  frame_count: z.number().int().nonnegative(),
  /** Agents' turns plus the human's messages (absent from older servers). */
  message_count: z.number().int().nonnegative().optional(),
  created_at: z.string(),
  ended_at: z.string().nullish(),
  /** Why it ended, from its discussion_ended frame ('completed', 'consensus', 'stopped', …); absent while running. */
  end_reason: z.string().nullish(),
});
export const discussionHistory = z.array(discussionSummaryRow);
export const storedDiscussion = discussionSummaryRow.extend({
  config: z.record(z.string(), z.unknown()),
  frames: z.array(z.object({ seq: z.number().int(), data: z.record(z.string(), z.unknown()), at: z.string() })),
  /** What the human said, in order (the frames are only what the server sent). */
  human_messages: z.array(z.object({ text: z.string(), at: z.string(), timestamp: z.string().nullish() })).default([]),
});
export type DiscussionSummary = z.infer<typeof discussionSummaryRow>;
export type StoredDiscussion = z.infer<typeof storedDiscussion>;
