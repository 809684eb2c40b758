import { z } from 'zod';
// First, so zod is configured (no run-time code in a browser) before these schemas are built.
import './common';
import {
  apiKey,
  connectionName,
  connectionState,
  connectionTestBodyOf,
  connectionTestFailure,
  httpUrl,
  kindsOf,
  userKindsOf,
} from './connectionKinds';
import { OLLAMA_DEFAULT_URL, OPENAI_PRESETS } from './constants';

// The shared fields and states, for the modules that read them from here.
export {
  API_KEY_MAX_BYTES,
  CONNECTION_NAME_MAX,
  type ConnectionFailureKind,
  type ConnectionState,
  connectionFailureKind,
  connectionState,
} from './connectionKinds';

// Model connections (docs/models.md): the REST surface under /model-connections and /model-jobs, and the
// live-update frames of a pull. Shared by the SPA and the server; the server's route definitions carry them.

/** Every model kind, from the one kind table; 'builtin' is the server's own llama.cpp engine. */
export const modelConnectionKind = kindsOf('model');
export type ModelConnectionKind = z.infer<typeof modelConnectionKind>;
export const MODEL_CONNECTION_KINDS = modelConnectionKind.options;
/** The model kinds a user may add. */
export const userModelKind = userKindsOf('model');
export type UserModelKind = z.infer<typeof userModelKind>;

// The presets and Ollama's usual address live with the spec constants (the Models chart reads them without zod).
export { OLLAMA_DEFAULT_URL, OPENAI_PRESETS };
export const openaiPreset = z.enum(OPENAI_PRESETS.map((p) => p.id) as [string, ...string[]]);

/** What the form sends to add a connection. */
export const modelConnectionCreate = z.object({
  kind: userModelKind,
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
export const modelConnectionTestBody = connectionTestBodyOf(userModelKind);
export type ModelConnectionTestBody = z.infer<typeof modelConnectionTestBody>;

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
  connectionTestFailure,
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
