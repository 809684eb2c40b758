import { lessTrusted, type TurnUsage, type UsageSource } from '../../src/schemas/usage';
import { callTokens } from '../eval/tokens';
import type { ChatRequest, ChatResult, LlmProvider } from '../providers/types';

// The one meter of a discussion's model calls (docs/protocol.md#costs): each call reports what its model's server
// counted, what the built-in engine's tokenizer counted, or an estimate from the text (flagged) when nothing counted.
// The engine sums a turn's calls onto its frame; a caller that answers with the total (/v1, /mcp) listens too.

export interface CallUsage {
  prompt: number;
  completion: number;
  source: UsageSource;
}
export type UsageMeter = (usage: CallUsage) => void;

/** One call's tokens, in the order of trust. */
export function usageOfCall(req: Pick<ChatRequest, 'messages'>, res: Pick<ChatResult, 'content' | 'usage'>): CallUsage {
  if (res.usage)
    return {
      prompt: res.usage.promptTokens,
      completion: res.usage.completionTokens,
      source: res.usage.byTokenizer ? 'tokenizer' : 'provider',
    };
  return {
    prompt: callTokens(req.messages, { content: '' }).tokens,
    completion: callTokens([], res).tokens,
    source: 'estimate',
  };
}

/** The provider with every call counted; the provider is asked to report its usage. */
export function metered(provider: LlmProvider, meter: UsageMeter): LlmProvider {
  const counted: LlmProvider = Object.create(provider);
  counted.chat = async (req) => {
    const res = await provider.chat({ ...req, wantUsage: true });
    meter(usageOfCall(req, res));
    return res;
  };
  return counted;
}

/** Two counts as one: the sum, estimated when either part is. */
export const addUsage = (a: CallUsage | null | undefined, b: CallUsage): CallUsage =>
  a
    ? { prompt: a.prompt + b.prompt, completion: a.completion + b.completion, source: lessTrusted(a.source, b.source) }
    : b;

export const totalOf = (u: CallUsage | null | undefined) => (u ? u.prompt + u.completion : 0);

/** As a frame carries it. */
export const wireUsage = (u: CallUsage): TurnUsage => ({
  prompt_tokens: u.prompt,
  completion_tokens: u.completion,
  source: u.source,
});

/** Meters that each hear every call. */
export const bothMeters =
  (...meters: Array<UsageMeter | undefined>): UsageMeter =>
  (u) => {
    for (const m of meters) m?.(u);
  };

/** The sum of some calls (a turn's, a discussion's); estimated when any call was. */
export class UsageTally {
  sum: CallUsage | null = null;
  calls = 0;
  readonly meter: UsageMeter = (u) => {
    this.sum = addUsage(this.sum, u);
    this.calls++;
  };
  get prompt() {
    return this.sum?.prompt ?? 0;
  }
  get completion() {
    return this.sum?.completion ?? 0;
  }
  get estimated() {
    return this.sum?.source === 'estimate';
  }
}
