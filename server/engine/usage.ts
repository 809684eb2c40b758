import { callTokens } from '../eval/tokens';
import type { LlmProvider } from '../providers/types';

// A discussion's token usage, for a caller that answers with it (the OpenAI-compatible /v1, the MCP server): each
// model call reports what the provider counted, or an estimate (flagged) when it counted nothing.

export interface CallUsage {
  prompt: number;
  completion: number;
  estimated: boolean;
}
export type UsageMeter = (usage: CallUsage) => void;

/** The provider with every call counted; the provider is asked to report its usage. */
export function metered(provider: LlmProvider, meter: UsageMeter): LlmProvider {
  const counted: LlmProvider = Object.create(provider);
  counted.chat = async (req) => {
    const res = await provider.chat({ ...req, wantUsage: true });
    if (res.usage) meter({ prompt: res.usage.promptTokens, completion: res.usage.completionTokens, estimated: false });
    else {
      const prompt = callTokens(req.messages, { content: '' }).tokens;
      meter({ prompt, completion: callTokens([], res).tokens, estimated: true });
    }
    return res;
  };
  return counted;
}

/** The sum of a discussion's calls; estimated when any call was. */
export class UsageTally {
  prompt = 0;
  completion = 0;
  estimated = false;
  calls = 0;
  readonly meter: UsageMeter = (u) => {
    this.prompt += u.prompt;
    this.completion += u.completion;
    this.estimated ||= u.estimated;
    this.calls++;
  };
}
