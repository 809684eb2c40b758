import { z } from 'zod';
import { id, idText, text } from './common';

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
export type AudioUploadResponse = z.infer<typeof audioUploadResponse>;

export const transcribeRequest = z.object({ audio_id: idText() });
export const transcribeResponse = z.looseObject({
  success: z.boolean(),
  transcript: z.string().nullish(),
  message: z.string().nullish(),
});
export type TranscribeResponse = z.infer<typeof transcribeResponse>;

export const batchTranscribeRequest = z.object({ agent_id: idText(), force_retranscribe: z.boolean().default(false) });
export const batchTranscribeResponse = z.looseObject({
  count: z.number().int().nonnegative(),
  message: z.string().optional(),
});
export type BatchTranscribeResponse = z.infer<typeof batchTranscribeResponse>;

export const AUDIO_NAME_MAX = 200;
/** The text fields of a reference-audio upload (multipart; the file travels beside them). */
export const audioUploadFields = z.object({
  name: text()
    .trim()
    .min(1, 'name and file are required')
    .max(AUDIO_NAME_MAX, `The audio name is too long (at most ${AUDIO_NAME_MAX} characters)`),
  auto_transcribe: text().max(20).optional(),
});
/** The whole multipart body of an upload, for the API document: the fields and the file beside them. */
export const audioUploadForm = audioUploadFields.extend({
  file: z.string().meta({ contentMediaType: 'audio/*', description: 'WAV, MP3, OGG, FLAC, WebM or M4A' }),
});
export const setDefaultResponse = audioItem.extend({ success: z.boolean() });
