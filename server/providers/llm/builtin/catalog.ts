import type { RecommendedModel } from '../../../../src/schemas/builtinModels';

// Small instruct models that run on a CPU and follow the turn-answer JSON well enough, as 4-bit (Q4_K_M)
// GGUF files. Sizes are approximate (the download reports the real one); no checksum is pinned because the
// publishers can re-upload a file under the same name, and a stale pin would fail every download.

const MB = 1_000_000;

export const RECOMMENDED_MODELS: RecommendedModel[] = [
  {
    id: 'qwen2.5-0.5b-instruct',
    label: 'Qwen2.5 0.5B Instruct',
    file: 'qwen2.5-0.5b-instruct-q4_k_m.gguf',
    url: 'https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf',
    bytes: 491 * MB,
    licence: 'Apache-2.0',
    licence_url: 'https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct/blob/main/LICENSE',
    sha256: null,
    note: 'Smallest and fastest; short, plain answers.',
  },
  {
    id: 'qwen2.5-1.5b-instruct',
    label: 'Qwen2.5 1.5B Instruct',
    file: 'qwen2.5-1.5b-instruct-q4_k_m.gguf',
    url: 'https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/qwen2.5-1.5b-instruct-q4_k_m.gguf',
    bytes: 1_120 * MB,
    licence: 'Apache-2.0',
    licence_url: 'https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct/blob/main/LICENSE',
    sha256: null,
    note: 'A good first choice on a laptop.',
  },
  {
    id: 'llama-3.2-1b-instruct',
    label: 'Llama 3.2 1B Instruct',
    file: 'Llama-3.2-1B-Instruct-Q4_K_M.gguf',
    url: 'https://huggingface.co/bartowski/Llama-3.2-1B-Instruct-GGUF/resolve/main/Llama-3.2-1B-Instruct-Q4_K_M.gguf',
    bytes: 808 * MB,
    licence: 'Llama 3.2 Community Licence',
    licence_url: 'https://huggingface.co/meta-llama/Llama-3.2-1B-Instruct/blob/main/LICENSE.txt',
    sha256: null,
    note: "Meta's smallest; the licence has an acceptable-use policy.",
  },
  {
    id: 'llama-3.2-3b-instruct',
    label: 'Llama 3.2 3B Instruct',
    file: 'Llama-3.2-3B-Instruct-Q4_K_M.gguf',
    url: 'https://huggingface.co/bartowski/Llama-3.2-3B-Instruct-GGUF/resolve/main/Llama-3.2-3B-Instruct-Q4_K_M.gguf',
    bytes: 2_020 * MB,
    licence: 'Llama 3.2 Community Licence',
    licence_url: 'https://huggingface.co/meta-llama/Llama-3.2-3B-Instruct/blob/main/LICENSE.txt',
    sha256: null,
    note: 'Better arguments; wants about 4 GB of memory.',
  },
  {
    id: 'phi-3.5-mini-instruct',
    label: 'Phi-3.5 mini Instruct',
    file: 'Phi-3.5-mini-instruct-Q4_K_M.gguf',
    url: 'https://huggingface.co/bartowski/Phi-3.5-mini-instruct-GGUF/resolve/main/Phi-3.5-mini-instruct-Q4_K_M.gguf',
    bytes: 2_390 * MB,
    licence: 'MIT',
    licence_url: 'https://huggingface.co/microsoft/Phi-3.5-mini-instruct/blob/main/LICENSE',
    sha256: null,
    note: 'The strongest here; slowest on a CPU.',
  },
];
