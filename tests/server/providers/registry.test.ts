import { describe, expect, it } from 'vitest';
import { createLlmRegistry } from '../../../server/providers/llm/registry';
import { createOfflineProvider } from '../../../server/providers/llm/offline';
import type { LlmProvider, ModelInfo } from '../../../server/providers/types';

function fakeProvider(
  id: string,
  models: string[],
  opts: { reachable?: boolean; failList?: boolean } = {},
): LlmProvider & { lists: number } {
  let listed: string[] = [];
  const p = {
    id,
    label: id,
    lists: 0,
    owns: (m: string) => listed.includes(m) || m.startsWith(`${id}:`),
    async listModels(): Promise<ModelInfo[]> {
      p.lists++;
      if (opts.failList) throw new Error('down');
      listed = models;
      return models.map((name) => ({ name, provider: id }));
    },
    chat: async () => ({ content: id, model: 'm', provider: id, durationMs: 0 }),
    probe: async () => ({ status: opts.reachable === false ? ('unavailable' as const) : ('ok' as const) }),
    reachable: () => opts.reachable !== false && listed.length > 0,
  };
  return p;
}

describe('the model registry', () => {
  it("sends 'offline' to the offline model even when a real provider is reachable", async () => {
    const real = fakeProvider('ollama', ['llama3.2:latest']);
    const reg = createLlmRegistry([real, createOfflineProvider()]);
    await reg.listModels();
    expect(reg.forModel('offline').id).toBe('offline');
  });

  it('sends a listed model to the provider that listed it, and a prefixed name to its provider', async () => {
    const ollama = fakeProvider('ollama', ['llama3.2:latest']);
    const openai = fakeProvider('openai', ['gpt-4o-mini']);
    const reg = createLlmRegistry([openai, ollama, createOfflineProvider()]);
    const models = await reg.listModels();
    expect(models.map((m) => m.name)).toEqual(['gpt-4o-mini', 'llama3.2:latest', 'offline']);
    expect(reg.forModel('llama3.2:latest').id).toBe('ollama');
    expect(reg.forModel('gpt-4o-mini').id).toBe('openai');
    expect(reg.forModel('openai:anything').id).toBe('openai');
  });

  it('sends an unknown model to the first reachable real provider, which can say it has no such model', async () => {
    const down = fakeProvider('openai', [], { failList: true, reachable: false });
    const ollama = fakeProvider('ollama', ['llama3.2:latest']);
    const reg = createLlmRegistry([down, ollama, createOfflineProvider()]);
    await reg.listModels();
    expect(reg.forModel('gemma3:4b').id).toBe('ollama');
  });

  it('falls back to the offline model only when no real provider is reachable', async () => {
    const down = fakeProvider('ollama', [], { failList: true, reachable: false });
    const reg = createLlmRegistry([down, createOfflineProvider()]);
    const models = await reg.listModels();
    expect(models.map((m) => m.name)).toEqual(['offline']);
    expect(reg.forModel('gemma3:4b').id).toBe('offline');
    const probe = await reg.probe();
    expect(probe.status).toBe('degraded');
    expect(probe.detail).toMatch(/ollama: unavailable/);
  });

  it('refreshes stale listings before resolving', async () => {
    const ollama = fakeProvider('ollama', ['llama3.2:latest']);
    const reg = createLlmRegistry([ollama, createOfflineProvider()]);
    expect(reg.forModel('llama3.2:latest').id).toBe('offline');
    expect((await reg.resolve!('llama3.2:latest')).id).toBe('ollama');
    await reg.resolve!('llama3.2:latest');
    expect(ollama.lists).toBe(1);
  });

  it('reports ok when every provider is up', async () => {
    const reg = createLlmRegistry([createOfflineProvider()]);
    expect((await reg.probe()).status).toBe('ok');
  });
});
