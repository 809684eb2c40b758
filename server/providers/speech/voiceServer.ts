import { BodyTooLargeError, readCapped } from '../boundedBody';
import { ProviderError, callSignal, httpError, networkError, origin } from '../errors';
import { DEFAULT_LIST_LIMITS, ListTooLargeError, boundedNames, type ListLimits } from '../llm/limits';
import { bearerHeaders, openaiApiBase } from '../openaiUrl';
import { DEFAULT_VOICE_AUDIO_MAX_BYTES, readAudioAnswer } from './audioAnswer';
import type { UserSpeechKind } from '../../../src/schemas/speechConnections';

// The calls a speech connection makes, in the shapes the servers people run actually read (README 'Voices'):
//   - OpenAI's POST /v1/audio/speech {model, input, voice, speed, response_format} (OpenAI, openedai-speech,
//     Kokoro-FastAPI); Kokoro lists its voices at GET /v1/audio/voices;
//   - the Chatterbox TTS API: POST /v1/audio/speech {input, voice, exaggeration, cfg_weight, temperature} with
//     `voice` naming a voice of its library, GET/POST /v1/voices (multipart voice_file + voice_name),
//     DELETE /v1/voices/{name}, and POST /v1/audio/speech/upload (multipart with voice_file) for a one-off clone.

export interface VoiceServer {
  kind: UserSpeechKind;
  baseUrl: string;
  apiKey?: string | null;
  model?: string | null;
}

export interface RecordingFile {
  data: Buffer;
  fileName: string;
  mimeType: string;
}

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

/** What a voice server's answers may hold: its voice list (the model lists' caps) and each audio answer. */
export interface VoiceLimits {
  list: ListLimits;
  /** VOICE_AUDIO_MAX_BYTES. */
  audioMaxBytes: number;
}
export const DEFAULT_VOICE_LIMITS: VoiceLimits = {
  list: DEFAULT_LIST_LIMITS,
  audioMaxBytes: DEFAULT_VOICE_AUDIO_MAX_BYTES,
};

export function createVoiceClient(server: VoiceServer, timeoutMs: number, limits: VoiceLimits = DEFAULT_VOICE_LIMITS) {
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

  const audioOf = (res: Response) =>
    readAudioAnswer(res, { provider: 'voices', service: SERVICE, maxBytes: limits.audioMaxBytes, requested: 'wav' });

  /** The voice list's names, or null when the server has none there; bounded like a model list. */
  async function voiceList(signal?: AbortSignal): Promise<string[] | null> {
    const path = server.kind === 'chatterbox' ? '/voices' : '/audio/voices';
    const res = await call(path, { headers: { accept: 'application/json' } }, signal);
    if (res.status === 401 || res.status === 403) throw await httpError(res, 'voices', SERVICE);
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      return null;
    }
    let text: string;
    try {
      text = await readCapped(res, limits.list.maxBytes);
    } catch (e) {
      if (e instanceof BodyTooLargeError)
        throw new ProviderError(
          `${SERVICE} sent a voice list larger than this server accepts (MODEL_LIST_MAX_BYTES=${limits.list.maxBytes})`,
          'voices',
          'malformed',
        );
      throw e;
    }
    let names: string[] | null;
    try {
      names = voiceNames(JSON.parse(text));
    } catch {
      return null;
    }
    if (!names) return null;
    try {
      return boundedNames(names, limits.list);
    } catch (e) {
      if (e instanceof ListTooLargeError)
        throw new ProviderError(`${SERVICE} ${e.message.replace('models', 'voices')}`, 'voices', 'malformed');
      throw e;
    }
  }

  /**
   * Whether a path is there, from what it answers to a request without content (a real server refuses it as
   * invalid; a server without it answers 404 or 405). Nothing is spoken.
   */
  async function answers(path: string, body: BodyInit, headers: Record<string, string>, signal?: AbortSignal) {
    const res = await call(path, { method: 'POST', headers, body }, signal);
    await res.body?.cancel().catch(() => {});
    if (res.status === 401 || res.status === 403)
      throw new ProviderError(`${SERVICE} refused the key`, 'voices', 'http', res.status);
    return res.status !== 404 && res.status !== 405 && !(res.status >= 300 && res.status < 400);
  }

  const form = (fields: Record<string, string | number>, file?: RecordingFile) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.set(k, String(v));
    if (file) f.set('voice_file', new Blob([new Uint8Array(file.data)], { type: file.mimeType }), file.fileName);
    return f;
  };

  return {
    /**
     * What the server can do, from what it answered (a Test says nothing it did not hear): the voices it listed,
     * cloning where its voice library answers (or, without one, its one-off upload path). Throws a ProviderError
     * (status 401/403 for a refused key; 'malformed' for a server with no speech at all or an answer over a cap).
     */
    async abilities(signal?: AbortSignal): Promise<ServerAbilities> {
      const listed = await voiceList(signal);
      if (listed && server.kind === 'chatterbox')
        return { voices: listed, lists_voices: true, can_clone: true, voice_library: true };
      if (listed) return { voices: listed, lists_voices: true, can_clone: false, voice_library: false };
      const json = { 'content-type': 'application/json' };
      const speaks = await answers('/audio/speech', '{}', json, signal);
      // A Chatterbox without the voice library (an older release) still clones through the one-off upload.
      const uploads =
        server.kind === 'chatterbox' && (await answers('/audio/speech/upload', form({ input: '' }), {}, signal));
      if (!speaks && !uploads)
        throw new ProviderError(
          `${SERVICE} at ${origin(api)} has no speech endpoints (${new URL(api).pathname}/audio/speech answered 404): not a speech server`,
          'voices',
          'malformed',
          404,
        );
      return { voices: [], lists_voices: false, can_clone: uploads, voice_library: false };
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
