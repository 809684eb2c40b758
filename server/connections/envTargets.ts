import { SERVER_CONNECTION_IDS } from '../../src/schemas/modelConnections';
import { SERVER_SPEECH_IDS } from '../../src/schemas/speechConnections';
import type { ServerConfig } from '../config';
import type { AudioTarget } from './kinds';
import { serverOwnedTarget, type ConnectionTarget } from './target';

// The server's own model and audio servers, read from its environment in one place: the providers /health and the
// turns use (providers/index.ts) and the read-only connections every user's lists show (models/service.ts,
// voices/service.ts) are the same ones.

/** OPENAI_BASE_URL (OPENAI_API_KEY) first, as it is an explicit choice, then OLLAMA_HOST. */
export function envModelTargets(c: ServerConfig): ConnectionTarget<'openai' | 'ollama'>[] {
  const out: ConnectionTarget<'openai' | 'ollama'>[] = [];
  const id = SERVER_CONNECTION_IDS;
  if (c.openaiBaseUrl)
    out.push(
      serverOwnedTarget({
        id: id.openai,
        kind: 'openai',
        name: 'Server',
        baseUrl: c.openaiBaseUrl,
        apiKey: c.openaiApiKey,
      }),
    );
  if (c.ollamaHost) {
    const name = c.openaiBaseUrl ? 'Server Ollama' : 'Server';
    out.push(serverOwnedTarget({ id: id.ollama, kind: 'ollama', name, baseUrl: c.ollamaHost }));
  }
  return out;
}

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
