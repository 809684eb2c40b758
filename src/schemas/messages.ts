// The user-facing words of the specification's error catalogues (docs/product.md#workspace-validation,
// #workspace-errors; #discussions-validation, #discussions-errors),
// written once. Templates are small functions so a placeholder cannot be forgotten.

export const AUTH_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 6 characters long',
  noAccessToken: 'No access token received from server',
  invalidCredentials: 'Invalid email or password. Please check your credentials.',
  alreadyRegistered: 'This email is already registered. Try logging in instead.',
  invalidInput: 'Invalid input format. Please check your email and password.',
  serverError: 'Server error. Please try again later.',
  loginFailed: 'Login failed',
  registrationFailed: 'Registration failed',
  sessionExpired: 'Your session has expired. Please log in again.',
  authFailed: (reason: string) => `Authentication failed: ${reason}`,
  tokenInvalidOrExpired: 'Token invalid or expired',
  authFailedGeneric: 'Authentication failed',
  invalidTokenFormat: 'Invalid token format',
  receivedExpiredToken: 'Received expired token.',
  authenticationExpired: 'Authentication expired',
  sessionExpiringSoon: (minutes: number) => `Your session expires in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  loginSuccess: 'Signed in successfully',
  registerSuccess: 'Account created successfully',
} as const;

export const SERVER_DETAIL = {
  emailAlreadyRegistered: 'Email already registered',
  invalidCredentials: 'Incorrect email or password',
  notAuthenticated: 'Not authenticated',
  invalidToken: 'Could not validate credentials',
  notFound: 'Not found',
  discussionRunning: 'This discussion is still running. Stop it before deleting it.',
  tooManyRequests: 'Too many attempts. Please wait a minute and try again.',
} as const;

export const HISTORY_MESSAGES = {
  deleteConfirm: 'Delete this discussion? Its messages cannot be recovered.',
  empty: 'No past discussions yet. Discussions you run are kept here.',
  /** Names the discussion the confirmation is about (its topic, shortened). */
  deleteConfirmNamed: (topic: string) =>
    `Delete the discussion “${topic.length > 80 ? `${topic.slice(0, 79)}…` : topic}”? Its messages cannot be recovered.`,
  offerRunning: 'A discussion is still running',
  offerEnded: 'That discussion has ended meanwhile; History keeps it.',
  offerFailed: (why: string) => `Could not re-attach: ${why}`,
} as const;

/** Saved panels and API tokens in the app (docs/integrations.md). */
export const PANEL_MESSAGES = {
  saved: (name: string, agents: number) => `Saved the panel “${name}” (${agents} agents). Find it under Panels.`,
  started: (name: string) => `“${name}” is selected: write a topic in the Discussion panel and Start.`,
  startedWithout: (name: string, missing: number, left: number) =>
    `“${name}”: ${missing} of its agents no longer exist; ${left} selected.`,
  selectTwo: 'Select two agents or more on the canvas to save them as a panel.',
  runGoesOn: (name: string) => `A discussion is running: stop it before starting “${name}”.`,
  tooMany: (max: number, n: number) => `A panel seats at most ${max} agents; ${n} are selected.`,
} as const;

export const SHELL_MESSAGES = {
  loadConnectionsFailed: 'Failed to load agent connections',
  connectionIssue: 'Connection issue',
  connectionTestFailed: 'Connection test failed',
  connectionTestError: 'Connection test error',
  connectionTestOk: 'Connection test passed',
  discussionLoadFailed: 'The discussion panel could not be loaded. Please refresh the page.',
} as const;

export const AGENT_MESSAGES = {
  notFound: 'Agent not found',
  getNotImplemented: 'GET endpoint not implemented on backend',
  authFailed: 'Authentication failed',
  fetchFailed: (status: number, text: string) => `Failed to fetch agent: ${status} - ${text}`,
  loadFailed: (message: string) => `Failed to load agent: ${message}`,
  updateFailed: 'Failed to update agent',
  createFailed: 'Failed to create agent',
  deleteFailed: 'Failed to delete agent',
  deleteFailedDetail: (detail: string) => `Failed to delete agent: ${detail}`,
  fallbackName: (id: string) => `Agent ${id.slice(-8)}`,
  fallbackRole: 'Unknown',
  defaultRole: 'Assistant',
  deleteConfirm: (name: string, audioCount: number) =>
    `Delete agent "${name}"? ${audioCount} audio file${audioCount === 1 ? '' : 's'} will also be deleted.`,
} as const;

export const AUDIO_MESSAGES = {
  nameAndFileRequired: 'Please provide both audio name and file',
  saveBeforeUpload: 'Please save the agent first before uploading audio',
  saveBeforeRecord: 'Please save the agent first before recording',
  uploadFailed: 'Failed to upload audio',
  uploadError: 'Error uploading audio',
  deleteFailed: 'Failed to delete audio',
  deleteError: 'Error deleting audio',
  setDefaultFailed: 'Failed to set default audio',
  setDefaultError: 'Error setting default audio',
  transcriptionFailed: (reason: string) => `Transcription failed: ${reason}`,
  transcribeError: (message: string) => `Error transcribing audio: ${message}`,
  batchFailed: 'Failed to start batch transcription',
  batchError: 'Error starting batch transcription',
  saveRecordingFailed: 'Failed to save recording',
  saveRecordingError: 'Error saving recording',
  microphoneDenied: 'Could not access microphone. Please check permissions.',
  batchStarted: (n: number) => `Transcribing ${n} audio files in background. This may take a few moments.`,
  nothingToTranscribe: 'No audio files need transcription',
  lengthHint: 'Use 3 to 10 seconds of clear speech for the best voice clone.',
  deleteConfirm: (name: string) => `Delete audio "${name}"?`,
  noTranscriptionEngine: 'No transcription engine configured',
  unsupportedType: 'Unsupported audio type. Accepted: wav, mp3, webm, m4a, ogg, flac.',
  tooLarge: (mb: number) => `Audio file is too large (limit ${mb} MB).`,
} as const;

export const CANVAS_MESSAGES = {
  /** Beside the connection count: what a connection does (it has no direction; hearing goes both ways). */
  connectionsHear: 'Connected agents hear each other when “Hear only connected agents” is on.',
  loadFailed: 'Failed to load data. Please refresh the page.',
  connectionError: (detail: string) => `Error creating connection: ${detail}`,
  connectionErrorGeneric: 'Error creating connection.',
  invalidConnection: 'Invalid connection: node(s) not found.',
  autoConnectFailed: (detail: string) => `Auto-connect failed: ${detail}`,
  autoConnectFailedGeneric: 'Auto-connect failed',
  autoConnected: (n: number) => `Auto-connected: ${n} ${n === 1 ? 'connection' : 'connections'} created`,
  /** What a connection does, said where one is made (the node's handle) and on an empty board. */
  connectionMeaning: 'A connection decides who hears whom: an agent hears the agents connected to it.',
  connectHandle: 'Drag to another agent to connect: it will hear this agent',
  /** An idle agent's status while its model server does not answer. */
  modelNotAnswering: 'Model down',
  /** Under an agent's chip when its model was offered tools it cannot call (docs/tools.md#the-call-loop). */
  toolsUnsupported: 'This model does not support tools — it runs without them',
  selectHint: 'Select 2+ agents to enable discussions',
} as const;

export const HTTP_MESSAGES = {
  status: (status: number, text: string) => `HTTP ${status}: ${text}`,
  network: 'Network error: the server could not be reached.',
} as const;

export const DISCUSSION_MESSAGES = {
  selectTwoAgents: 'Please select at least two agents from the canvas.',
  provideContext: 'Please provide a context for the discussion.',
  tokenMissing: 'Authentication token missing. Please login again.',
  mustLogIn: 'You must be logged in to start a discussion',
  nothingToExport: 'No discussion to export.',
  exportFailed: (why: string) => `Export failed: ${why}`,
  connectionTimeout: (endpoint: string) => `Connection timeout to ${endpoint}. Please check if the server is running.`,
  cannotConnect: (endpoint: string, available: string) =>
    `Cannot connect to ${endpoint}. Endpoint may not be available. Available endpoints: ${available}`,
  connectionError: 'Connection error. Please check your network and try again.',
  authFailed: 'Authentication failed. Please refresh and login again.',
  connectionLostRetrying: (n: number, max: number) => `Connection lost (attempt ${n}/${max}). Reconnecting...`,
  connectionLost: (endpoint: string) => `Connection lost to ${endpoint}. Please check server availability.`,
  /** A limit the server reached (close 1013) without a sentence of its own. */
  tryAgainLater: 'The server is at a limit. Please try again later.',
  closedUnexpectedly: (code: number, reason: string) =>
    `Connection closed unexpectedly (code: ${code}).${reason ? ` ${reason}` : ''}`,
  setupFailed: 'Failed to connect. Please ensure the backend is running and accessible.',
  hybridSelectAgents: 'Please select at least 2 agents',
  hybridProvideTopic: 'Please provide a discussion topic',
  hybridTimeout: 'Connection timeout. Please try again.',
  hybridConnectionError: 'Connection error occurred. Please check your network and try again.',
  hybridEstablishFailed: 'Failed to establish connection',
  hybridConfigFailed: 'Failed to send configuration',
  hybridPdfFailed: 'Failed to export PDF. Please try again.',
  protocolError: (type: string) => `The server sent a malformed "${type}" message; it was ignored.`,
  /** A format's wait as read in a room by everyone but the person it waits for (model/room.ts). */
  waitingForJudge: (name: string | undefined) =>
    name ? `Waiting for ${name} to vote as judge.` : "Waiting for the judge's vote.",
  waitingForFloor: (name: string | undefined) => `Waiting for ${name ?? 'the moderator'} to give the floor.`,
} as const;

export const ENGINE_MESSAGES = {
  noSpeechEngine: 'No speech engine configured',
  /** Said once per agent and discussion when its own voice fails and espeak-ng speaks for it. */
  voiceFellBack: (voice: string, why: string) => `The voice ${voice} failed (${why}); speaking with espeak-ng instead.`,
  researchUnavailable: 'Research is unavailable: none of the research services could be reached.',
  badConfig: (why: string) => `Invalid discussion configuration: ${why}`,
  unknownAgents: 'One or more agents were not found',
  unknownSources: 'One or more sources were not found; nothing was started. Add them again, or start without them.',
  unknownLiveSources: 'One or more sources were not found; none was added to this discussion. Add them again.',
  llmFailed: (agent: string, why: string) => `${agent} could not answer: ${why}`,
  speechQuotaReached: (mb: number) =>
    `Speech stopped: your stored speech reached its quota of ${mb} MB (TTS_QUOTA_MB). The discussion goes on in text.`,
  discussionEnded: 'This discussion has ended; the message was not added.',
  discussionEndedStop: 'This discussion has ended; there is nothing to stop.',
  humanMessageLimit: (rate: string) =>
    `Too many messages: at most ${rate} per user. This one was not added; wait a moment and send it again.`,
  clientFrameLimit: (rate: string) => `Too many messages on this connection: at most ${rate}. This one was ignored.`,
  humanMessageCap: (max: number) =>
    `This discussion already holds ${max} human messages, the most one discussion keeps (MAX_HUMAN_MESSAGES_PER_DISCUSSION). This one was not added.`,
  badResumeFrom:
    'Invalid discussion configuration: resume_from must be a number of frames (a whole number, 0 or more).',
  /** continued_from names no discussion of this user (someone else's reads the same: nothing is revealed). */
  continuationNotFound: (id: string) =>
    `Cannot continue: no discussion of yours has the id ${id.slice(0, 80)}. Nothing was started.`,
  continuationNoTurn: (turn: number, turns: number) =>
    `Cannot continue from turn ${turn}: that discussion has ${turns === 1 ? 'one turn' : `${turns} turns`}. ` +
    'Nothing was started.',
} as const;
