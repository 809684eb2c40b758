import type { ConnectionSurface, CONNECTION_KINDS } from '../../src/schemas/connectionKinds';
import type { FetchLike } from '../models/guardedFetch';
import type { ListLimits, ReplyLimits } from '../providers/llm/limits';
import { createOllamaProvider } from '../providers/llm/ollama';
import { createOpenAiProvider } from '../providers/llm/openai';
import { openaiApiBase } from '../providers/openaiUrl';
import { createOpenAiSpeechProvider } from '../providers/speech/openai';
import { createVoiceClient, type VoiceClient, type VoiceLimits } from '../providers/speech/voiceServer';
import { createOpenAiTranscriptionProvider } from '../providers/transcription/openai';
import { listMcpTools } from '../tools/mcp/client';
import type { LlmProvider, SpeechProvider, TranscriptionProvider } from '../providers/types';
import type { ConnectionTarget } from './target';

// The server's half of the one kind table (src/schemas/connectionKinds.ts holds the id, label, whether it takes
// a key and what it offers): how each kind is probed and listed, and how its client is made. Keyed by the same
// ids and checked against them (`satisfies`), so a kind added there without its row here does not compile. A kind
// marked `engine` is the server's own (the built-in llama.cpp, espeak-ng, pocketsphinx, the built-in tools): listed
// and called through the engine that the server made, never through an address.

type KindOf<S extends ConnectionSurface> = keyof (typeof CONNECTION_KINDS)[S] & string;
type Table<Row> = { [S in ConnectionSurface]: { [K in KindOf<S>]: Row } };

const ENGINE = { engine: true } as const;
type Engine = typeof ENGINE;

/** What a model server needs to be called: its address, key, and the caps and fetch of whoever owns it. */
export interface ModelClientOptions {
  baseUrl: string;
  apiKey?: string | null;
  timeoutMs: number;
  limits?: ReplyLimits;
  listLimits?: ListLimits;
  /** A user's connection: the address rule's fetch (models/guardedFetch.ts). */
  fetch?: FetchLike;
}

export interface ModelKind {
  /** How a failed probe names what it expected: 'an Ollama server'. */
  serverName: string;
  /** How a failed probe names the answer it expected: 'an Ollama model list'. */
  listName: string;
  /** Where its model list is. */
  listUrl(baseUrl: string): string;
  /** The model names of its list's answer, or null when the answer is not its kind of list. */
  names(body: unknown): string[] | null;
  /** Its chat (and embeddings) client. */
  client(o: ModelClientOptions): LlmProvider;
}

export interface SpeechKind {
  client(
    server: { baseUrl: string; apiKey: string | null; model: string | null },
    timeoutMs: number,
    limits: VoiceLimits,
  ): VoiceClient;
}

/** The server's own audio server (TTS_BASE_URL, TRANSCRIBE_BASE_URL) as its target holds it. */
export type AudioTarget = Pick<ConnectionTarget<string>, 'baseUrl' | 'apiKey'> & { model: string | null };

/** A speech kind the operator may name as the server's own speech (what /health and a turn without a voice use). */
export interface ServerSpeechKind {
  provider(t: AudioTarget, o: { voice?: string; maxAudioBytes: number }): SpeechProvider;
}

export interface TranscriptionKind {
  provider(t: AudioTarget): TranscriptionProvider;
}

export interface ToolKind {
  list: typeof listMcpTools;
}

const ollama: ModelKind = {
  serverName: 'an Ollama server',
  listName: 'an Ollama model list',
  listUrl: (baseUrl) => `${baseUrl.trim().replace(/\/+$/, '')}/api/tags`,
  names(body) {
    const models = (body as { models?: unknown })?.models;
    if (!Array.isArray(models)) return null;
    return models
      .map((m) => (m as { name?: unknown; model?: unknown }).name ?? (m as { model?: unknown }).model)
      .filter((n): n is string => typeof n === 'string');
  },
  client: ({ baseUrl, apiKey: _key, ...o }) => createOllamaProvider({ host: baseUrl, ...o }),
};

const openai: ModelKind = {
  serverName: 'an OpenAI-compatible server',
  listName: 'an OpenAI-compatible model list',
  listUrl: (baseUrl) => `${openaiApiBase(baseUrl)}/models`,
  names(body) {
    const data = (body as { data?: unknown })?.data;
    if (!Array.isArray(data)) return null;
    return data.map((m) => (m as { id?: unknown }).id).filter((n): n is string => typeof n === 'string');
  },
  client: ({ apiKey, ...o }) => createOpenAiProvider({ ...o, apiKey: apiKey ?? undefined }),
};

const voiceServer = (kind: 'openai' | 'chatterbox'): SpeechKind => ({
  client: (server, timeoutMs, limits) => createVoiceClient({ kind, ...server }, timeoutMs, limits),
});

const openaiSpeech: SpeechKind & ServerSpeechKind = {
  ...voiceServer('openai'),
  provider: ({ baseUrl, apiKey, model }, o) => createOpenAiSpeechProvider({ baseUrl, apiKey, model, ...o }),
};

const openaiTranscription: TranscriptionKind = {
  provider: ({ baseUrl, apiKey, model }) => createOpenAiTranscriptionProvider({ baseUrl, apiKey, model }),
};

export const SERVER_KINDS = {
  model: { ollama, openai, builtin: ENGINE },
  speech: { openai: openaiSpeech, chatterbox: voiceServer('chatterbox'), espeak: ENGINE },
  tools: { mcp: { list: listMcpTools }, builtin: ENGINE },
  transcription: { openai: openaiTranscription, pocketsphinx: ENGINE },
} as const satisfies Table<ModelKind | SpeechKind | ToolKind | TranscriptionKind | Engine>;

/** The kinds of a surface that are reached at an address (not the server's own engine). */
type Rows<S extends ConnectionSurface> = (typeof SERVER_KINDS)[S];
export type AddressedKind<S extends ConnectionSurface> = {
  [K in keyof Rows<S>]: Rows<S>[K] extends Engine ? never : K;
}[keyof Rows<S>] &
  string;

/** A model kind's row: how it is listed and its client made. */
export const modelKind = (kind: AddressedKind<'model'>): ModelKind => SERVER_KINDS.model[kind];
export const speechKind = (kind: AddressedKind<'speech'>): SpeechKind => SERVER_KINDS.speech[kind];
