import { z } from 'zod';
// First, so zod is configured (no run-time code in a browser) before these schemas are built.
import './common';
import * as shared from './connectionKinds';

// Speech connections and agent voices (README 'Voices'): the REST surface under /speech-connections and
// /agents/{id}/voice. Shared by the SPA and the server; the server's route definitions carry them.

/** Every speech kind, from the one kind table ('espeak' is the server's built-in espeak-ng, read-only). */
export const speechConnectionKind = shared.kindsOf('speech');
export type SpeechConnectionKind = z.infer<typeof speechConnectionKind>;
export const SPEECH_CONNECTION_KINDS = speechConnectionKind.options;
export const SPEECH_KIND_LABELS = Object.fromEntries(
  SPEECH_CONNECTION_KINDS.map((k) => [k, shared.kindLabel('speech', k)]),
) as Record<SpeechConnectionKind, string>;
/** The speech kinds a user may add. */
export const userSpeechKind = shared.userKindsOf('speech');
export type UserSpeechKind = z.infer<typeof userSpeechKind>;
/** The ids of the server's own speech connections (from its environment, read-only). */
export const SERVER_SPEECH_IDS = { env: 'server-speech', espeak: 'server-espeak' } as const;

/** The `model` field OpenAI-style servers read (tts-1, kokoro); empty means the server's default. */
const speechModel = z
  .string()
  .trim()
  .max(100)
  .regex(/^[\w.:/@-]*$/, 'Model names are letters, digits and . : / @ - _');

export const speechConnectionCreate = z.object({
  kind: userSpeechKind,
  name: shared.connectionName,
  base_url: shared.httpUrl,
  api_key: shared.apiKey.nullish(),
  model: speechModel.nullish(),
});
export type SpeechConnectionCreate = z.infer<typeof speechConnectionCreate>;
export const speechConnectionUpdate = speechConnectionCreate.partial().omit({ kind: true });
export type SpeechConnectionUpdate = z.infer<typeof speechConnectionUpdate>;
export const speechConnectionTestBody = shared.connectionTestBodyOf(userSpeechKind);
export type SpeechConnectionTestBody = z.infer<typeof speechConnectionTestBody>;

/** What a speech server can do, as Test says it: 'lists 12 voices · can clone'. */
export const speechAbilities = z.object({
  voices: z.array(z.string()),
  /** The server answered its voice list (Kokoro's /v1/audio/voices, Chatterbox's /v1/voices). */
  lists_voices: z.boolean(),
  /** It can speak in a voice cloned from a recording (a voice library, or one-off uploads). */
  can_clone: z.boolean(),
  /** Cloned voices are kept by name on the server (Chatterbox's POST /v1/voices); else each turn uploads. */
  voice_library: z.boolean(),
  summary: z.string(),
});
export type SpeechAbilities = z.infer<typeof speechAbilities>;
export const speechConnectionTestResult = z.discriminatedUnion('ok', [
  speechAbilities.extend({ ok: z.literal(true) }),
  shared.connectionTestFailure,
]);
export type SpeechConnectionTestResult = z.infer<typeof speechConnectionTestResult>;

/** A speech connection as any client sees it: never the key, only its hint. */
export const speechConnection = speechAbilities.extend({
  id: z.string(),
  kind: speechConnectionKind,
  name: z.string(),
  base_url: z.string(),
  model: z.string().nullable(),
  api_key_hint: z.string().nullable(),
  read_only: z.boolean(),
  status: shared.connectionState,
});
export type SpeechConnection = z.infer<typeof speechConnection>;
export const speechConnectionList = z.object({ connections: z.array(speechConnection) });

export { VOICE_CONSENT_LABEL } from './constants';
export const voiceMode = z.enum(['stock', 'clone']);
export type VoiceMode = z.infer<typeof voiceMode>;
const voiceName = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[^\0\r\n/\\]+$/, 'A voice name is one line without slashes');

/** An agent's voice: a stock voice of a connection, or one cloned from its default reference recording. */
export const agentVoice = z.object({
  agent_id: z.string(),
  connection_id: z.string(),
  connection_name: z.string(),
  mode: voiceMode,
  /** The stock voice's name (mode 'stock'). */
  voice: z.string().nullable(),
  consent: z.boolean(),
  /** The name the clone has in the server's voice library; null where each turn uploads the recording. */
  registered_name: z.string().nullable(),
  /** The reference recording the clone was made from. */
  audio_id: z.string().nullable(),
  /** How the agent's card names it: 'Kokoro · af_bella', 'Chatterbox · clone of “Ada 1”'. */
  label: z.string(),
});
export type AgentVoice = z.infer<typeof agentVoice>;
export const agentVoiceAnswer = z.object({ voice: agentVoice.nullable() });
export const agentVoiceUpdate = z.object({
  connection_id: z.string().min(1).max(100),
  mode: voiceMode,
  voice: voiceName.nullish(),
  consent: z.boolean().optional(),
});
export type AgentVoiceUpdate = z.infer<typeof agentVoiceUpdate>;

export const voiceSampleBody = z.object({ voice: voiceName });
export const voiceSampleAnswer = z.object({ audio_url: z.string() });
/** What the Play sample button says. */
export const VOICE_SAMPLE_TEXT = 'Hello. This is how I sound in a discussion.';
