import { z } from 'zod';
import { DEFAULT_TTS } from './constants';
import { idText, text } from './common';
import { ttsSettings } from './settings';

export const ttsConfig = ttsSettings;
export type TtsConfig = z.infer<typeof ttsConfig>;
export const defaultTtsConfig: TtsConfig = { ...DEFAULT_TTS };

/** The server may lower the text bound further (TTS_MAX_TEXT_LENGTH, by default the spec's max_length of 500). */
export const TTS_TEXT_MAX = 5000;
export const ttsSpeakRequest = z
  .object({ text: text().trim().min(1).max(TTS_TEXT_MAX), agent_id: idText().optional() })
  .meta({ examples: [{ text: 'The evidence points the other way.' }] });
export const ttsSpeakResponse = z.looseObject({ audio_url: z.string(), filename: z.string() });
export const ttsVoices = z.looseObject({
  voices: z.array(z.looseObject({ id: z.string(), name: z.string(), agent_id: z.string().optional() })),
});
export const ttsStatus = z.looseObject({ available: z.boolean(), provider: z.string(), detail: z.string().optional() });
