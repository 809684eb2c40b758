import { z } from 'zod';
import { DEFAULT_TTS } from './constants';
import { ttsSettings } from './settings';

export const ttsConfig = ttsSettings;
export type TtsConfig = z.infer<typeof ttsConfig>;
export const defaultTtsConfig: TtsConfig = { ...DEFAULT_TTS };

export const ttsSpeakRequest = z.object({ text: z.string().trim().min(1).max(5000), agent_id: z.string().optional() });
export const ttsSpeakResponse = z.looseObject({ audio_url: z.string(), filename: z.string() });
export const ttsVoices = z.looseObject({ voices: z.array(z.looseObject({ id: z.string(), name: z.string(), agent_id: z.string().optional() })) });
export const ttsStatus = z.looseObject({ available: z.boolean(), provider: z.string(), detail: z.string().optional() });
