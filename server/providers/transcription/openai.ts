import { readFile } from 'node:fs/promises';
import { audioServer, type AudioServerOptions } from '../audioServer';
import { ProviderError, callSignal, httpError, networkError } from '../errors';
import type { TranscriptionProvider } from '../types';

// An OpenAI-compatible transcription server (OpenAI, whisper.cpp server, faster-whisper-server,
// speaches…): POST /v1/audio/transcriptions as multipart (file, model, response_format=json) → {text}.

export interface OpenAiTranscriptionOptions extends AudioServerOptions {
  model?: string | null;
}

const SERVICE = 'The transcription server';

export function createOpenAiTranscriptionProvider(opts: OpenAiTranscriptionOptions): TranscriptionProvider {
  const who = { provider: 'openai-transcription', service: SERVICE, what: 'transcription server' };
  const { api, headers, timeoutMs, probe } = audioServer(opts, who);

  return {
    id: 'openai-transcription',
    available: () => true,
    probe,

    async transcribe(file, signal) {
      const url = `${api}/audio/transcriptions`;
      const call = callSignal(timeoutMs, signal);
      const bytes = await readFile(file.path).catch(() => {
        throw new ProviderError('The audio file to transcribe is missing', 'openai-transcription', 'failed');
      });
      try {
        const form = new FormData();
        form.set('file', new Blob([bytes], { type: file.mimeType }), file.fileName);
        form.set('model', opts.model || 'whisper-1');
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
