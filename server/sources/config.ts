import { type EmbedConfig, embedConfigFrom } from './embedConfig';
import { defaultReadThreads } from './worker/readerPool';

// The caps on what a person's sources may take (README 'Limits'), each with its environment variable.

export interface SourcesConfig extends EmbedConfig {
  /** SOURCE_MAX_BYTES: one file or web page. */
  maxBytes: number;
  /** SOURCE_MAX_PAGES: pages of one PDF. */
  maxPages: number;
  /** SOURCE_MAX_PASSAGES: passages of one source. */
  maxPassages: number;
  /** SOURCES_PER_USER. */
  perUser: number;
  /** SOURCE_QUOTA_MB: what one user's sources may total (the bytes of the files read). */
  quotaBytes: number;
  /** SOURCE_READ_TIMEOUT_MS: reading one source, fetch included. */
  readTimeoutMs: number;
  /** SOURCE_READ_THREADS: reader threads (worker/readerPool.ts); a file waits for a free one. */
  readThreads: number;
  /** SOURCE_READ_MEMORY_MB: the heap of one reader thread; a document that needs more is refused. */
  readMemoryMb: number;
  /** SOURCE_UNZIPPED_MAX_BYTES: what a .docx may expand to (a zip bomb is refused before it is opened). */
  unzippedMaxBytes: number;
  /** SOURCE_PROMPT_TOKENS: passages put in one turn's prompt (at most SOURCE_PASSAGES_PER_TURN of them). */
  promptTokens: number;
  passagesPerTurn: number;
  /** SOURCE_UPLOAD_RATE_LIMIT: sources added per user per minute. */
  uploadRateLimit: number;
  /** SOURCES_ALLOW_PRIVATE: whether a web page may be on a loopback or private address. */
  allowPrivate: boolean;
}

const MB = 1024 * 1024;
const num = (v: string | undefined, d: number) => {
  const n = Number(v);
  return v !== undefined && v !== '' && Number.isFinite(n) ? n : d;
};

export function sourcesConfigFrom(env: NodeJS.ProcessEnv): SourcesConfig {
  return {
    maxBytes: Math.max(1_024, num(env.SOURCE_MAX_BYTES, 25 * MB)),
    maxPages: Math.max(1, num(env.SOURCE_MAX_PAGES, 2_000)),
    maxPassages: Math.max(1, num(env.SOURCE_MAX_PASSAGES, 20_000)),
    perUser: Math.max(1, num(env.SOURCES_PER_USER, 200)),
    quotaBytes: Math.max(1, num(env.SOURCE_QUOTA_MB, 500)) * MB,
    readTimeoutMs: Math.max(1_000, num(env.SOURCE_READ_TIMEOUT_MS, 120_000)),
    readThreads: Math.min(16, Math.max(1, Math.round(num(env.SOURCE_READ_THREADS, defaultReadThreads())))),
    readMemoryMb: Math.max(64, num(env.SOURCE_READ_MEMORY_MB, 512)),
    unzippedMaxBytes: Math.max(MB, num(env.SOURCE_UNZIPPED_MAX_BYTES, 100 * MB)),
    promptTokens: Math.max(100, num(env.SOURCE_PROMPT_TOKENS, 1_500)),
    passagesPerTurn: Math.min(6, Math.max(1, num(env.SOURCE_PASSAGES_PER_TURN, 6))),
    uploadRateLimit: Math.max(1, num(env.SOURCE_UPLOAD_RATE_LIMIT, 30)),
    // A page address is the person's choice and the server fetches it: loopback and private addresses only when the
    // operator says so.
    allowPrivate: /^(1|true|yes|on)$/i.test(env.SOURCES_ALLOW_PRIVATE ?? ''),
    ...embedConfigFrom(env),
  };
}
