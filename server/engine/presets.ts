import { COMMUNICATION_PRESETS } from '../../src/schemas/constants';
import type { CommunicationConfig } from '../../src/schemas/settings';

export interface ModelSettings {
  minTokens: number;
  maxTokens: number;
  temperature: number;
}

/**
 * What a model call is given, from the panel's communication settings (docs/product.md#discussions-limits): a named
 * response length uses its preset's token window and temperature; 'custom' uses the free minTokens/maxTokens and the
 * temperature slider.
 */
export function modelSettings(
  c: Pick<CommunicationConfig, 'responseLength' | 'minTokens' | 'maxTokens' | 'temperature'>,
): ModelSettings {
  if (c.responseLength === 'custom') {
    const max = Math.max(1, Math.round(c.maxTokens));
    return {
      minTokens: Math.min(Math.max(0, Math.round(c.minTokens)), max),
      maxTokens: max,
      temperature: c.temperature,
    };
  }
  const p = COMMUNICATION_PRESETS[c.responseLength];
  return { minTokens: p.min_tokens, maxTokens: p.max_tokens, temperature: p.temperature };
}

/** Roughly 1.4 tokens per English word, plus room for the JSON envelope the engine asks for. */
export const tokensForWords = (words: number) => Math.round(words * 1.4) + 120;

/** The hybrid panel gives a word budget instead of a preset. */
export const hybridModelSettings = (maxWords: number, temperature = 0.7): ModelSettings => ({
  minTokens: 0,
  maxTokens: tokensForWords(maxWords),
  temperature,
});

/** Words the standard panel's preset allows, used to trim over-long answers. */
export const wordsForTokens = (tokens: number) => Math.max(12, Math.round(tokens / 1.4));
