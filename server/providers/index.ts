import type { ServerConfig } from '../config';
import { createOfflineProvider } from './llm/offline';
import { createOllamaProvider } from './llm/ollama';
import { createOpenAiProvider } from './llm/openai';
import { createLlmRegistry } from './llm/registry';
import type { LlmProvider, Providers, SpeechProvider, TranscriptionProvider } from './types';

// Chooses the engines from the configuration. Each kind of provider lives in its own folder.

export { createLlmRegistry } from './llm/registry';
export { createOfflineProvider } from './llm/offline';

const unconfigured = (id: string, detail: string): SpeechProvider & TranscriptionProvider => ({
  id,
  available: () => false,
  synthesize: async () => {
    throw new Error(detail);
  },
  transcribe: async () => {
    throw new Error(detail);
  },
  probe: async () => ({ status: 'disabled', detail }),
});

/**
 * LLMs: an OpenAI-compatible server when OPENAI_BASE_URL is set (first: it is an explicit choice),
 * Ollama when OLLAMA_HOST is set (it is by default; absent, it only shows as unavailable), and the
 * offline model always. See createLlmRegistry for which one answers a given model name.
 */
export function createProviders(config: ServerConfig): Providers {
  const llms: LlmProvider[] = [];
  if (config.openaiBaseUrl) llms.push(createOpenAiProvider({ baseUrl: config.openaiBaseUrl, apiKey: config.openaiApiKey }));
  if (config.ollamaHost) llms.push(createOllamaProvider({ host: config.ollamaHost }));
  llms.push(createOfflineProvider());
  const llm = createLlmRegistry(llms);
  // Learn early which real providers answer, so forModel can route before anyone lists models.
  if (llms.length > 1) void llm.listModels();
  return {
    llm,
    speech: unconfigured('none', 'No speech engine configured'),
    transcription: unconfigured('none', 'No transcription engine configured'),
  };
}
