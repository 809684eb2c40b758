import type { ModelConnection, ModelConnectionTestResult } from '../../src/schemas/modelConnections';
import { modelId, modelLabel, parseModelId } from '../../src/schemas/modelConnections';
import type { AppContext } from '../context';
import { ProviderError } from '../providers/errors';
import { modelKind } from '../connections/kinds';
import type { LlmProvider, ModelInfo } from '../providers/types';
import { listLimitsOf, replyLimitsOf, type ServerConfig } from '../config';
import type { Providers } from '../providers/providers';
import { checkUrl } from './addressRule';
import { guardedFetch } from './guardedFetch';
import { builtinServerEngine } from './builtinEngine';
import type { ServerEngine } from './serverEngine';

export type { ServerEngine } from './serverEngine';
import { probeConnection, type ProbeTarget } from './probe';
import { createSecretBox, resolveSecretsKey, type SecretBox } from './secrets';
import { modelConnectionStore, type ConnectionRow } from './store';
import { connectionStatus } from '../connections/status';
import { envModelTargets } from '../connections/envTargets';
import { serverOwnedTarget, userTarget, type ConnectionTarget } from '../connections/target';

// A user's model connections put together: the server's own (from its environment, read-only) and the user's
// (from model_connections), each with its state and models; and the one place an agent's model id becomes the
// provider that answers it (resolveModel), scoped to the agent's owner.

/** How long a connection's listing (and so its state) is reused. */
const LISTING_TTL_MS = 10_000;
/** Listing on open of the dialog or the editor must stay quick, even when a connection is down. */
export const LIST_TIMEOUT_MS = 3_000;

/** One connection, whoever owns it, with what is needed to call it (the key opened only here). */
export interface Target extends ConnectionTarget<ProbeTarget['kind'] | 'builtin'> {
  preset: string | null;
}

interface Listed {
  version: string;
  at: number;
  result: ModelConnectionTestResult;
  /** The last models it listed, kept while it does not answer. */
  lastModels: string[];
}

/** The models subsystem's per-server state, carried by the AppContext (`ctx.models`). */
export interface ModelsState {
  engines: ServerEngine[];
  /** The box that seals connection keys; its key is read (or made) on first use. */
  readonly box: Promise<SecretBox>;
  listings: Map<string, Listed>;
  providers: Map<string, { version: string; provider: LlmProvider }>;
}

declare module '../context' {
  interface AppContext {
    models: ModelsState;
  }
}

export function createModelsState(config: ServerConfig, providers: Providers): ModelsState {
  const persist = config.databaseUrl !== 'memory://';
  let box: Promise<SecretBox> | null = null;
  return {
    // The built-in engine, when this server has one, is every user's 'Built-in' connection.
    engines: providers.builtin ? [builtinServerEngine(providers.builtin)] : [],
    get box() {
      return (box ??= resolveSecretsKey(config.secretsKey, config.dataDir, persist).then(createSecretBox));
    },
    listings: new Map(),
    providers: new Map(),
  };
}

export const modelsState = (ctx: AppContext): ModelsState => ctx.models;

export const secretBox = (ctx: AppContext) => modelsState(ctx).box;

/** fetch for a user's connections: through the address rule, at the address connected to. */
export const userFetch = (ctx: AppContext) =>
  guardedFetch({ allowPrivate: ctx.config.modelConnectionsAllowPrivate, setting: 'MODEL_CONNECTIONS_ALLOW_PRIVATE' });

/** Adds an engine of this server to every user's connections (docs/models.md); a second one with its id replaces it. */
export function registerServerEngine(ctx: AppContext, engine: ServerEngine) {
  const state = modelsState(ctx);
  state.engines = [...state.engines.filter((e) => e.id !== engine.id), engine];
  state.listings.delete(engine.id);
}

/** The server's own connections, from OLLAMA_HOST and OPENAI_BASE_URL. */
export function serverTargets(ctx: AppContext): Target[] {
  const out: Target[] = modelsState(ctx).engines.map((e) => ({
    ...serverOwnedTarget({ id: e.id, kind: 'builtin' as const, name: e.name, baseUrl: e.location }, 'engine'),
    preset: null,
  }));
  for (const t of envModelTargets(ctx.config)) out.push({ ...t, preset: null });
  return out;
}

