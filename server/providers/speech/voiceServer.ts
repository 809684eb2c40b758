import { ProviderError, callSignal, httpError, networkError } from '../errors';
import { bearerHeaders, openaiApiBase } from '../openaiUrl';
import { MIME_BY_EXTENSION, extensionFor, fixWavSizes } from './audioTypes';

// The calls a speech connection makes, in the shapes the servers people run actually read (README 'Voices'):
//   - OpenAI's POST /v1/audio/speech {model, input, voice, speed, response_format} (OpenAI, openedai-speech,
//     Kokoro-FastAPI); Kokoro lists its voices at GET /v1/audio/voices;
//   - the Chatterbox TTS API: POST /v1/audio/speech {input, voice, exaggeration, cfg_weight, temperature} with
//     `voice` naming a voice of its library, GET/POST /v1/voices (multipart voice_file + voice_name),
//     DELETE /v1/voices/{name}, and POST /v1/audio/speech/upload (multipart with voice_file) for a one-off clone.

export interface VoiceServer {
  kind: 'openai' | 'chatterbox';
  baseUrl: string;
  apiKey?: string | null;
  model?: string | null;
}

export interface RecordingFile {
  data: Buffer;
  fileName: string;
  mimeType: string;
}

/** OpenAI's own voices: what a server that does not list its voices most likely takes. */
export const OPENAI_STOCK_VOICES = ['alloy', 'echo', 'fable', 'onyx', 'nova', 'shimmer'];
/** Chatterbox's expressiveness defaults (its own), sent so every turn sounds alike whatever the server's config. */
const CHATTERBOX_TUNING = { exaggeration: 0.5, cfg_weight: 0.5, temperature: 0.8 };
const SERVICE = 'The voice server';

export interface ServerAbilities {
  voices: string[];
  lists_voices: boolean;
  can_clone: boolean;
  voice_library: boolean;
}

export function abilitySummary(a: ServerAbilities): string {
  const parts = [
    a.lists_voices ? `lists ${a.voices.length} voice${a.voices.length === 1 ? '' : 's'}` : 'does not list its voices',
  ];
  if (a.can_clone) parts.push(a.voice_library ? 'can clone' : 'can clone (one upload per turn)');
  return parts.join(' · ');
}

/** Names from a voice list: Kokoro's ["af_bella", …], Chatterbox's {voices: [{name}]}, or {data: [{id}]}. */
export function voiceNames(body: unknown): string[] | null {
  const list = Array.isArray(body)
    ? body
    : ((body as { voices?: unknown })?.voices ?? (body as { data?: unknown })?.data);
  if (!Array.isArray(list)) return null;
  return list
    .map((v) => (typeof v === 'string' ? v : ((v as { name?: unknown })?.name ?? (v as { id?: unknown })?.id)))
    .filter((n): n is string => typeof n === 'string' && n.length > 0 && n.length <= 200);
}

/** At most this many voices are kept from a list (a server's answer is bounded like any other input). */
export const MAX_LISTED_VOICES = 1000;
const MAX_LIST_BYTES = 1024 * 1024;

async function readCapped(res: Response, max: number): Promise<string> {
  const text = await res.text();
  if (text.length > max)
    throw new ProviderError(`${SERVICE} sent a voice list over ${max / 1024} KB`, 'voices', 'malformed');
  return text;
}

