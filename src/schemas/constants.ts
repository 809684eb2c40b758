// Every number, name and message the specification fixes, in one place. Machines, views, schemas
// and the server read them from here so that a change to the spec is a change to one line.

export const APP_VERSION = '2.1.0';
/** The spec gives a second reading of the version in one place. */
export const DEFAULT_APP_VERSION = '2.0.0';
export const BACKEND_PORT = 8000;

// ── Session (docs/product.md#workspace-states, #workspace-limits) ──────────
export const SESSION_CHECK_INTERVAL_MS = 30_000;
/** A token this close to its expiry already counts as expired. */
export const SESSION_EXPIRED_MARGIN_MS = 5 * 60_000;
/** Under this much time left (and above the margin), warn once. */
export const SESSION_WARNING_MARGIN_MS = 10 * 60_000;
export const LOGIN_SUCCESS_DELAY_MS = 1_000;
export const TOAST_DURATION_MS = 5_000;
export const CONNECTION_ERROR_LOG_SIZE = 10;
export const COPY_CONFIRMATION_MS = 2_000;

/** Keys under which the token and user are kept, in both localStorage and sessionStorage. */
export const TOKEN_STORAGE_KEYS = ['token', 'access_token', 'authToken'] as const;
export const USER_STORAGE_KEYS = ['user', 'currentUser'] as const;

// ── Live updates (docs/product.md#workspace-calls) ─────────────────────────
export const LIVE_RECONNECT_MAX_ATTEMPTS = 5;
export const LIVE_RECONNECT_BASE_DELAY_MS = 3_000;
/** How long a live channel waits for its socket to open (not fixed by the spec; the standard panel's 10 s). */
export const LIVE_CONNECT_TIMEOUT_MS = 10_000;
/** After the client asked a socket to close, how long socketSession waits for the close before it stops waiting. */
export const SOCKET_CLOSE_GRACE_MS = 1_000;
export const CLOSE_NORMAL = 1000;
export const CLOSE_GOING_AWAY = 1001;
export const CLOSE_PROTOCOL_ERROR = 1002;
export const CLOSE_UNSUPPORTED_DATA = 1003;
export const CLOSE_ABNORMAL = 1006;
export const CLOSE_POLICY_VIOLATION = 1008;
export const CLOSE_INTERNAL_ERROR = 1011;
/** The server handed the socket's discussion over (another process, or itself after a restart): re-attach. */
export const CLOSE_SERVICE_RESTART = 1012;
/** A limit was reached (running discussions, agents): the close reason is the sentence to show. */
export const CLOSE_TRY_AGAIN_LATER = 1013;
export const CLOSE_TLS_FAILURE = 1015;

export const CLOSE_CODE_EXPLANATIONS: Record<number, string> = {
  1000: 'Normal closure',
  1001: 'Going away (page left or server shutting down)',
  1002: 'Protocol error',
  1003: 'Unsupported data',
  1006: 'Abnormal closure (connection dropped without a close frame)',
  1008: 'Policy violation (likely authentication)',
  1011: 'Internal server error',
  1012: 'Service restart (the discussion goes on; reconnect)',
  1013: 'Try again later (a limit was reached)',
  1015: 'TLS handshake failure',
};

// ── Canvas and editor (docs/product.md#workspace-limits) ───────────────────
export const CANVAS_MIN_ZOOM = 0.3;
export const CANVAS_MAX_ZOOM = 1.5;
export const CANVAS_DEFAULT_ZOOM = 0.8;
/** Below this zoom a canvas node is drawn as one flat box with its name (the card's text is too small to read). */
export const CANVAS_DETAIL_ZOOM = 0.6;
/**
 * A board of this many agents or fewer keeps full cards (avatar, role, status) at any zoom: a few agents fitted into
 * a narrow canvas beside the open panel must still say who they are, not turn into bare bars.
 */
export const CANVAS_FULL_CARDS_MAX = 8;
/**
 * A board with more agents than this draws its cards with square corners: a rounded card costs about twice the
 * raster of a square one on every pan frame where the browser paints without a GPU (npm run bench canvas).
 */