export async function rowTarget(ctx: AppContext, row: ConnectionRow): Promise<Target> {
  return { ...userTarget(await secretBox(ctx), modelConnectionStore, row), preset: row.preset };
}

export async function userTargets(ctx: AppContext, userId: string): Promise<Target[]> {
  return Promise.all((await modelConnectionStore.list(ctx.db, userId)).map((r) => rowTarget(ctx, r)));
}

/** Lists a connection's models, through the address rule for the user's own. */
export async function probeTarget(
  ctx: AppContext,
  t: Pick<Target, 'kind' | 'baseUrl' | 'apiKey' | 'readOnly'> & { id?: string },
): Promise<ModelConnectionTestResult> {
  if (t.kind === 'builtin') {
    const engine = modelsState(ctx).engines.find((e) => e.id === t.id);
    if (!engine)
      return { ok: false, reason: 'unreachable', detail: 'The built-in engine is not installed on this server' };
    return engine.listModels().then(
      (models): ModelConnectionTestResult => ({ ok: true, models }),
      (e): ModelConnectionTestResult => ({ ok: false, reason: 'unreachable', detail: (e as Error).message }),
    );
  }
  const limits = listLimitsOf(ctx.config);
  if (t.readOnly) return probeConnection({ ...t, kind: t.kind }, { timeoutMs: LIST_TIMEOUT_MS, limits });
  const verdict = await checkUrl(t.baseUrl, ctx.config.modelConnectionsAllowPrivate);
  if (!verdict.ok) return { ok: false, reason: 'blocked', detail: verdict.detail };
  return probeConnection({ ...t, kind: t.kind }, { timeoutMs: LIST_TIMEOUT_MS, limits, fetch: userFetch(ctx) });
}

async function listing(ctx: AppContext, t: Target, fresh: boolean): Promise<Listed> {
  const { listings } = modelsState(ctx);
  const cacheKey = `${t.id}`;
  const prev = listings.get(cacheKey);
  if (!fresh && prev && prev.version === t.version && Date.now() - prev.at < LISTING_TTL_MS) return prev;
  const result = await probeTarget(ctx, t);
  const lastModels = result.ok ? result.models : prev?.version === t.version ? prev.lastModels : [];
  const next = { version: t.version, at: Date.now(), result, lastModels };
  listings.set(cacheKey, next);
  return next;
}

/** Forget what a connection listed (after a pull or a delete, so the next list is fresh). */
export const forgetListing = (ctx: AppContext, connectionId: string) => modelsState(ctx).listings.delete(connectionId);

export { SERVER_CONNECTION_DOWN } from '../connections/status';

function view(t: Target, l: Listed, operator = false): ModelConnection {
  const names = l.result.ok ? l.result.models : l.lastModels;
  return {
    id: t.id,
    kind: t.kind,
    preset: t.preset,
    name: t.name,
    base_url: t.readOnly && !operator ? '' : t.baseUrl,
    api_key_hint: t.keyHint,
    read_only: t.readOnly,
    manage_models: t.kind === 'ollama' && (!t.readOnly || operator),
    status: connectionStatus(l.result, t.readOnly && !operator),
    models: names.map((n) => ({ id: modelId(t.id, n), name: n, label: modelLabel(t.name, n) })),
    stale: !l.result.ok && names.length > 0,
  };
}

/** The connections a user sees: the server's own first, then theirs, each with its state and models. */
export async function listConnections(
  ctx: AppContext,
  userId: string,
  opts: { fresh?: boolean; operator?: boolean } = {},
): Promise<ModelConnection[]> {
  const targets = [...serverTargets(ctx), ...(await userTargets(ctx, userId))];
  const listed = await Promise.all(targets.map((t) => listing(ctx, t, !!opts.fresh)));
  return targets.map((t, i) => view(t, listed[i], !!opts.operator));
}