export function createVoiceClient(server: VoiceServer, timeoutMs: number) {
  const api = openaiApiBase(server.baseUrl);
  const auth = bearerHeaders(server.apiKey ?? undefined);

  async function call(path: string, init: RequestInit, signal?: AbortSignal, ms = timeoutMs) {
    const url = `${api}${path}`;
    const c = callSignal(ms, signal);
    try {
      return await fetch(url, {
        ...init,
        headers: { ...auth, ...(init.headers as Record<string, string>) },
        signal: c.signal,
        redirect: 'manual',
      });
    } catch (e) {
      throw networkError(e, { provider: 'voices', service: SERVICE, url, timeoutMs: ms, call: c });
    }
  }

  async function audioOf(res: Response): Promise<{ audio: Buffer; mimeType: string; extension: string }> {
    if (!res.ok) throw await httpError(res, 'voices', SERVICE);
    const contentType = res.headers.get('content-type');
    if (contentType && /json|text\//i.test(contentType)) {
      throw new ProviderError(
        `${SERVICE} answered ${contentType.split(';')[0]} instead of audio`,
        'voices',
        'malformed',
      );
    }
    const audio = Buffer.from(await res.arrayBuffer());
    if (!audio.length) throw new ProviderError(`${SERVICE} answered no audio`, 'voices', 'malformed');
    const extension = extensionFor(contentType, 'wav');
    return {
      audio: extension === 'wav' ? fixWavSizes(audio) : audio,
      mimeType: MIME_BY_EXTENSION[extension],
      extension,
    };
  }

  const form = (fields: Record<string, string | number>, file?: RecordingFile) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.set(k, String(v));
    if (file) f.set('voice_file', new Blob([new Uint8Array(file.data)], { type: file.mimeType }), file.fileName);
    return f;
  };

  return {
    /** What the server can do; throws a ProviderError (status 401/403 for a refused key) when it does not answer. */
    async abilities(signal?: AbortSignal): Promise<ServerAbilities> {
      const path = server.kind === 'chatterbox' ? '/voices' : '/audio/voices';
      const res = await call(path, { headers: { accept: 'application/json' } }, signal);
      if (res.status === 401 || res.status === 403) throw await httpError(res, 'voices', SERVICE);
      let listed: string[] | null = null;
      if (res.ok) {
        try {
          listed = voiceNames(JSON.parse(await readCapped(res, MAX_LIST_BYTES)));
        } catch (e) {
          if (e instanceof ProviderError) throw e;
          listed = null;
        }
      } else await res.body?.cancel().catch(() => {});
      const voices = (listed ?? (server.kind === 'openai' ? OPENAI_STOCK_VOICES : [])).slice(0, MAX_LISTED_VOICES);
      if (server.kind === 'chatterbox') {
        // A Chatterbox without the voice library (an older release) still clones through the one-off upload.
        return { voices, lists_voices: listed !== null, can_clone: true, voice_library: listed !== null };
      }
      return { voices, lists_voices: listed !== null, can_clone: false, voice_library: false };
    },

    /** Speaks `text` with a stock or library voice. */
    async speak(text: string, voice: string, opts: { speed?: number; signal?: AbortSignal } = {}) {
      const body =
        server.kind === 'chatterbox'
          ? { input: text, voice, ...CHATTERBOX_TUNING }
          : { model: server.model || 'tts-1', input: text, voice, speed: opts.speed ?? 1, response_format: 'wav' };
      const res = await call(
        '/audio/speech',
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
        opts.signal,
      );
      return audioOf(res);
    },

    /** A one-off clone: the recording goes with the text (Chatterbox's /v1/audio/speech/upload). */
    async speakWithRecording(text: string, recording: RecordingFile, opts: { signal?: AbortSignal } = {}) {
      const res = await call(
        '/audio/speech/upload',
        { method: 'POST', body: form({ input: text, ...CHATTERBOX_TUNING }, recording) },
        opts.signal,
      );
      return audioOf(res);
    },

    /** Adds a voice to the server's library; a name already there is replaced. */
    async addVoice(name: string, recording: RecordingFile, signal?: AbortSignal) {
      let res = await call('/voices', { method: 'POST', body: form({ voice_name: name }, recording) }, signal);
      if (res.status === 409) {
        await res.body?.cancel().catch(() => {});
        await this.deleteVoice(name, signal);
        res = await call('/voices', { method: 'POST', body: form({ voice_name: name }, recording) }, signal);
      }
      if (!res.ok) throw await httpError(res, 'voices', SERVICE);
      await res.body?.cancel().catch(() => {});
    },

    /** Removes a voice from the library; one that is already gone is fine. */
    async deleteVoice(name: string, signal?: AbortSignal) {
      const res = await call(`/voices/${encodeURIComponent(name)}`, { method: 'DELETE' }, signal);
      if (!res.ok && res.status !== 404) throw await httpError(res, 'voices', SERVICE);
      await res.body?.cancel().catch(() => {});
    },
  };
}
export type VoiceClient = ReturnType<typeof createVoiceClient>;
