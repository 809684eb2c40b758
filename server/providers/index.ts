import type { ServerConfig } from '../config';
import { createOfflineProvider } from './llm/offline';
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

export function createProviders(_config: ServerConfig): Providers {
  const llms: LlmProvider[] = [createOfflineProvider()];
  return {
    llm: createLlmRegistry(llms),
    speech: unconfigured('none', 'No speech engine configured'),
    transcription: unconfigured('none', 'No transcription engine configured'),
  };
}
