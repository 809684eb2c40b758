import { z } from 'zod';
import { DISCUSSION_ORIGINS, FORMAT_KINDS } from './constants';
import { continuationFields } from './continuation';

/** One agent as it was when the discussion started: its look and model, so History draws it as it was. */
export const historyParticipant = z.looseObject({
  id: z.string(),
  name: z.string(),
  /** The agent's role when the discussion started (older discussions have none). */
  role: z.string().nullish(),
  model: z.string().nullish(),
  /** The model as it read when the discussion started ('Loopback sim · walk-sim-7b'), for when its connection goes. */
  model_label: z.string().max(300).nullish(),
  color: z.string().nullish(),
  avatar: z.string().nullish(),
});
export type HistoryParticipant = z.infer<typeof historyParticipant>;
/** The longest first line a History row carries. */
export const HISTORY_FIRST_LINE_MAX = 160;

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
  /** The discussion's format kind (docs/protocol.md#formats); null for the round table without a format. */
  format: z.string().nullish(),
  /** Who took part, in the order they were chosen (absent for discussions stored before it was recorded). */
  participants: z.array(historyParticipant).optional(),
  /** The opening words of the first turn, at most HISTORY_FIRST_LINE_MAX characters. */
  first_line: z.string().nullish(),
  /** Where it was started: the app, an MCP client through /mcp, or the OpenAI-compatible /v1 (older rows: 'app'). */
  origin: z.enum(DISCUSSION_ORIGINS).optional(),
  ...continuationFields,
});
export const discussionHistory = z.array(discussionSummaryRow);

/** GET /discussion/history/page: newest first, one page at a time, optionally only topics containing `q`. */
export const HISTORY_PAGE_DEFAULT = 50;
export const HISTORY_PAGE_MAX = 200;
export const historyPageQuery = z.object({
  /** The `next_cursor` of the previous page; absent for the first. */
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(HISTORY_PAGE_MAX).default(HISTORY_PAGE_DEFAULT),
  /** Case-insensitive text the topic must contain. */
  q: z.string().max(200).optional(),
  /** Only discussions of this format (the round table, DEFAULT_FORMAT_KIND, includes those sent with no format). */
  format: z.enum(FORMAT_KINDS).optional(),
});
export const historyPage = z.object({
  items: z.array(discussionSummaryRow),
  /** Where the next page starts; null on the last page. */
  next_cursor: z.string().nullable(),
});
export type HistoryPage = z.infer<typeof historyPage>;
export type HistoryPageQuery = z.input<typeof historyPageQuery>;
export const storedDiscussion = discussionSummaryRow.extend({
  config: z.record(z.string(), z.unknown()),
  frames: z.array(z.object({ seq: z.number().int(), data: z.record(z.string(), z.unknown()), at: z.string() })),
  /** What the human said, in order (the frames are only what the server sent). */
  human_messages: z
    .array(
      z.object({
        text: z.string(),
        at: z.string(),
        timestamp: z.string().nullish(),
        /** Who wrote it (rooms): by display name, never the email; absent for messages from before rooms. */
        author: z.object({ user_id: z.string(), display_name: z.string() }).optional(),
      }),
    )
    .default([]),
});
export type DiscussionSummary = z.infer<typeof discussionSummaryRow>;
export type StoredDiscussion = z.infer<typeof storedDiscussion>;