export const CANVAS_DENSE_AGENTS = 100;
export const POSITION_MIN = 0;
export const POSITION_MAX = 2000;
export const POSITION_FALLBACK_MIN = 100;
export const POSITION_FALLBACK_MAX = 500;
export const EDITOR_CLOSE_AFTER_CREATE_MS = 500;
/** How long a success banner on the canvas stays (the spec times it for auto-connect; every success banner uses it). */
export const SUCCESS_BANNER_MS = 3_000;
export const BATCH_TRANSCRIBE_REFETCH_MS = [3_000, 6_000, 10_000] as const;
export const TRANSCRIPT_PREVIEW_CHARS = 50;
export const DRAWER_WIDTH_PX = 450;
export const DISCUSSION_PANEL_WIDTH_PX = 450;
/** The discussion panel's width when expanded. */
export const DISCUSSION_PANEL_EXPANDED_WIDTH_PX = 760;
export const DEFAULT_REFERENCE_TEXT = 'This is a default voice for text to speech synthesis.';
export const FALLBACK_MODELS = ['gemma3:4b', 'llama3.1:8b', 'mistral:latest'] as const;
export const OFFLINE_MODEL = 'offline';
export const OFFLINE_MODEL_LABEL = 'Built-in offline model (no LLM)';

export const AGENT_PERSONALITIES = ['patient', 'assertive', 'reactive', 'analytical'] as const;
export const AGENT_STATUSES = [
  'idle',
  'thinking',
  'responding',
  'speaking',
  'active',
  'listening',
  'processing',
] as const;
export const AUDIO_EXTENSIONS = ['wav', 'mp3', 'webm', 'm4a', 'ogg', 'flac'] as const;
/** Upload size cap for reference audio. */
export const AUDIO_MAX_BYTES = 20 * 1024 * 1024;

// ── Recording (docs/product.md#workspace-validation, #workspace-limits) ────
export const RECORDING_MIME_TYPE = 'audio/webm;codecs=opus';
export const RECORDING_SAMPLE_RATE = 44_100;
export const RECORDING_CHUNK_MS = 1_000;
export const recordingName = (date: Date) => `Recording ${date.toLocaleString()}`;

// ── HTTP helper (docs/product.md#workspace-errors) ─────────────────────────
export const HTTP_RETRY_ATTEMPTS = 3;
export const HTTP_RETRY_BASE_DELAY_MS = 500;

// ── Standard discussion (docs/product.md#discussions-limits) ───────────────
export const STANDARD_CONNECT_TIMEOUT_MS = 10_000;
export const ENDPOINT_PROBE_TIMEOUT_MS = 2_000;
export const STANDARD_RECONNECT_MAX_ATTEMPTS = 3;
export const STANDARD_RECONNECT_BASE_DELAY_MS = 2_000;
export const DEFAULT_TURNS = 6;
export const HYBRID_FALLBACK_REASONING_DEPTH = 3;
export const HYBRID_FALLBACK_CONSENSUS_THRESHOLD = 0.7;
export const HYBRID_FALLBACK_MAX_ROUNDS = 10;
export const CONFIDENCE_GREEN_ABOVE = 0.7;
export const ABSTRACT_PREVIEW_CHARS = 200;

export const ENDPOINT_KEYS = ['basic', 'enhanced', 'multi_round', 'hybrid'] as const;
export type EndpointKey = (typeof ENDPOINT_KEYS)[number];
export const ENDPOINTS: Record<
  EndpointKey,
  { name: string; path: string; description: string; features: string[]; requiresAuth: boolean }
> = {
  basic: {
    name: 'Basic',
    path: '/ws/discuss',
    description: 'Turn-based discussion',
    features: ['turns', 'conversation modes', 'tts'],
    requiresAuth: false,
  },
  enhanced: {
    name: 'Enhanced',
    path: '/ws/enhanced',
    description: 'ACL messages, interrupts and consensus',
    features: ['acl', 'interrupts', 'consensus'],
    requiresAuth: true,
  },
  multi_round: {
    name: 'Multi-Round Reasoning',
    path: '/ws/multi_round_reasoning',
    description: 'Staged reasoning with an argument tree',
    features: ['stages', 'arguments', 'convergence'],
    requiresAuth: true,
  },
  hybrid: {
    name: 'Hybrid NLP/ACL',
    path: '/ws/hybrid',
    description: 'Natural language mixed with formal ACL',
    features: ['modes', 'research', 'delegation'],
    requiresAuth: true,
  },
};
export const DEBUG_SOCKET_PATHS = [
  '/discussion/ws/discuss',
  '/discussion/ws/enhanced',
  '/hybrid-discussion/ws',
  '/ws/updates',
  '/system/ws/system',
] as const;
export const DEBUGGER_TEST_TIMEOUT_MS = 10_000;
export const DEBUGGER_TEST_GAP_MS = 1_000;

