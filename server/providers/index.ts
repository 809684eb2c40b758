import { listLimitsOf, replyLimitsOf, type ServerConfig } from '../config';
import { createBuiltinProvider, type BuiltinProvider } from './llm/builtin';
import { createOfflineProvider } from './llm/offline';
import { SERVER_KINDS } from '../connections/kinds';
import { envModelTargets, envSpeechTarget, envTranscriptionTarget } from '../connections/envTargets';
import { createLlmRegistry } from './llm/registry';
import { createEspeakProvider, findEspeak } from './speech/espeak';
import { createResearchService } from './research';
import { createNoSpeech } from './speech/none';
import { createNoTranscription } from './transcription/none';
import { createPocketsphinxProvider, findPocketsphinx } from './transcription/pocketsphinx';
import type { LlmProvider, LlmRegistry, SpeechProvider, TranscriptionProvider } from './types';
import type { Providers } from './providers';

// Chooses the engines from the configuration. Each kind of provider lives in its own folder.

export { createLlmRegistry } from './llm/registry';
export { createOfflineProvider } from './llm/offline';

/**
 * LLMs: an OpenAI-compatible server when OPENAI_BASE_URL is set (first: it is an explicit choice),
 * Ollama when OLLAMA_HOST is set (it is by default; absent, it only shows as unavailable), the built-in
 * engine when given (GGUF files in DATA_DIR/models), and the offline model always. See createLlmRegistry
 * for which one answers a given model name.
 */
export function createLlms(config: ServerConfig, builtin?: BuiltinProvider): LlmRegistry {
  const llms: LlmProvider[] = [];
  const limits = { limits: replyLimitsOf(config), listLimits: listLimitsOf(config) };
  // The targets the model list shows as the server's own, made on the path a user's connection is made on
  // (connections/kinds.ts), without the address rule: the operator's.
  const common = { timeoutMs: config.llmTimeoutMs, ...limits };
  for (const t of envModelTargets(config))
    llms.push(SERVER_KINDS.model[t.kind].client({ baseUrl: t.baseUrl, apiKey: t.apiKey, ...common }));
  if (builtin) llms.push(builtin);
  llms.push(createOfflineProvider({ tokensPerSecond: config.offlineTokensPerSecond }));
  const registry = createLlmRegistry(llms);
  // Learn early which real providers answer, so forModel can route before anyone lists models.
  if (llms.length > 1) void registry.listModels();
  return registry;
}

/**
 * Speech: TTS_BASE_URL (an OpenAI-compatible /v1/audio/speech server, the only one that clones voices),
 * else espeak-ng (ESPEAK_PATH, or on PATH; an ESPEAK_PATH that is not executable means no espeak),
 * else none ('No speech engine configured').
 */
export function createSpeech(config: ServerConfig): SpeechProvider {
  // The same target a user's voice list shows as the server's speech, made by its kind as a user's would be.
  const tts = envSpeechTarget(config);
  if (tts)
    return SERVER_KINDS.speech[tts.kind].provider(tts, {
      voice: config.ttsVoice,
      maxAudioBytes: config.voiceAudioMaxBytes,
    });
  const espeak = findEspeak(config.espeakPath);
  return espeak ? createEspeakProvider({ executable: espeak }) : createNoSpeech();
}

/**
 * Transcription: TRANSCRIBE_BASE_URL (an OpenAI-compatible /v1/audio/transcriptions server), else pocketsphinx
 * when this machine has it and ffmpeg or sox (POCKETSPHINX_PATH, POCKETSPHINX_MODEL_DIR), else none.
 */
export function createTranscription(config: ServerConfig): TranscriptionProvider {
  const server = envTranscriptionTarget(config);
  if (server) return SERVER_KINDS.transcription[server.kind].provider(server);
  const sphinx = findPocketsphinx({ path: config.pocketsphinxPath, modelDir: config.pocketsphinxModelDir });
  return sphinx
    ? createPocketsphinxProvider(sphinx, undefined, { maxSeconds: config.transcribeMaxMinutes * 60 })
    : createNoTranscription();
}

/** The built-in llama.cpp engine over DATA_DIR/models (BUILTIN_*); nothing native loads until a turn or probe needs it. */
export function createBuiltin(config: ServerConfig): BuiltinProvider {
  return createBuiltinProvider({ ...config.builtin, timeoutMs: Math.max(config.llmTimeoutMs, 300_000) });
}

export function createProviders(config: ServerConfig): Providers {
  const builtin = createBuiltin(config);
  return {
    llm: createLlms(config, builtin),
    builtin,
    speech: createSpeech(config),
    transcription: createTranscription(config),
    research: createResearchService({ enabled: config.researchEnabled, apiKeys: config.researchKeys }),
  };
}
