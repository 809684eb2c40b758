import { z } from 'zod';
// First, so zod is configured (no run-time code in a browser) before these schemas are built.
import './common';
import { OLLAMA_DEFAULT_URL, OPENAI_PRESETS } from './constants';

// Model connections (docs/models.md): the REST surface under /model-connections and /model-jobs, and the
// live-update frames of a pull. Shared by the SPA and the server; the server's route definitions carry them.

/** Kinds a user can add. 'builtin' is the server's own llama.cpp engine (its setup lives with that engine). */
export const MODEL_CONNECTION_KINDS = ['ollama', 'openai', 'builtin'] as const;
export const modelConnectionKind = z.enum(MODEL_CONNECTION_KINDS);
export type ModelConnectionKind = z.infer<typeof modelConnectionKind>;

// The presets and Ollama's usual address live with the spec constants (the Models chart reads them without zod).
export { OLLAMA_DEFAULT_URL, OPENAI_PRESETS };
export const openaiPreset = z.enum(OPENAI_PRESETS.map((p) => p.id) as [string, ...string[]]);

/** Longest API key accepted (real keys are under 200 characters; JWT-style keys stay far below this). */
export const API_KEY_MAX_BYTES = 4096;
export const CONNECTION_NAME_MAX = 60;

const httpUrl = z
  .string()
  .trim()
  .min(1, 'Base URL is required')
  .max(2000, 'Base URL is too long')
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
    } catch {
      return false;
    }
  }, 'Base URL must be an http:// or https:// address');

const apiKey = z
  .string()
  .refine(
    (v) => new TextEncoder().encode(v).length <= API_KEY_MAX_BYTES,
    `API key is longer than ${API_KEY_MAX_BYTES / 1024} KB`,
  )
  .refine((v) => !/[\r\n\0]/.test(v), 'API key must be one line');

const connectionName = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(CONNECTION_NAME_MAX, `Name is at most ${CONNECTION_NAME_MAX} characters`);

/** What the form sends to add a connection. */
export const modelConnectionCreate = z.object({
  kind: z.enum(['ollama', 'openai']),
  preset: openaiPreset.nullish(),
  name: connectionName,
  base_url: httpUrl,
  api_key: apiKey.nullish(),
});
export type ModelConnectionCreate = z.infer<typeof modelConnectionCreate>;

/** An edit: any field; api_key '' removes the stored key, an absent api_key keeps it. */
export const modelConnectionUpdate = modelConnectionCreate.partial().omit({ kind: true });
export type ModelConnectionUpdate = z.infer<typeof modelConnectionUpdate>;

/** Test before saving; `id` lets an edit test with the stored key when no new key was typed. */
export const modelConnectionTestBody = z.object({
  kind: z.enum(['ollama', 'openai']),
  base_url: httpUrl,
  api_key: apiKey.nullish(),
  id: z.string().max(100).optional(),
});
export type ModelConnectionTestBody = z.infer<typeof modelConnectionTestBody>;

/** Why a connection could not be used, in a word the UI can act on, and the words it shows. */
export const connectionFailureKind = z.enum([
  'dns',
  'refused',
  'timeout',
  'key_rejected',
  'not_compatible',
  'http',
  'blocked',
  'unreachable',
]);
export type ConnectionFailureKind = z.infer<typeof connectionFailureKind>;
export const connectionState = z.discriminatedUnion('state', [
  z.object({ state: z.literal('reachable') }),
  z.object({ state: z.literal('unreachable'), reason: connectionFailureKind, detail: z.string() }),
  z.object({ state: z.literal('key_rejected'), reason: z.literal('key_rejected'), detail: z.string() }),
  z.object({ state: z.literal('unknown') }),
]);
export type ConnectionState = z.infer<typeof connectionState>;

/** One model of a connection: `id` is what an agent stores (see modelId below). */
export const connectionModel = z.object({ id: z.string(), name: z.string(), label: z.string() });
export type ConnectionModel = z.infer<typeof connectionModel>;

/** A connection as any client sees it: never the key, only its hint. */
export const modelConnection = z.object({
  id: z.string(),
  kind: modelConnectionKind,
  preset: z.string().nullable(),
  name: z.string(),
  base_url: z.string(),
  /** '••••1234' when a key is stored, else null. */
  api_key_hint: z.string().nullable(),
  /** The server's own (from its environment): shown, never edited; its address only to the operator (else ''). */
  read_only: z.boolean(),
  /** Whether the caller may pull and delete its models: their own Ollama, and the server's for the operator. */
  manage_models: z.boolean().default(false),
  status: connectionState,
  models: z.array(connectionModel),
  /** Models from the last time it answered, kept while it does not (the picker marks them unreachable). */
  stale: z.boolean(),
});
export type ModelConnection = z.infer<typeof modelConnection>;
export const modelConnectionList = z.object({ connections: z.array(modelConnection) });
export type ModelConnectionList = z.infer<typeof modelConnectionList>;

export const modelConnectionTestResult = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), models: z.array(z.string()) }),
  z.object({ ok: z.literal(false), reason: connectionFailureKind, detail: z.string() }),
]);
export type ModelConnectionTestResult = z.infer<typeof modelConnectionTestResult>;

// ── Ollama pulls: a server job, its frames on /ws/updates ──
export const modelPullBody = z.object({
  model: z
    .string()
    .trim()
    .min(1, 'Model name is required')
    .max(200)
    .regex(/^[\w.:/@-]+$/, 'Model names are letters, digits and . : / @ - _'),
});
export const modelJobStatus = z.enum(['running', 'done', 'failed', 'cancelled']);
export const modelJob = z.object({
  id: z.string(),
  connection_id: z.string(),
  connection_name: z.string(),
  model: z.string(),
  status: modelJobStatus,
  /** Ollama's own status line ('pulling manifest', 'pulling 6a0746a1ec1a', 'verifying sha256 digest', 'success'). */
  phase: z.string(),
  completed: z.number().nonnegative(),
  total: z.number().nonnegative(),
  error: z.string().nullable(),
  started_at: z.string(),
});
export type ModelJob = z.infer<typeof modelJob>;
export const modelJobList = z.object({ jobs: z.array(modelJob) });

export const modelLiveFrames = [
  z.object({ type: z.literal('model_job'), job: modelJob }),
  /** Another tab (or this one) added, changed or removed a connection, or a model appeared or went. */
  z.object({ type: z.literal('model_connections_changed') }),
] as const;

// ── Model ids: what an agent's `model` field holds ──
/**
 * `@<connection id>/<model name>`: the connection id has no '/', so the first '/' after it ends it and the model
 * name may hold '/' and ':' (OpenRouter's 'meta-llama/llama-3.3-70b', Ollama's 'qwen2.5:0.5b'). A name without
 * the leading '@' is an older agent's plain model name, resolved as before (the server's own providers).
 */
export function modelId(connectionId: string, model: string) {
  return `@${connectionId}/${model}`;
}
export function parseModelId(id: string): { connectionId: string; model: string } | null {
  const m = /^@([^/]+)\/(.+)$/.exec(id);
  return m ? { connectionId: m[1], model: m[2] } : null;
}
/** How a model reads in every picker: 'Groq · llama-3.3-70b'. */
export const modelLabel = (connectionName: string, model: string) => `${connectionName} · ${model}`;

/** The server's own connections have fixed ids (they come from its environment). */
export const SERVER_CONNECTION_IDS = { ollama: 'server-ollama', openai: 'server-openai' } as const;
