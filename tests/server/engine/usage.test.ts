import { describe, expect, it } from 'vitest';
import { addUsage, bothMeters, metered, UsageTally, usageOfCall, wireUsage } from '../../../server/engine/usage';
import { budgetReached } from '../../../server/engine/budget';
import type { LlmProvider } from '../../../server/providers/types';
import { estimateTokens } from '../../../src/schemas/usage';

// The one meter (server/engine/usage.ts): each call counted by the model's server, the built-in tokenizer, or an
// estimate, in that order of trust; a sum is an estimate when any part is.

const messages = [{ role: 'user' as const, content: 'x'.repeat(40) }];

describe('usageOfCall', () => {
  it("takes the model server's count, marks the built-in tokenizer's, and estimates when neither counted", () => {
    expect(usageOfCall({ messages }, { content: 'ok', usage: { promptTokens: 9, completionTokens: 2 } })).toEqual({
      prompt: 9,
      completion: 2,
      source: 'provider',
    });
    expect(
      usageOfCall({ messages }, { content: 'ok', usage: { promptTokens: 7, completionTokens: 1, byTokenizer: true } }),
    ).toEqual({ prompt: 7, completion: 1, source: 'tokenizer' });
    expect(usageOfCall({ messages }, { content: 'y'.repeat(8) })).toEqual({
      prompt: estimateTokens('x'.repeat(40)),
      completion: 2,
      source: 'estimate',
    });
  });

  it('sums with the least trusted source, and wires it as a frame carries it', () => {
    const a = { prompt: 1, completion: 2, source: 'provider' as const };
    const b = { prompt: 3, completion: 4, source: 'tokenizer' as const };
    expect(addUsage(a, b)).toEqual({ prompt: 4, completion: 6, source: 'tokenizer' });
    expect(addUsage(addUsage(null, a), { ...b, source: 'estimate' }).source).toBe('estimate');
    expect(wireUsage(a)).toEqual({ prompt_tokens: 1, completion_tokens: 2, source: 'provider' });
  });
});

describe('metered', () => {
  it('asks the provider for its usage and tells every meter of each call', async () => {
    const seen: boolean[] = [];
    const provider = {
      id: 'p',
      label: 'P',
      chat: async (req: { wantUsage?: boolean }) => {
        seen.push(!!req.wantUsage);
        return {
          content: 'hi',
          model: 'm',
          provider: 'p',
          durationMs: 1,
          usage: { promptTokens: 5, completionTokens: 1 },
        };
      },
    } as unknown as LlmProvider;
    const turn = new UsageTally();
    const all = new UsageTally();
    const counted = metered(provider, bothMeters(turn.meter, all.meter));
    await counted.chat({ model: 'm', messages });
    await counted.chat({ model: 'm', messages });
    expect(seen).toEqual([true, true]);
    expect(turn.sum).toEqual({ prompt: 10, completion: 2, source: 'provider' });
    expect(all.calls).toBe(2);
    expect(all.estimated).toBe(false);
  });
});

describe('budgetReached', () => {
  const plan = (budget: object | undefined) => ({ plan: { budget } as never });
  it('names the budget the spend has reached, the discussion’s before the day’s', () => {
    const spent = { prompt: 90, completion: 10, source: 'provider' as const };
    expect(budgetReached({ ...plan(undefined), spent })).toBeNull();
    expect(budgetReached({ ...plan({ discussion: 101, daily: null, dailyLeft: null }), spent })).toBeNull();
    expect(budgetReached({ ...plan({ discussion: 100, daily: null, dailyLeft: null }), spent })).toBe('discussion');
    expect(budgetReached({ ...plan({ discussion: null, daily: 1000, dailyLeft: 100 }), spent })).toBe('daily');
    expect(budgetReached({ ...plan({ discussion: 50, daily: 1000, dailyLeft: 100 }), spent })).toBe('discussion');
    expect(budgetReached({ ...plan({ discussion: 50, daily: 1000, dailyLeft: 100 }), spent: null })).toBeNull();
  });
});
