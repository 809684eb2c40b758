import { readFile } from 'node:fs/promises';
import { ProviderError, callSignal, httpError, networkError, origin } from '../errors';
import { bearerHeaders, openaiApiBase } from '../openaiUrl';
import { cachedProbe, probeAnyAnswer } from '../probe';
import type { TranscriptionProvider } from '../types';

// An OpenAI-compatible transcription server (OpenAI, whisper.cpp server, faster-whisper-server,
// speaches…): POST /v1/audio/transcriptions as multipart (file, model, response_format=json) → {text}.

export interface OpenAiTranscriptionOptions {
  baseUrl: string;
  apiKey?: string;
  model?: string;
  timeoutMs?: number;
  probeCacheMs?: number;
}

const SERVICE = 'The transcription server';

export function createOpenAiTranscriptionProvider(opts: OpenAiTranscriptionOptions): TranscriptionProvider {
  const api = openaiApiBase(opts.baseUrl);
  const headers = bearerHeaders(opts.apiKey);
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const probeCacheMs = opts.probeCacheMs ?? 5_000;

  return {
    id: 'openai-transcription',
    available: () => true,

    // Any HTTP answer proves the server is there; whisper servers seldom list models.
    probe: cachedProbe(probeCacheMs, () =>
      probeAnyAnswer({
        url: `${api}/models`,
        headers,
        provider: 'openai-transcription',
        service: SERVICE,
        okDetail: `transcription server at ${origin(api)}`,
      }),
    ),

    async transcribe(file, signal) {
      const url = `${api}/audio/transcriptions`;
      const call = callSignal(timeoutMs, signal);
      const bytes = await readFile(file.path).catch(() => {
        throw new ProviderError('The audio file to transcribe is missing', 'openai-transcription', 'failed');
      });
      try {
        const form = new FormData();
        form.set('file', new Blob([bytes], { type: file.mimeType }), file.fileName);
        form.set('model', opts.model ?? 'whisper-1');
        form.set('response_format', 'json');
        const res = await fetch(url, { method: 'POST', headers, body: form, signal: call.signal });
        if (!res.ok) throw await httpError(res, 'openai-transcription', SERVICE);
        const text = await res.text();
        let body: { text?: unknown };
        try {
          body = JSON.parse(text);
        } catch {
          throw new ProviderError(`${SERVICE} answered something other than JSON`, 'openai-transcription', 'malformed');
        }
        if (typeof body.text !== 'string')
          throw new ProviderError(`${SERVICE} answered without a transcript`, 'openai-transcription', 'malformed');
        return body.text.trim();
      } catch (e) {
        throw networkError(e, { provider: 'openai-transcription', service: SERVICE, url, timeoutMs, call });
      }
    },
  };
}
