import { z } from 'zod';

// /api/builtin-models: the built-in engine's GGUF files, their downloads and the recommended list.
// A download's progress also goes out on /ws/updates as `model_download` (liveUpdates.ts).

export const SHA256_HEX = /^[a-f0-9]{64}$/i;

export const builtinModelFile = z.object({
  /** File name in the models directory, e.g. 'qwen2.5-0.5b-instruct-q4_k_m.gguf'. */
  name: z.string(),
  /** What an agent's `model` says to use it: '@server-builtin/<name>' (the Built-in connection's id for it). */
  model: z.string(),
  bytes: z.number().int().nonnegative(),
  modified_at: z.string(),
  /** In memory now (answering, or kept warm until the idle unload). */
  loaded: z.boolean(),
});
export type BuiltinModelFile = z.infer<typeof builtinModelFile>;

export const downloadState = z.enum(['running', 'verifying', 'done', 'failed', 'cancelled', 'interrupted']);
export const modelDownload = z.object({
  /** The file it writes; one download per file at a time, so the file names the download. */
  file: z.string(),
  url: z.string(),
  received: z.number().int().nonnegative(),
  /** Null while the server has not said how big the file is. */
  total: z.number().int().nonnegative().nullable(),
  state: downloadState,
  /** Why it failed, in words a person can act on. */
  error: z.string().nullable(),
  sha256: z.string().nullable(),
});
export type ModelDownload = z.infer<typeof modelDownload>;

export const recommendedModel = z.object({
  id: z.string(),
  label: z.string(),
  file: z.string(),
  url: z.string(),
  /** Approximate size, for the list; the download reports the real one. */
  bytes: z.number().int().positive(),
  licence: z.string(),
  licence_url: z.string(),
  sha256: z.string().nullable(),
  note: z.string(),
  /** Memory the model needs to answer (its file, the context and the engine), in bytes. */
  ram_bytes: z.number().int().positive(),
  /** How it suits this server's memory: 'fits' in free memory, 'may_be_slow' (only in total memory), 'too_big'. */
  fit: z.enum(['fits', 'may_be_slow', 'too_big']).optional(),
});
export type RecommendedModel = z.infer<typeof recommendedModel>;

export const builtinModelsList = z.object({
  /** The models directory on the server; null for anyone but the operator. */
  dir: z.string().nullable(),
  files: z.array(builtinModelFile),
  downloads: z.array(modelDownload),
  recommended: z.array(recommendedModel),
  /** Directories on the server whose GGUF files may be added by path; empty means adding by path is off. */
  import_dirs: z.array(z.string()),
  /** Whether the caller may download, add and delete files (the operator); others see the list read-only. */
  can_manage: z.boolean().default(true),
  /** This server's memory and processors, read when the list is asked for. */
  system: z
    .object({
      total_bytes: z.number().nonnegative(),
      free_bytes: z.number().nonnegative(),
      cpus: z.number().int().nonnegative(),
    })
    .optional(),
  /** The recommended model for this server's memory (the strongest that fits), or null when none fits. */
  suggested: z.string().nullable().optional(),
});
export type BuiltinModelsList = z.infer<typeof builtinModelsList>;

export const downloadRequest = z.object({
  url: z
    .string()
    .trim()
    .max(2048)
    .url()
    .refine((u) => /^https?:\/\//i.test(u), 'Only http(s) URLs can be downloaded'),
  /** The file name to save as; default: the URL's last path segment. */
  file: z.string().trim().max(200).optional(),
  sha256: z.string().trim().regex(SHA256_HEX, 'SHA-256 must be 64 hexadecimal digits').optional(),
});
export type DownloadRequest = z.infer<typeof downloadRequest>;

export const addFileRequest = z.object({
  /** Absolute path of a .gguf file on the server, inside one of `import_dirs`. */
  path: z.string().trim().min(1).max(4096),
});
export type AddFileRequest = z.infer<typeof addFileRequest>;

export const modelFileParams = z.object({ name: z.string().min(1).max(200) });
