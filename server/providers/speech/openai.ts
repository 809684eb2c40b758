import { audioServer, type AudioServerOptions } from '../audioServer';
import { callSignal, networkError } from '../errors';
import type { SpeechProvider, SpeechRequest } from '../types';
import { DEFAULT_VOICE_AUDIO_MAX_BYTES, readAudioAnswer } from './audioAnswer';

// An OpenAI-compatible speech server: POST /v1/audio/speech answers audio bytes.
//
// The request is OpenAI's JSON: {model, input, voice, speed, response_format}, and nothing more: a voice cloned
// from an agent's recording is spoken through a voice-cloning connection in the speech servers' own protocol
// (server/providers/speech/voiceServer.ts), never as extra fields an OpenAI-compatible server would not read.

export interface OpenAiSpeechOptions extends AudioServerOptions {
  model?: string | null;
  voice?: string;
  /** VOICE_AUDIO_MAX_BYTES. */
  maxAudioBytes?: number;
}

const SERVICE = 'The speech server';

export function createOpenAiSpeechProvider(opts: OpenAiSpeechOptions): SpeechProvider {
  const who = { provider: 'openai-speech', service: SERVICE, what: 'speech server' };
  const { api, headers, timeoutMs, probe } = audioServer(opts, who);

  return {
    id: 'openai-speech',
    available: () => true,
    probe,

    async synthesize(req: SpeechRequest) {
      const format = req.format ?? 'wav';
      const fields: Record<string, string> = {
        model: opts.model || 'tts-1',
        input: req.text,
        voice: opts.voice ?? 'alloy',
        speed: String(req.speed ?? 1),
        response_format: format,
      };
      const url = `${api}/audio/speech`;
      const call = callSignal(timeoutMs, req.signal);
      try {
        const h: Record<string, string> = { ...headers, 'content-type': 'application/json' };
        const body = JSON.stringify({ ...fields, speed: req.speed ?? 1 });
        const res = await fetch(url, { method: 'POST', headers: h, body, signal: call.signal });
        return await readAudioAnswer(res, {
          provider: 'openai-speech',
          service: SERVICE,
          maxBytes: opts.maxAudioBytes ?? DEFAULT_VOICE_AUDIO_MAX_BYTES,
          requested: format,
        });
      } catch (e) {
        throw networkError(e, { provider: 'openai-speech', service: SERVICE, url, timeoutMs, call });
      }
    },
  };
}