// ── Hybrid discussion (docs/product.md#discussions-states, #discussions-limits) ───
export const HYBRID_CONNECT_TIMEOUT_MS = 10_000;
export const STOP_CLOSE_DELAY_MS = 500;
export const HYBRID_MODES = ['natural', 'structured', 'hybrid', 'adaptive'] as const;
export const RESPONSE_FORMATS = ['prose', 'bullet', 'structured'] as const;
export const CITATION_STYLES = ['academic', 'inline', 'footnote'] as const;
export const HYBRID_TTS_MAX_LENGTH = 300;

export const HYBRID_TEMPLATES = {
  'Scientific Analysis': { reasoning_depth: 5 },
  'Problem Solving': { max_rounds: 15, turns_per_round: 2 },
  'Creative Brainstorming': { response_format: 'bullet', max_response_length: 300 },
  'Strategic Planning': { reasoning_depth: 4 },
} as const;

// ── Standard settings vocabularies (docs/product.md#discussions-limits) ────
export const CONVERSATION_MODES = [
  'sequential',
  'reactive',
  'natural',
  'smart_delegation',
  'hybrid',
  'enhanced',
] as const;
export const REASONING_MODES = ['fast', 'balanced', 'deep', 'cot', 'tot'] as const;
export const COMMUNICATION_STYLES = ['formal', 'casual', 'technical', 'creative', 'analytical'] as const;
export const REASONING_STAGES = [
  'brainstorming',
  'analysis',
  'critique',
  'synthesis',
  'consensus',
  'implementation',
] as const;
export const RESEARCH_SOURCES = ['arxiv', 'pubmed', 'semantic_scholar', 'crossref', 'core'] as const;
export const RESEARCH_DOMAINS = ['agriculture', 'vineyard', 'plant_pathology', 'iot_sensors', 'general'] as const;
export const SPEED_CHOICES = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;
export const RESPONSE_LENGTHS = ['concise', 'normal', 'detailed', 'comprehensive', 'custom'] as const;
export const ARGUMENT_TYPES = ['proposal', 'support', 'counter', 'question', 'synthesis'] as const;

/** Response length templates of the standard panel (tokens). */
export const RESPONSE_LENGTH_TEMPLATES = {
  concise: { min: 10, max: 50, hint: '1-2 sentences' },
  normal: { min: 50, max: 200, hint: '3-5 sentences' },
  detailed: { min: 200, max: 500, hint: '1-2 paragraphs' },
  comprehensive: { min: 500, max: 1500, hint: 'multiple paragraphs' },
} as const;

/** Communication presets: what the model is actually given (docs/product.md#workspace-limits, #discussions-limits). */
export const COMMUNICATION_PRESETS = {
  concise: { min_tokens: 20, max_tokens: 100, temperature: 0.5, description: 'Short and to the point' },
  normal: { min_tokens: 100, max_tokens: 300, temperature: 0.7, description: 'Balanced length' },
  detailed: { min_tokens: 300, max_tokens: 600, temperature: 0.8, description: 'Thorough explanations' },
  comprehensive: { min_tokens: 600, max_tokens: 1200, temperature: 0.9, description: 'In-depth analysis' },
} as const;

// ── Audio (docs/product.md#workspace-limits, #discussions-states, #discussions-limits) ───
export const AUDIO_PLAYBACK_RATE_MIN = 0.5;
export const AUDIO_PLAYBACK_RATE_MAX = 2;
export const AUDIO_TIMEOUT_MS = 30_000;
export const AUDIO_BUFFER_SIZE = 10;
export const AUDIO_RETRY_ATTEMPTS = 3;
export const AUDIO_RETRY_DELAY_MS = 1_000;
export const AUDIO_VERIFY_TIMEOUT_MS = 10_000;
export const AUDIO_LOAD_TIMEOUT_MS = 15_000;
export const AUDIO_NEXT_AFTER_END_MS = 200;
export const AUDIO_NEXT_AFTER_ERROR_MS = 1_000;
export const AUDIO_NEXT_AFTER_SKIP_MS = 50;
export const DEFAULT_TTS = {
  enabled: false,
  speed: 1,
  volume: 1,
  pitch: 1,
  max_length: 500,
  format: 'wav',
  parallel_generation: true,
  streaming: false,
  interrupt_enabled: true,
} as const;

// ── Export (docs/product.md#discussions-limits) ────────────────────────────
export const PDF_FONT = 'helvetica';
export const PDF_PAGE_BREAK_Y = 270;
export const PDF_TEXT_WIDTH = 180;
export const PDF_HYBRID_MARGIN = 20;
export const PDF_HYBRID_LINE_SPACING = 7;

