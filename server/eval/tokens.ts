import { estimateTokens } from '../../src/schemas/usage';
import type { ChatMessage, ChatResult } from '../providers/types';

// Tokens of one call, in the order of trust: what the model's server reported (OpenAI-compatible usage, Ollama's
// prompt_eval_count + eval_count), what the built-in engine's tokenizer counted (it reports usage too), else an
// estimate of one token per 4 characters of prompt and reply (English text averages about 4 characters a token
// with the usual BPE vocabularies). Estimated calls are counted, so a result says how much of it is estimated.

export { CHARS_PER_TOKEN, estimateTokens } from '../../src/schemas/usage';

export function callTokens(
  messages: ChatMessage[],
  result: Pick<ChatResult, 'content' | 'usage'>,
): { tokens: number; estimated: boolean } {
  if (result.usage) return { tokens: result.usage.promptTokens + result.usage.completionTokens, estimated: false };
  return {
    tokens: estimateTokens(messages.map((m) => m.content).join('\n')) + estimateTokens(result.content),
    estimated: true,
  };
}
