// The caps on embedding a person's passages and questions (README 'Limits'; docs/sources.md#searched-by-words-and-meaning),
// each with its environment variable. What an embedding server sends is bounded like any provider's answer.

export interface EmbedConfig {
  /** SOURCE_EMBED_BATCH: passages sent in one embedding request. */
  embedBatch: number;
  /** SOURCE_EMBED_TIMEOUT_MS: one batch's request, first byte to last. */
  embedTimeoutMs: number;
  /** SOURCE_EMBED_SOURCE_TIMEOUT_MS: embedding one whole source; past it the source stays searched by words. */
  embedSourceTimeoutMs: number;
  /** SOURCE_EMBED_QUERY_TIMEOUT_MS: embedding a turn's question; past it the turn is searched by words alone. */
  embedQueryTimeoutMs: number;
  /** SOURCE_EMBED_MAX_RESPONSE_BYTES: one embedding answer's body. */
  embedMaxResponseBytes: number;
}

const num = (v: string | undefined, d: number) => {
  const n = Number(v);
  return v !== undefined && v !== '' && Number.isFinite(n) ? n : d;
};

export function embedConfigFrom(env: NodeJS.ProcessEnv): EmbedConfig {
  return {
    embedBatch: Math.min(256, Math.max(1, num(env.SOURCE_EMBED_BATCH, 32))),
    embedTimeoutMs: Math.max(1_000, num(env.SOURCE_EMBED_TIMEOUT_MS, 60_000)),
    embedSourceTimeoutMs: Math.max(1_000, num(env.SOURCE_EMBED_SOURCE_TIMEOUT_MS, 15 * 60_000)),
    embedQueryTimeoutMs: Math.max(100, num(env.SOURCE_EMBED_QUERY_TIMEOUT_MS, 3_000)),
    embedMaxResponseBytes: Math.max(64 * 1024, num(env.SOURCE_EMBED_MAX_RESPONSE_BYTES, 16 * 1024 * 1024)),
  };
}
