import { isIP } from 'node:net';
import { type SourcesConfig, sourcesConfigFrom } from './sources/config';
import { type IntegrationsConfig, integrationsConfigFrom } from './integrations/config';
import { type ToolsConfig, toolsConfigFrom } from './tools/config';
import path from 'node:path';
import { AUDIO_TIMEOUT_MS, DEFAULT_TTS } from '../src/schemas/constants';
import { DEFAULT_VOICE_AUDIO_MAX_BYTES } from './providers/speech/audioAnswer';
import { builtinConfigFrom, type BuiltinConfig } from './providers/llm/builtin/config';

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
  /** POCKETSPHINX_PATH: pocketsphinx_continuous to transcribe with (a path that is not executable turns it off); unset → found on PATH. */
  pocketsphinxPath: string | undefined;
  /** POCKETSPHINX_MODEL_DIR: its model; unset → Debian's pocketsphinx-en-us when installed. */
  pocketsphinxModelDir: string | undefined;
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
  /** Which proxies may set X-Forwarded-For: false (none, the default), a hop count, or addresses/CIDRs. */
  trustProxy: false | number | string[];
  /** Browser origins (besides the server's own) whose pages may open the sockets. */
  allowedOrigins: string[];
  /** Bearer token of the operator endpoint /monitor/server; unset turns the endpoint off. */
  operatorToken: string | undefined;
  /** ADMIN_EMAILS: the operators' accounts (lower case); empty → the first account is the operator. */
  adminEmails: string[];
  /** How long a socket ticket (POST /auth/socket-ticket) opens a socket; it opens one only. */
  socketTicketTtlSeconds: number;
  /** Per-user limits (0 turns one off). */
  maxRunningDiscussionsPerUser: number;
  maxAgentsPerDiscussion: number;
  ttsMaxTextLength: number;
  ttsQuotaMb: number;
  audioQuotaMb: number;
  /** USER_DAILY_TOKENS: tokens one user's discussions may spend in 24 hours (0: no budget). */
  userDailyTokens: number;
  /** With DATABASE_URL (more than one process): how often the live-update listener checks its connection. */
  clusterHeartbeatMs: number;
  /** With DATABASE_URL: how long a running discussion's owner keeps its claim without renewing it. */
  discussionLeaseMs: number;
  /** PGlite: store each discussion's snapshot so a restarted server continues it (always on with DATABASE_URL). */
  discussionsSurviveRestart: boolean;
  /** Seals the API keys of model connections (AES-256-GCM); unset → a key generated into DATA_DIR/secrets-key. */
  secretsKey: string | undefined;
  /** Whether users' model connections may reach loopback and private addresses (docs/models.md). */
  modelConnectionsAllowPrivate: boolean;
  /** The built-in llama.cpp engine (BUILTIN_* variables; providers/llm/builtin/config.ts). */
  builtin: BuiltinConfig;
  /** The caps on a person's sources (server/sources/config.ts). */
  sources: SourcesConfig;
  /** Saved panels and API tokens for other clients (server/integrations/config.ts). */
  integrations: IntegrationsConfig;
  /** The caps on tools and the operator's MCP servers (server/tools/config.ts). */
  tools: ToolsConfig;
  /** Flood control on discussion sockets (server/engine/flood.ts): human messages per user, per second and burst. */
  humanMessagesPerSecond: number;
  humanMessageBurst: number;
  /** Any client frame, per socket, per second and burst. */
  clientFramesPerSecond: number;
  clientFrameBurst: number;
  /** Human messages one discussion stores at most; 0 = no limit. */
  maxHumanMessagesPerDiscussion: number;
  /** What one model call may send back (providers/llm/limits.ts). */
  llmMaxReplyChars: number;
  llmReplyCharsPerToken: number;
  llmMaxLineBytes: number;
  /** What a model list may hold: names, the longest name, bytes. */
  modelListMaxModels: number;
  modelListMaxNameLength: number;
  modelListMaxBytes: number;
  /** Model connections one user may have. */
  maxConnectionsPerUser: number;
  /** Ollama pulls: silence and whole-pull time-outs; how many run at once per user and on the server. */
  pullIdleTimeoutMs: number;
  pullTimeoutMs: number;
  maxPullsPerUser: number;
  maxPulls: number;
  /** Per user and minute: connection Tests, Saves (add and edit), pulls, built-in model downloads. */
  modelTestRateLimit: number;
  /** Fresh status checks of a user's model connections (before Start) per minute. */
  modelStatusRateLimit: number;
  modelSaveRateLimit: number;
  modelPullRateLimit: number;
  downloadRateLimit: number;
  /** Transcription: the longest audio converted (minutes); jobs at once per user and on the server. */
  transcribeMaxMinutes: number;
  transcribeJobsPerUser: number;
  transcribeJobs: number;
  /** Evaluations (README 'Does the panel help?'): questions per run, stored runs per user, runs at once, questions in flight per run. */
  evalMaxQuestions: number;
  evalMaxRuns: number;
  evalMaxConcurrentRuns: number;
  evalParallelQuestions: number;
  /** Longest wait for an agent's voice server per turn before that turn falls back to espeak-ng (README 'Voices'). */
  voiceTimeoutMs: number;
  /** Characters per request to a voice server; longer speech is split at sentence ends. */
  voiceChunkChars: number;
  /** The largest audio answer read from a speech server (VOICE_AUDIO_MAX_BYTES), cut while it streams. */
  voiceAudioMaxBytes: number;
}

