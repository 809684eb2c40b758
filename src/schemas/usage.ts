import { z } from 'zod';

// What a discussion spends (docs/protocol.md#costs): every turn's tokens as its model's server counted them, as the
// built-in engine's tokenizer counted them, or estimated from the text (one token per CHARS_PER_TOKEN characters)
// when neither counted; and the budgets that stop a run.

/** Where a turn's count came from, most trusted first. */
export const USAGE_SOURCES = ['provider', 'tokenizer', 'estimate'] as const;
export const usageSource = z.enum(USAGE_SOURCES);
export type UsageSource = z.infer<typeof usageSource>;

/** English text averages about 4 characters a token with the usual BPE vocabularies. */
export const CHARS_PER_TOKEN = 4;

export const estimateTokens = (text: string): number => Math.ceil(text.length / CHARS_PER_TOKEN);

/** The least trusted of two sources: a sum is an estimate when any part of it is. */
export const lessTrusted = (a: UsageSource, b: UsageSource): UsageSource =>
  USAGE_SOURCES.indexOf(a) >= USAGE_SOURCES.indexOf(b) ? a : b;

const tokens = z.number().int().nonnegative().max(100_000_000);

/** One turn's tokens (the model calls it took: its answer, a retry, its tool rounds). */
export const turnUsage = z.object({
  prompt_tokens: tokens,
  completion_tokens: tokens,
  source: usageSource,
});
export type TurnUsage = z.infer<typeof turnUsage>;

/** Carried by a turn's final frame (agent_message, text, argument) and the summary. */
export const turnUsageFields = {
  usage: turnUsage.optional().describe("The turn's tokens: counted by its model's server or tokenizer, or estimated"),
};

/** The per-discussion budget's bounds ('Stop at … tokens'; absent or null: none). */
export const TOKEN_BUDGET_BOUNDS = { min: 100, max: 100_000_000 } as const;
export const tokenBudget = z
  .number()
  .int()
  .min(TOKEN_BUDGET_BOUNDS.min)
  .max(TOKEN_BUDGET_BOUNDS.max)
  .nullish()
  .describe('Stop the discussion cleanly once its turns have spent this many tokens; null or absent: no budget');

/** The `about` of the notice a budget's stop sends (a `system` frame; an `error` frame that is not fatal on the standard sockets). */
export const BUDGET_NOTICE = 'token_budget';