export async function connectionView(ctx: AppContext, userId: string, id: string): Promise<ModelConnection> {
  const t = await rowTarget(ctx, await modelConnectionStore.owned(ctx.db, userId, id));
  return view(t, await listing(ctx, t, true));
}

/** What the agent editor's model select lists: the offline model, then every connection's models, labelled by it. */
export async function pickerModels(
  ctx: AppContext,
  userId: string,
): Promise<Array<ModelInfo & { connection_id?: string; connection_name?: string; reachable?: boolean }>> {
  // The server's Ollama and OpenAI-compatible providers, and its built-in engine, appear through its connections
  // (with ids that name them); what else the registry lists (the offline model) is kept as it was.
  const viaConnections = new Set(['ollama', 'openai', ...(ctx.providers.builtin ? [ctx.providers.builtin.id] : [])]);
  const builtIns = (await ctx.providers.llm.listModels()).filter((m) => !viaConnections.has(m.provider));
  const connections = await listConnections(ctx, userId);
  const fromConnections = connections.flatMap((c) =>
    c.models.map((m) => ({
      name: m.id,
      provider: c.kind,
      label: m.label,
      connection_id: c.id,
      connection_name: c.name,
      reachable: c.status.state === 'reachable',
    })),
  );
  return [...builtIns, ...fromConnections];
}

// ── Resolving an agent's model ──

function providerFor(ctx: AppContext, t: Target): LlmProvider {
  const { providers, engines } = modelsState(ctx);
  if (t.kind === 'builtin') {
    const engine = engines.find((e) => e.id === t.id);
    if (!engine)
      throw new ProviderError('The built-in engine is not installed on this server', 'builtin', 'unconfigured');
    return engine.provider;
  }
  const cached = providers.get(t.id);
  if (cached && cached.version === t.version) return cached.provider;
  // A user's connection goes through the address rule at every connect (guardedFetch.ts): the name may resolve
  // elsewhere since the connection was saved.
  const common = {
    timeoutMs: ctx.config.llmTimeoutMs,
    limits: replyLimitsOf(ctx.config),
    listLimits: listLimitsOf(ctx.config),
    ...(t.readOnly ? {} : { fetch: userFetch(ctx) }),
  };
  const provider = modelKind(t.kind).client({ baseUrl: t.baseUrl, apiKey: t.apiKey, ...common });
  providers.set(t.id, { version: t.version, provider });
  return provider;
}

/**
 * The provider and the model name to send it, for an agent of `userId`: '@<connection>/<model>' goes to that
 * connection (the server's own or one of the user's; another user's is 'no longer exists', never theirs); a plain
 * name (an older agent, or 'offline') returns null and the server's registry answers as it always has.
 */
export async function resolveModel(
  ctx: AppContext,
  userId: string,
  model: string,
): Promise<{ provider: LlmProvider; model: string } | null> {
  const parsed = parseModelId(model);
  if (!parsed) return null;
  const server = serverTargets(ctx).find((t) => t.id === parsed.connectionId);
  if (server) return { provider: providerFor(ctx, server), model: parsed.model };
  const row = await modelConnectionStore.find(ctx.db, userId, parsed.connectionId);
  if (!row) {
    throw new ProviderError(
      `The connection of the model "${parsed.model}" no longer exists; choose another model in the agent's editor`,
      'connections',
      'unconfigured',
    );
  }
  return { provider: providerFor(ctx, await rowTarget(ctx, row)), model: parsed.model };
}

/**
 * How an agent's model reads to its owner when a discussion starts ('Loopback sim · walk-sim-7b'), stored with the
 * discussion so History still says it after the connection is renamed or removed; null for a plain name (the
 * client names those itself).
 */
export async function modelLabelOf(ctx: AppContext, userId: string, model: string | null | undefined) {
  const parsed = model ? parseModelId(model) : null;
  if (!parsed) return null;
  const server = serverTargets(ctx).find((t) => t.id === parsed.connectionId);
  const name = server?.name ?? (await modelConnectionStore.find(ctx.db, userId, parsed.connectionId))?.name;
  return name ? modelLabel(name, parsed.model) : null;
}