// ── Server behaviour this project defines (docs/architecture.md, docs/protocol.md) ────────
export const DISCUSSION_RESUME_GRACE_MS = 60_000;
export const sessionId = (now: number) => `session_${now}`;

// ── Model connections (docs/models.md) ────────────────────────────────────
/** Where each OpenAI-compatible preset usually lives; the form fills Base URL from it. */
export const OPENAI_PRESETS = [
  { id: 'openai', label: 'OpenAI', baseUrl: 'https://api.openai.com/v1', needsKey: true },
  { id: 'openrouter', label: 'OpenRouter', baseUrl: 'https://openrouter.ai/api/v1', needsKey: true },
  { id: 'groq', label: 'Groq', baseUrl: 'https://api.groq.com/openai/v1', needsKey: true },
  { id: 'together', label: 'Together', baseUrl: 'https://api.together.xyz/v1', needsKey: true },
  { id: 'vllm', label: 'vLLM', baseUrl: 'http://127.0.0.1:8000/v1', needsKey: false },
  { id: 'lmstudio', label: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1', needsKey: false },
  { id: 'llamacpp', label: 'llama.cpp server', baseUrl: 'http://127.0.0.1:8080/v1', needsKey: false },
  { id: 'custom', label: 'Other OpenAI-compatible', baseUrl: '', needsKey: false },
] as const;
export const OLLAMA_DEFAULT_URL = 'http://127.0.0.1:11434';

// ── Agents ─────────────────────────────────────────────────────────────────
/** An agent's chosen colour: '#rrggbb' (the agent schema's colour field and the editor's check read this). */
export const AGENT_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

/** A discussion's format: who speaks when and who hears what (docs/protocol.md#formats). */
export const FORMAT_KINDS = ['round_table', 'moderated', 'council', 'debate'] as const;
/** Where a discussion was started (History's `origin`): the app, an MCP client (/mcp), the OpenAI-compatible /v1. */
export const DISCUSSION_ORIGINS = ['app', 'mcp', 'api'] as const;
export type DiscussionOrigin = (typeof DISCUSSION_ORIGINS)[number];
/** The format of a discussion sent with no `format` (today's discussion), and of a setting that names none. */
export const DEFAULT_FORMAT_KIND = 'round_table' satisfies (typeof FORMAT_KINDS)[number];
/** Why an agent has the floor (the `floor` frame's `by`). */
export const FLOOR_BY = ['order', 'mention', 'moderator', 'human'] as const;
/** Agent @mentions that may hand the floor on in a row before the format's order resumes. */
/** A council's first answers asked of the models at once, at most (server/engine/formats/lanes.ts). */
export const COUNCIL_PARALLEL_ANSWERS = 4;
export const MAX_MENTION_HANDOVERS = 3;
/** Most agent ids one side of a debate may list. */
export const MAX_DEBATE_SIDE = 50;

// ── Positions and options (docs/discussions.md 'Positions, consensus and replay') ────────
/** An agent's position, in its own words, is at most this long (a longer one is cut). */
export const OPTION_LABEL_MAX = 120;
/** A discussion keeps at most this many options; past it a new proposal takes the place of one nobody holds. */
export const OPTIONS_MAX = 24;
/** The option id a model names to propose a new position instead of one on the list. */
export const NEW_OPTION_ID = 'new';
/** How a change of option is classified: after an argument, or towards the majority without one. */
export const POSITION_CHANGES = ['argument', 'majority'] as const;
/** Replay speeds: turns per second at 1× is REPLAY_TURNS_PER_SECOND. */
export const REPLAY_SPEEDS = [1, 4, 16] as const;
export const REPLAY_TURNS_PER_SECOND = 1;
/** A History row lists at most this many discussions continued from it. */
export const CONTINUATION_LINKS_MAX = 20;
/** A continuation's prompts quote at most this many of the source's turns up to the chosen one (older: a count). */
export const CONTINUATION_PROMPT_TURNS = 40;
/** Each quoted earlier turn is cut to this many characters. */
export const CONTINUATION_TURN_CHARS = 2000;

// ── Voices (docs/voices.md) ────────
/** 'I have the speaker's consent to clone this voice' is required for mode 'clone'. */
export const VOICE_CONSENT_LABEL = 'I have the speaker’s consent to clone this voice';

// ── Sources (docs/sources.md) ────────
/** While any source is being embedded, the Sources list is read again this often, until none is. */
export const SOURCES_EMBEDDING_POLL_MS = 4_000;