const num = (v: string | undefined, d: number) =>
  v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) : d;

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
    pocketsphinxPath: env.POCKETSPHINX_PATH || undefined,
    pocketsphinxModelDir: env.POCKETSPHINX_MODEL_DIR || undefined,
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
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    allowedOrigins: (env.ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim().replace(/\/+$/, ''))
      .filter(Boolean),
    operatorToken: env.OPERATOR_TOKEN || undefined,
    socketTicketTtlSeconds: Math.max(1, num(env.SOCKET_TICKET_TTL_SECONDS, 30)),
    adminEmails: (env.ADMIN_EMAILS ?? '')
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
    maxRunningDiscussionsPerUser: num(env.MAX_RUNNING_DISCUSSIONS_PER_USER, 5),
    maxAgentsPerDiscussion: num(env.MAX_AGENTS_PER_DISCUSSION, 12),
    ttsMaxTextLength: num(env.TTS_MAX_TEXT_LENGTH, DEFAULT_TTS.max_length),
    ttsQuotaMb: num(env.TTS_QUOTA_MB, 100),
    audioQuotaMb: num(env.AUDIO_QUOTA_MB, 200),
    userDailyTokens: Math.max(0, num(env.USER_DAILY_TOKENS, 0)),
    clusterHeartbeatMs: Math.max(100, num(env.CLUSTER_HEARTBEAT_MS, 2_000)),
    discussionLeaseMs: Math.max(300, num(env.DISCUSSION_LEASE_MS, 10_000)),
    discussionsSurviveRestart: /^(1|true|yes|on)$/i.test(env.DISCUSSIONS_SURVIVE_RESTART ?? ''),
    secretsKey: env.SECRETS_KEY || undefined,
    modelConnectionsAllowPrivate: !/^(0|false|no|off)$/i.test(env.MODEL_CONNECTIONS_ALLOW_PRIVATE ?? ''),
    // After a test's or caller's dataDir, so DATA_DIR/models follows it.
    builtin: builtinConfigFrom(env, overrides.dataDir ? path.resolve(overrides.dataDir) : dataDir),
    sources: sourcesConfigFrom(env),
    integrations: integrationsConfigFrom(env),
    tools: toolsConfigFrom(env),
    humanMessagesPerSecond: Math.max(0.01, num(env.HUMAN_MESSAGES_PER_SECOND, 2)),
    humanMessageBurst: Math.max(1, num(env.HUMAN_MESSAGE_BURST, 5)),
    clientFramesPerSecond: Math.max(0.01, num(env.CLIENT_FRAMES_PER_SECOND, 20)),
    clientFrameBurst: Math.max(1, num(env.CLIENT_FRAME_BURST, 40)),
    maxHumanMessagesPerDiscussion: Math.max(0, num(env.MAX_HUMAN_MESSAGES_PER_DISCUSSION, 200)),
    llmMaxReplyChars: Math.max(1_000, num(env.LLM_MAX_REPLY_CHARS, 200_000)),
    llmReplyCharsPerToken: Math.max(1, num(env.LLM_REPLY_CHARS_PER_TOKEN, 16)),
    llmMaxLineBytes: Math.max(1_024, num(env.LLM_MAX_LINE_BYTES, 1024 * 1024)),
    modelListMaxModels: Math.max(1, num(env.MODEL_LIST_MAX_MODELS, 2_000)),
    modelListMaxNameLength: Math.max(1, num(env.MODEL_LIST_MAX_NAME_LENGTH, 200)),
    modelListMaxBytes: Math.max(1_024, num(env.MODEL_LIST_MAX_BYTES, 8 * 1024 * 1024)),
    maxConnectionsPerUser: Math.max(0, num(env.MAX_CONNECTIONS_PER_USER, 20)),
    pullIdleTimeoutMs: Math.max(100, num(env.PULL_IDLE_TIMEOUT_MS, 120_000)),
    pullTimeoutMs: Math.max(100, num(env.PULL_TIMEOUT_MS, 6 * 3_600_000)),
    maxPullsPerUser: Math.max(1, num(env.MAX_PULLS_PER_USER, 2)),
    maxPulls: Math.max(1, num(env.MAX_PULLS, 4)),
    modelTestRateLimit: Math.max(1, num(env.MODEL_TEST_RATE_LIMIT, 20)),
    modelStatusRateLimit: Math.max(1, num(env.MODEL_STATUS_RATE_LIMIT, 30)),
    modelSaveRateLimit: Math.max(1, num(env.MODEL_SAVE_RATE_LIMIT, 30)),
    modelPullRateLimit: Math.max(1, num(env.MODEL_PULL_RATE_LIMIT, 10)),
    downloadRateLimit: Math.max(1, num(env.BUILTIN_DOWNLOAD_RATE_LIMIT, 10)),
    transcribeMaxMinutes: Math.max(0.1, num(env.TRANSCRIBE_MAX_MINUTES, 30)),
    transcribeJobsPerUser: Math.max(1, num(env.TRANSCRIBE_JOBS_PER_USER, 1)),
    transcribeJobs: Math.max(1, num(env.TRANSCRIBE_JOBS, 2)),
    evalMaxQuestions: Math.max(1, num(env.EVAL_MAX_QUESTIONS, 500)),
    evalMaxRuns: Math.max(1, num(env.EVAL_MAX_RUNS, 50)),
    evalMaxConcurrentRuns: Math.max(1, num(env.EVAL_MAX_CONCURRENT_RUNS, 2)),
    evalParallelQuestions: Math.max(1, num(env.EVAL_PARALLEL_QUESTIONS, 4)),
    // Never past the audio queue's own time-out: a slow voice server must not hold the discussion longer.
    voiceTimeoutMs: Math.min(AUDIO_TIMEOUT_MS, Math.max(100, num(env.VOICE_TIMEOUT_MS, AUDIO_TIMEOUT_MS))),
    voiceChunkChars: Math.max(50, num(env.VOICE_CHUNK_CHARS, 3_000)),
    voiceAudioMaxBytes: Math.max(64 * 1024, num(env.VOICE_AUDIO_MAX_BYTES, DEFAULT_VOICE_AUDIO_MAX_BYTES)),
    ...overrides,
  };
}

