import { z } from 'zod';

// What asking a saved panel answers, the same for the MCP server's `ask_panel` (its structured content) and the
// OpenAI-compatible /v1 (docs/integrations.md): the final answer, the consensus figure and positions in words, the
// discussion's address, and the tokens it used.

/** One agent's turn as an outside client sees it. */
export const panelTurn = z.object({
  agent_name: z.string(),
  content: z.string(),
  /** The answer the agent holds after this turn, in its words, when the discussion tracks positions. */
  position: z.string().optional(),
});
export type PanelTurn = z.infer<typeof panelTurn>;

export const panelUsage = z.object({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  total_tokens: z.number().int().nonnegative(),
  /** True when a model's server reported no counts and some were estimated (one token per 4 characters). */
  estimated: z.boolean(),
});
export type PanelUsage = z.infer<typeof panelUsage>;

export const panelAnswer = z.object({
  discussion_id: z.string(),
  /** Where the discussion is read in the app. */
  address: z.string(),
  panel: z.string(),
  /** The summary; a council's chair answer; the last turn when neither came. */
  answer: z.string(),
  /** The consensus figure, 0–1, when the discussion computed one. */
  consensus: z.number().min(0).max(1).nullable(),
  /** Where the positions ended, in words: the outcome and who held what. */
  positions: z.array(z.string()),
  turns: z.array(panelTurn),
  /** How it ended ('completed', 'consensus', 'cancelled', …). */
  end_reason: z.string().nullable(),
  usage: panelUsage,
});
export type PanelAnswer = z.infer<typeof panelAnswer>;
