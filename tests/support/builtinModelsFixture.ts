import type { BuiltinModelsList } from '../../src/schemas/builtinModels';
import { RECOMMENDED_MODELS } from '../../server/providers/llm/builtin/catalog';

// A /api/builtin-models answer as the server gives it: one file loaded, one download a third of the way.

export function builtinList(over: Partial<BuiltinModelsList> = {}): BuiltinModelsList {
  return {
    dir: '/srv/agora/data/models',
    files: [
      {
        name: 'Qwen3-0.6B-Q4_K_M.gguf',
        model: '@server-builtin/Qwen3-0.6B-Q4_K_M.gguf',
        bytes: 491_400_032,
        modified_at: '2026-11-24T10:00:00.000Z',
        loaded: true,
      },
    ],
    downloads: [
      {
        file: 'Llama-3.2-1B-Instruct-Q4_K_M.gguf',
        url: RECOMMENDED_MODELS[2].url,
        received: 297_000_000,
        total: 807_690_000,
        state: 'running',
        error: null,
        sha256: null,
      },
    ],
    recommended: RECOMMENDED_MODELS,
    import_dirs: ['/srv/models'],
    can_manage: true,
    ...over,
  };
}
