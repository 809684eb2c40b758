import path from 'node:path';

// The built-in engine's settings, read from the environment (docs/builtin-engine.md).

export interface BuiltinConfig {
  /** Where GGUF files live: BUILTIN_MODELS_DIR, default DATA_DIR/models. */
  modelsDir: string;
  /** Threads per evaluation (BUILTIN_THREADS); 0 = node-llama-cpp's choice (the physical cores). */
  threads: number;
  /** Tokens of context per agent (BUILTIN_CONTEXT_SIZE, default 4096; capped at what the model was trained on). */
  contextSize: number;
  /** Agents that can answer at once from one loaded model (BUILTIN_PARALLEL, default 4); more wait their turn. */
  parallel: number;
  /** A model nobody used for this long is unloaded (BUILTIN_IDLE_UNLOAD_SECONDS, default 600; 0 = never). */
  idleUnloadMs: number;
  /** BUILTIN_GPU: unset/false = CPU only (what `npm install` ships); 'auto', 'cuda', 'vulkan', 'metal' after the GPU opt-in. */
  gpu: false | 'auto' | 'cuda' | 'vulkan' | 'metal';
  /** Extra directories whose GGUF files a user may add by path (BUILTIN_IMPORT_DIRS, comma-separated). */
  importDirs: string[];
  /** Downloads from loopback and private addresses (BUILTIN_DOWNLOAD_ALLOW_PRIVATE=1); off, so a user cannot make the server fetch from its own network. */
  downloadAllowPrivate: boolean;
  /** Largest file a download may write (BUILTIN_MAX_MODEL_GB, default 40). */
  maxModelBytes: number;
  /** Downloads running at once for one user (BUILTIN_MAX_DOWNLOADS_PER_USER, default 1) and in all (BUILTIN_MAX_DOWNLOADS, default 2). */
  maxDownloadsPerUser: number;
  maxDownloads: number;
  /** All model files and partial downloads together (BUILTIN_MODELS_MAX_GB, default 200). */
  maxTotalBytes: number;
  /** Free disk a download always leaves (BUILTIN_MIN_FREE_DISK_GB, default 5). */
  minFreeDiskBytes: number;
}

type Env = Record<string, string | undefined>;

const num = (v: string | undefined, fallback: number) =>
  v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) : fallback;
const GPUS = ['auto', 'cuda', 'vulkan', 'metal'] as const;

export function builtinConfigFrom(env: Env, dataDir: string): BuiltinConfig {
  const gpu = (env.BUILTIN_GPU ?? '').trim().toLowerCase();
  return {
    modelsDir: path.resolve(env.BUILTIN_MODELS_DIR || path.join(dataDir, 'models')),
    threads: Math.max(0, Math.floor(num(env.BUILTIN_THREADS, 0))),
    contextSize: Math.max(256, Math.floor(num(env.BUILTIN_CONTEXT_SIZE, 4096))),
    parallel: Math.min(64, Math.max(1, Math.floor(num(env.BUILTIN_PARALLEL, 4)))),
    idleUnloadMs: Math.max(0, num(env.BUILTIN_IDLE_UNLOAD_SECONDS, 600)) * 1000,
    gpu: (GPUS as readonly string[]).includes(gpu) ? (gpu as BuiltinConfig['gpu']) : false,
    importDirs: (env.BUILTIN_IMPORT_DIRS ?? '')
      .split(',')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => path.resolve(d)),
    downloadAllowPrivate: /^(1|true|yes|on)$/i.test(env.BUILTIN_DOWNLOAD_ALLOW_PRIVATE ?? ''),
    maxModelBytes: Math.max(1e-6, num(env.BUILTIN_MAX_MODEL_GB, 40)) * 1024 ** 3,
    maxDownloadsPerUser: Math.max(1, Math.floor(num(env.BUILTIN_MAX_DOWNLOADS_PER_USER, 1))),
    maxDownloads: Math.max(1, Math.floor(num(env.BUILTIN_MAX_DOWNLOADS, 2))),
    maxTotalBytes: Math.max(1e-6, num(env.BUILTIN_MODELS_MAX_GB, 200)) * 1024 ** 3,
    minFreeDiskBytes: Math.max(0, num(env.BUILTIN_MIN_FREE_DISK_GB, 5)) * 1024 ** 3,
  };
}
