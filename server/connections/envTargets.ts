import { SERVER_SPEECH_IDS } from '../../src/schemas/speechConnections';
import type { ServerConfig } from '../config';
import type { AudioTarget } from './kinds';
import { serverOwnedTarget, type ConnectionTarget } from './target';

// The server's own audio servers, read from its environment in one place: the provider /health and the turns use
// (providers/index.ts) and the read-only connection a user's voice list shows (voices/service.ts) are the same one.

export type EnvAudioTarget = ConnectionTarget<'openai'> & AudioTarget;

const envTarget = (
  id: string,
  name: string,
  env: { baseUrl?: string; apiKey?: string; model?: string },
): EnvAudioTarget | null =>
  env.baseUrl
    ? {
        ...serverOwnedTarget({ id, kind: 'openai' as const, name, baseUrl: env.baseUrl, apiKey: env.apiKey }),
        model: env.model ?? null,
      }
    : null;

/** TTS_BASE_URL (TTS_API_KEY, TTS_MODEL), or null when the operator named no speech server. */
export const envSpeechTarget = (c: ServerConfig) =>
  envTarget(SERVER_SPEECH_IDS.env, 'Server speech', { baseUrl: c.ttsBaseUrl, apiKey: c.ttsApiKey, model: c.ttsModel });

/** TRANSCRIBE_BASE_URL (TRANSCRIBE_API_KEY, TRANSCRIBE_MODEL), or null when the operator named none. */
export const envTranscriptionTarget = (c: ServerConfig) =>
  envTarget('server-transcription', 'Server transcription', {
    baseUrl: c.transcribeBaseUrl,
    apiKey: c.transcribeApiKey,
    model: c.transcribeModel,
  });
