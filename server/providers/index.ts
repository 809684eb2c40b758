import type { ServerConfig } from '../config';
import type { ComponentStatus, LlmProvider, LlmRegistry, ModelInfo, Providers, SpeechProvider, TranscriptionProvider } from './types';

// Chooses the engines from the configuration. Each kind of provider lives in its own folder.

export function createLlmRegistry(providers: LlmProvider[]): LlmRegistry {
  return {
    async listModels() {
      const lists = await Promise.all(providers.map((p) => p.listModels().catch((): ModelInfo[] => [])));
      return lists.flat();
    },
    forModel(model) {
      const p = providers.find((x) => x.owns(model)) ?? providers.find((x) => x.id === 'offline');
      if (!p) throw new Error(`No language model provider serves "${model}"`);
      return p;
    },
    async probe(): Promise<ComponentStatus> {
      if (!providers.length) return { status: 'unavailable', detail: 'No language model provider configured' };
      const results = await Promise.all(providers.map(async (p) => ({ p, s: await p.probe().catch((e): ComponentStatus => ({ status: 'unavailable', detail: String(e) })) })));
      const ok = results.filter((r) => r.s.status === 'ok');
      const detail = results.map((r) => `${r.p.label}: ${r.s.status}${r.s.detail ? ` (${r.s.detail})` : ''}`).join('; ');
      return { status: ok.length === results.length ? 'ok' : ok.length ? 'degraded' : 'unavailable', detail, provider: ok.map((r) => r.p.id).join(',') };
    },
  };
}

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
  return {
    llm: createLlmRegistry([]),
    speech: unconfigured('none', 'No speech engine configured'),
    transcription: unconfigured('none', 'No transcription engine configured'),
  };
}
