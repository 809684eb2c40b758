import path from 'node:path';

/** The pace of the built-in offline model unless OFFLINE_MODEL_TOKENS_PER_SECOND says otherwise: about a person's. */
export const DEFAULT_OFFLINE_TOKENS_PER_SECOND = 30;

// Everything the server reads from its environment, with the defaults the README documents.
export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  mediaDir: string;
  /** Unset → embedded PGlite in dataDir; 'memory://' → in-memory PGlite (tests). */
  databaseUrl: string | undefined;
  jwtSecret: string | undefined;
  jwtTtlMinutes: number;
  staticDir: string | undefined;
  loginRateLimit: number;
  ollamaHost: string | undefined;
  openaiBaseUrl: string | undefined;
  openaiApiKey: string | undefined;
  ttsBaseUrl: string | undefined;
  ttsApiKey: string | undefined;
  transcribeBaseUrl: string | undefined;
  transcribeApiKey: string | undefined;
  espeakPath: string | undefined;
  researchEnabled: boolean;
  /** Whole model call, first byte to last (a local model on a CPU can be slow). */
  llmTimeoutMs: number;
  /** Pace of the built-in offline model's streamed replies; 0 is instant. */
  offlineTokensPerSecond: number;
  ttsModel: string | undefined;
  /** How long generated speech clips are kept; 0 keeps them forever. */
  ttsRetentionHours: number;
  ttsVoice: string | undefined;
  transcribeModel: string | undefined;
  researchKeys: { pubmed?: string; semantic_scholar?: string; core?: string };
  logLevel: string;
}

const num = (v: string | undefined, d: number) => (v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) : d);

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<ServerConfig> = {}): ServerConfig {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  return {
    port: num(env.PORT, 8000),
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    mediaDir: path.resolve(env.MEDIA_DIR ?? path.join(dataDir, 'media')),
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret: env.JWT_SECRET || undefined,
    jwtTtlMinutes: num(env.JWT_TTL_MINUTES, 60),
    staticDir: env.STATIC_DIR === '' ? undefined : path.resolve(env.STATIC_DIR ?? './dist'),
    loginRateLimit: num(env.LOGIN_RATE_LIMIT, 20),
    ollamaHost: env.OLLAMA_HOST === '' ? undefined : (env.OLLAMA_HOST ?? 'http://127.0.0.1:11434'),
    openaiBaseUrl: env.OPENAI_BASE_URL || undefined,
    openaiApiKey: env.OPENAI_API_KEY || undefined,
    ttsBaseUrl: env.TTS_BASE_URL || undefined,
    ttsApiKey: env.TTS_API_KEY || undefined,
    transcribeBaseUrl: env.TRANSCRIBE_BASE_URL || undefined,
    transcribeApiKey: env.TRANSCRIBE_API_KEY || undefined,
    espeakPath: env.ESPEAK_PATH || undefined,
    researchEnabled: (env.RESEARCH_ENABLED ?? 'true') !== 'false',
    llmTimeoutMs: num(env.LLM_TIMEOUT_MS, 120_000),
    offlineTokensPerSecond: Math.max(0, num(env.OFFLINE_MODEL_TOKENS_PER_SECOND, DEFAULT_OFFLINE_TOKENS_PER_SECOND)),
    ttsModel: env.TTS_MODEL || undefined,
    ttsRetentionHours: num(env.TTS_RETENTION_HOURS, 24 * 7),
    ttsVoice: env.TTS_VOICE || undefined,
    transcribeModel: env.TRANSCRIBE_MODEL || undefined,
    researchKeys: {
      pubmed: env.PUBMED_API_KEY || undefined,
      semantic_scholar: env.SEMANTIC_SCHOLAR_API_KEY || undefined,
      core: env.CORE_API_KEY || undefined,
    },
    logLevel: env.LOG_LEVEL ?? 'info',
    ...overrides,
  };
}
