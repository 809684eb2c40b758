import type { RecommendedModel } from '../../../../src/schemas/builtinModels';

// Small instruct models that run on a CPU and follow the turn-answer JSON well enough, as 4-bit (Q4_K_M)
// GGUF files, smallest first. Sizes are the published files' (the download reports the real one); no checksum is
// pinned because the publishers can re-upload a file under the same name, and a stale pin would fail every
// download. `ram_bytes` is what answering takes: the file, a 4k context and the engine.

const MB = 1_000_000;
const need = (bytes: number) => Math.round(bytes * 1.25 + 400 * MB);

const model = (m: Omit<RecommendedModel, 'ram_bytes' | 'sha256'>): RecommendedModel => ({
  ...m,
  sha256: null,
  ram_bytes: need(m.bytes),
});

export const RECOMMENDED_MODELS: RecommendedModel[] = [
  model({
    id: 'qwen3-0.6b',
    label: 'Qwen3 0.6B',
    file: 'Qwen3-0.6B-Q4_K_M.gguf',
    url: 'https://huggingface.co/unsloth/Qwen3-0.6B-GGUF/resolve/main/Qwen3-0.6B-Q4_K_M.gguf',
    bytes: 397 * MB,
    licence: 'Apache-2.0',
    licence_url: 'https://huggingface.co/Qwen/Qwen3-0.6B/blob/main/LICENSE',
    note: 'Smallest and fastest; short, plain answers.',
  }),
  model({
    id: 'gemma-3-1b-it',
    label: 'Gemma 3 1B',
    file: 'gemma-3-1b-it-Q4_K_M.gguf',
    url: 'https://huggingface.co/ggml-org/gemma-3-1b-it-GGUF/resolve/main/gemma-3-1b-it-Q4_K_M.gguf',
    bytes: 806 * MB,
    licence: 'Gemma Terms of Use',
    licence_url: 'https://ai.google.dev/gemma/terms',
    note: "Google's smallest; the terms have a prohibited-use policy.",
  }),
  model({
    id: 'llama-3.2-1b-instruct',
    label: 'Llama 3.2 1B Instruct',
    file: 'Llama-3.2-1B-Instruct-Q4_K_M.gguf',
    url: 'https://huggingface.co/bartowski/Llama-3.2-1B-Instruct-GGUF/resolve/main/Llama-3.2-1B-Instruct-Q4_K_M.gguf',
    bytes: 808 * MB,
    licence: 'Llama 3.2 Community Licence',
    licence_url: 'https://huggingface.co/meta-llama/Llama-3.2-1B-Instruct/blob/main/LICENSE.txt',
    note: "Meta's smallest; the licence has an acceptable-use policy.",
  }),
  model({
    id: 'smollm2-1.7b-instruct',
    label: 'SmolLM2 1.7B Instruct',
    file: 'SmolLM2-1.7B-Instruct-Q4_K_M.gguf',
    url: 'https://huggingface.co/bartowski/SmolLM2-1.7B-Instruct-GGUF/resolve/main/SmolLM2-1.7B-Instruct-Q4_K_M.gguf',
    bytes: 1_056 * MB,
    licence: 'Apache-2.0',
    licence_url: 'https://huggingface.co/HuggingFaceTB/SmolLM2-1.7B-Instruct',
    note: 'Fully open; plain and quick.',
  }),
  model({
    id: 'qwen3-1.7b',
    label: 'Qwen3 1.7B',
    file: 'Qwen3-1.7B-Q4_K_M.gguf',
    url: 'https://huggingface.co/unsloth/Qwen3-1.7B-GGUF/resolve/main/Qwen3-1.7B-Q4_K_M.gguf',
    bytes: 1_107 * MB,
    licence: 'Apache-2.0',
    licence_url: 'https://huggingface.co/Qwen/Qwen3-1.7B/blob/main/LICENSE',
    note: 'A good first choice on a laptop.',
  }),
  model({
    id: 'llama-3.2-3b-instruct',
    label: 'Llama 3.2 3B Instruct',
    file: 'Llama-3.2-3B-Instruct-Q4_K_M.gguf',
    url: 'https://huggingface.co/bartowski/Llama-3.2-3B-Instruct-GGUF/resolve/main/Llama-3.2-3B-Instruct-Q4_K_M.gguf',
    bytes: 2_020 * MB,
    licence: 'Llama 3.2 Community Licence',
    licence_url: 'https://huggingface.co/meta-llama/Llama-3.2-3B-Instruct/blob/main/LICENSE.txt',
    note: 'Better arguments; the licence has an acceptable-use policy.',
  }),
  model({
    id: 'phi-4-mini-instruct',
    label: 'Phi-4-mini Instruct',
    file: 'microsoft_Phi-4-mini-instruct-Q4_K_M.gguf',
    url: 'https://huggingface.co/bartowski/microsoft_Phi-4-mini-instruct-GGUF/resolve/main/microsoft_Phi-4-mini-instruct-Q4_K_M.gguf',
    bytes: 2_490 * MB,
    licence: 'MIT',
    licence_url: 'https://huggingface.co/microsoft/Phi-4-mini-instruct/blob/main/LICENSE',
    note: 'Strong reasoning for its size; slower on a CPU.',
  }),
  model({
    id: 'qwen3-4b-instruct-2507',
    label: 'Qwen3 4B Instruct 2507',
    file: 'Qwen3-4B-Instruct-2507-Q4_K_M.gguf',
    url: 'https://huggingface.co/unsloth/Qwen3-4B-Instruct-2507-GGUF/resolve/main/Qwen3-4B-Instruct-2507-Q4_K_M.gguf',
    bytes: 2_497 * MB,
    licence: 'Apache-2.0',
    licence_url: 'https://huggingface.co/Qwen/Qwen3-4B-Instruct-2507/blob/main/LICENSE',
    note: 'The strongest here; wants about 4 GB of memory.',
  }),
];

export interface SystemMemory {
  total_bytes: number;
  free_bytes: number;
  cpus: number;
}

/** 'fits' in the memory free now, 'may_be_slow' when only the total would hold it (the system swaps), else 'too_big'. */
export function fitOf(m: RecommendedModel, sys: SystemMemory): NonNullable<RecommendedModel['fit']> {
  if (m.ram_bytes <= sys.free_bytes) return 'fits';
  return m.ram_bytes <= sys.total_bytes * 0.8 ? 'may_be_slow' : 'too_big';
}

/**
 * The catalogue marked for this server, and the one to suggest: the strongest that fits; with fewer than four
 * processors, the strongest that fits among those under 1.5 GB (a bigger one answers too slowly on a CPU).
 */
export function catalogueFor(sys: SystemMemory): { recommended: RecommendedModel[]; suggested: string | null } {
  const recommended = RECOMMENDED_MODELS.map((m) => ({ ...m, fit: fitOf(m, sys) }));
  const fits = recommended.filter((m) => m.fit === 'fits' && (sys.cpus >= 4 || m.bytes < 1_500 * MB));
  const fallback = recommended.filter((m) => m.fit !== 'too_big');
  const pick = [...(fits.length ? fits : fallback.slice(0, 1))].sort((a, b) => b.bytes - a.bytes)[0];
  return { recommended, suggested: pick?.id ?? null };
}