/**
 * TRUST_PROXY: unset, empty, `false` or `0` → no proxy is trusted and client addresses never come from headers;
 * a number → that many proxy hops in front of the server; otherwise a comma-separated list of proxy addresses or
 * CIDR ranges (`127.0.0.1`, `10.0.0.0/8`, `loopback`, `uniquelocal`).
 */
export function parseTrustProxy(v: string | undefined): false | number | string[] {
  const t = (v ?? '').trim();
  if (!t || /^(false|0|no|off)$/i.test(t)) return false;
  if (/^\d+$/.test(t)) return Number(t);
  const list = t
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const named = new Set(['loopback', 'linklocal', 'uniquelocal']);
  for (const a of list) {
    if (!named.has(a) && !isIP(a.split('/')[0]))
      throw new Error(`TRUST_PROXY: "${a}" is not an address, a CIDR range or a hop count`);
  }
  return list;
}

/** Whether the log has a line for every request: at LOG_LEVEL debug or trace (at info it is noise). */
export const requestsLogged = (logLevel: string) => logLevel === 'debug' || logLevel === 'trace';

/** The reply caps of a model call, from the configuration. */
export const replyLimitsOf = (c: ServerConfig) => ({
  maxReplyChars: c.llmMaxReplyChars,
  replyCharsPerToken: c.llmReplyCharsPerToken,
  maxLineBytes: c.llmMaxLineBytes,
});
/** What a voice server's answers may hold (the voice list as a model list, each audio answer). */
export const voiceLimitsOf = (c: ServerConfig) => ({ list: listLimitsOf(c), audioMaxBytes: c.voiceAudioMaxBytes });

/** The model list caps, from the configuration. */
export const listLimitsOf = (c: ServerConfig) => ({
  maxModels: c.modelListMaxModels,
  maxNameLength: c.modelListMaxNameLength,
  maxBytes: c.modelListMaxBytes,
});
