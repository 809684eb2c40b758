import { z } from 'zod';
import { id } from './common';

export const audioItem = z.looseObject({
  id,
  name: z.string(),
  audio_url: z.string(),
  is_default: z.boolean(),
  transcript: z.string().nullish(),
  agent_id: z.string().optional(),
  created_at: z.string().optional(),
});
export type AudioItem = z.infer<typeof audioItem>;
export const audioList = z.array(audioItem);

/** Upload answer: the stored item, with the transcript when auto-transcription produced one. */
export const audioUploadResponse = audioItem.extend({ transcription_error: z.string().nullish() });

export const transcribeRequest = z.object({ audio_id: z.string().min(1) });
export const transcribeResponse = z.looseObject({
  success: z.boolean(),
  transcript: z.string().nullish(),
  message: z.string().nullish(),
});
export type TranscribeResponse = z.infer<typeof transcribeResponse>;

export const batchTranscribeRequest = z.object({ agent_id: z.string().min(1), force_retranscribe: z.boolean().default(false) });
export const batchTranscribeResponse = z.looseObject({ count: z.number().int().nonnegative(), message: z.string().optional() });
