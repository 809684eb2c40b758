// Records the discussion sockets of the real server (in-memory PGlite, the built-in offline model) into
// tests/transcripts/<endpoint>-<case>.jsonl, in the format of ARCHITECTURE.md:
//   {"endpoint": "/ws/hybrid", "note": "…"}
//   {"t": 120, "dir": "server" | "client", "data": {…}}        t = ms since the (first) socket opened
//   {"t": 900, "event": "close", "code": 1006}
// A transcript that reconnects after a close simply continues: the next client line is the new socket's
// configuration. Fault cases are recorded too; only `*-malformed-frame` is edited afterwards (the note says how).
// Replies stream (agent_message_start, agent_message_delta, then the final frame with the same id): most cases run
// the offline model fast (about 1000 tokens/s, a turn in ~0.1 s) so they stay short; the `*-streaming` cases run
// it at a human pace (OFFLINE_MODEL_TOKENS_PER_SECOND's default) to show deltas as a person would see them.
//
//   npm run transcripts:record            (all)
//   npm run transcripts:record -- hybrid  (only names containing "hybrid")

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { buildServer } from '../server/app';
import { DEFAULT_OFFLINE_TOKENS_PER_SECOND } from '../server/config';
import { tuneEngine } from '../server/engine/hooks';
import { createLlmRegistry, createOfflineProvider } from '../server/providers';
import { createEspeakProvider, findEspeak } from '../server/providers/speech/espeak';
import { createNoSpeech } from '../server/providers/speech/none';
import { createNoTranscription } from '../server/providers/transcription/none';
import type { LlmProvider, Providers, ResearchService, SpeechProvider } from '../server/providers/types';
import { silentWav } from '../tests/support/wav';

const OUT = path.resolve('tests/transcripts');
const only = process.argv[2];

// ── Providers: the real offline model; speech by espeak-ng when installed (else a silent WAV); research from a
//    fixture in the research service's real outcome shape, or unreachable.

/** Fails every turn of the named agent, to record the server's error frame. */
let failingAgent: string | null = null;
// A fast pace (about 100 ms a turn) so stops, drops and human messages land mid-discussion; a human one for the
// streaming cases.
const fast = createOfflineProvider({ tokensPerSecond: 1000, thinkMs: 0 });
const human = createOfflineProvider({ tokensPerSecond: DEFAULT_OFFLINE_TOKENS_PER_SECOND, thinkMs: 600 });
let humanPace = false;
const llm: LlmProvider = {
  ...fast,
  chat: async (req) => {
    if (failingAgent && req.context?.agent.name === failingAgent) throw new Error('the model server at http://127.0.0.1:11434 is not reachable (ECONNREFUSED)');
    return (humanPace ? human : fast).chat(req);
  },
};

function silentSpeech(): SpeechProvider {
  const b = silentWav(1600);
  return { id: 'silent-wav', available: () => true, synthesize: async () => ({ audio: b, mimeType: 'audio/wav', extension: 'wav' }), probe: async () => ({ status: 'ok' }) };
}
const espeak = findEspeak();
const speechEngine: SpeechProvider = espeak ? createEspeakProvider({ executable: espeak }) : silentSpeech();
let speechOn = false;
const speech: SpeechProvider = {
  id: 'switchable',
  available: () => speechOn && speechEngine.available(),
  synthesize: (req) => (speechOn ? speechEngine.synthesize(req) : createNoSpeech().synthesize(req)),
  probe: () => speechEngine.probe(),
};

let researchReachable = true;
const research: ResearchService = {
  enabled: true,
  async search(req) {
    if (!researchReachable) {
      return {
        query: req.query, results: [], available: false, detail: 'Could not reach arXiv, PubMed and Semantic Scholar: no network.',
        errors: ['arxiv', 'pubmed', 'semantic_scholar'].map((source) => ({ source, message: `${source} is not reachable (ENOTFOUND)` })),
      };
    }
    return {
      query: req.query,
      available: true,
      errors: [],
      results: [
        { source: 'arxiv', query: req.query, results: [
          { title: 'Regulated deficit irrigation in Vitis vinifera: a meta-analysis', authors: ['M. Costa', 'J. Silva'], year: 2021, abstract: 'Across 48 field trials, regulated deficit irrigation saved 20-35% of water with small yield losses and higher anthocyanin content.', url: 'https://arxiv.org/abs/2101.04512', source: 'arxiv' },
          { title: 'Capacitive soil moisture probes for precision viticulture', authors: ['A. Rossi', 'L. Bianchi'], year: 2022, abstract: 'Low-cost probes calibrated per soil type guided drip scheduling within 5% of a neutron probe.', url: 'https://arxiv.org/abs/2203.11807', source: 'arxiv' },
        ] },
        { source: 'pubmed', query: req.query, results: [
          { title: 'Water use efficiency of drip-irrigated vineyards over three seasons', authors: ['K. Lee'], year: 2020, abstract: 'Drip irrigation improved water use efficiency by 28% relative to furrow irrigation.', url: 'https://pubmed.ncbi.nlm.nih.gov/32000003/', source: 'pubmed' },
        ] },
      ],
    };
  },
};

const providers: Providers = { llm: createLlmRegistry([llm]), speech, transcription: createNoTranscription(), research };

// ── A recording client ────────────────────────────────────────────────────────────────────────────────────

type Line = Record<string, unknown>;

class Recording {
  readonly lines: Line[] = [];
  private t0 = 0;
  ws!: WebSocket;
  private waiters = new Set<() => void>();
  closed: number | null = null;
  /** When set, every audio frame is acknowledged after this many ms, as the panels do when playback ends. */
  ackAfterMs: number | null = null;

  constructor(readonly endpoint: string, readonly note: string) {}

  private t = () => Math.round(performance.now() - this.t0);
  get server() {
    return this.lines.filter((l) => l.dir === 'server').map((l) => l.data as Line);
  }

  async open(base: string, token: string) {
    const ws = new WebSocket(`${base}${this.endpoint}?token=${encodeURIComponent(token)}`);
    this.ws = ws;
    this.closed = null;
    ws.on('message', (d) => {
      const data = JSON.parse(String(d)) as Line;
      this.lines.push({ t: this.t(), dir: 'server', data });
      if (this.ackAfterMs !== null && (data.type === 'audio' || data.type === 'audio_message')) {
        const ack = data.type === 'audio'
          ? { type: 'status', status: 'played', audio_id: data.audio_id, agent_id: data.agent_id }
          : { type: 'audio_acknowledgment', audio_id: data.audio_id, status: 'played', timestamp: new Date().toISOString() };
        setTimeout(() => ws.readyState === ws.OPEN && this.send(ack), this.ackAfterMs);
      }
      this.wake();
    });
    ws.on('close', (code) => {
      this.closed = code;
      this.lines.push({ t: this.t(), event: 'close', code });
      this.wake();
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => {
        if (!this.t0) this.t0 = performance.now();
        resolve();
      });
      ws.once('error', reject);
    });
  }

  send(data: Line) {
    this.lines.push({ t: this.t(), dir: 'client', data });
    this.ws.send(JSON.stringify(data));
  }

  /** Sends raw text (a malformed frame), recorded as the string it was. */
  sendRaw(text: string) {
    this.lines.push({ t: this.t(), dir: 'client', data: text });
    this.ws.send(text);
  }

  private wake() {
    for (const w of this.waiters) w();
  }

  until(pred: () => boolean, ms = 60_000) {
    return new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!pred()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`${this.endpoint}: timed out; saw ${this.server.map((f) => f.type).join(',')}`));
      }, ms);
      this.waiters.add(check);
      check();
    });
  }

  count = (type: string) => this.server.filter((f) => f.type === type).length;
  untilClosed = () => this.until(() => this.closed !== null);

  toJsonl() {
    return [{ endpoint: this.endpoint, note: this.note }, ...this.lines].map((l) => JSON.stringify(l)).join('\n') + '\n';
  }
}

// ── The cases ─────────────────────────────────────────────────────────────────────────────────────────────

interface Env {
  base: string;
  token: string;
  agents: string[];
}
type Case = { name: string; run: (env: Env) => Promise<Recording> };

let counter = 0;
const session = () => `session_${Date.now()}${String(++counter).padStart(2, '0')}`;
const TOPIC = 'Should our family vineyard switch from furrow to drip irrigation before next season?';
const hybridPanel = (env: Env, over: object = {}) => ({
  agent_ids: env.agents, topic: TOPIC, mode: 'hybrid', max_rounds: 3, max_response_length: 120, reasoning_depth: 3, evidence_required: true,
  allow_research: false, consensus_threshold: 0.7, session_id: session(), tts: false, turns_per_round: 1, pause_between_turns: 0,
  auto_stop_on_consensus: true, enable_cross_agent_learning: false, response_format: 'prose', citation_style: 'academic', tts_config: null, ...over,
});
const standardComms = { responseLength: 'concise', minTokens: 50, maxTokens: 500, temperature: 0.7, reasoningMode: 'balanced', communicationStyle: 'formal', showReasoning: true, useACL: false, enableInterrupts: true, interruptThreshold: 0.7 };
const reasoning = { enableMultiRound: false, maxRounds: 5, stages: ['brainstorming', 'analysis', 'critique', 'synthesis', 'consensus'], requireEvidence: true, convergenceThreshold: 0.8, enableImplementation: false };
const researchCfg = { enableResearch: false, sources: ['arxiv', 'pubmed', 'semantic_scholar'], maxResults: 10, domainFilter: 'vineyard', autoRetrieve: true };
const basic = (env: Env, over: object = {}) => ({
  token: env.token, agent_ids: env.agents, session_id: session(), context: TOPIC, tts: false, turns: 6, mode: 'sequential', connections: [],
  communication_config: standardComms, reasoning_config: reasoning, research_config: researchCfg, legacy_config: { human_participation: true }, ...over,
});

/** What the standard panel sends to /ws/enhanced (src/model/standardConfig.ts): no basic-only keys. */
const enhancedPanel = (env: Env, over: object = {}) => ({
  token: env.token, agent_ids: env.agents, session_id: session(), context: TOPIC, communication_config: { ...standardComms, useACL: true },
  reasoning_config: reasoning, research_config: researchCfg, legacy_config: { tts: false, turns: 4, mode: 'enhanced', human_participation: true }, ...over,
});

async function simple(env: Env, endpoint: string, note: string, config: Line, setup?: (r: Recording) => void) {
  const r = new Recording(endpoint, note);
  setup?.(r);
  await r.open(env.base, env.token);
  r.send(config);
  await r.untilClosed();
  return r;
}

const CASES: Case[] = [
  { name: 'basic-sequential', run: (e) => simple(e, '/ws/discuss', 'Basic endpoint, sequential mode, 6 turns, three agents; the standard panel configuration.', basic(e)) },
  { name: 'basic-smart-delegation', run: (e) => simple(e, '/ws/discuss', 'Basic endpoint, smart_delegation mode: delegation frames and text frames carrying delegation.', basic(e, { mode: 'smart_delegation', turns: 8 })) },
  {
    name: 'basic-human-message',
    run: async (e) => {
      const r = new Recording('/ws/discuss', 'Basic endpoint with human participation: a human message after the first agent turn; the next agents answer it.');
      await r.open(e.base, e.token);
      failingAgent = null;
      const cfg = basic(e, { turns: 4 });
      r.send(cfg);
      await r.until(() => r.count('text') >= 1);
      r.send({ type: 'human_message', text: 'What about frost risk in April, Cy? Drip lines can freeze.', timestamp: new Date().toISOString() });
      await r.untilClosed();
      return r;
    },
  },
  {
    name: 'basic-stopped',
    run: async (e) => {
      const r = new Recording('/ws/discuss', 'Basic endpoint stopped early by the user: the client sends stop after the second turn; the server ends with discussion_ended {reason: stopped} and closes 1000.');
      await r.open(e.base, e.token);
      r.send(basic(e, { turns: 20 }));
      await r.until(() => r.count('text') >= 2);
      r.send({ type: 'stop' });
      await r.untilClosed();
      return r;
    },
  },
  {
    name: 'basic-tts',
    run: (e) =>
      simple(e, '/ws/discuss', `Basic endpoint with speech on (${espeak ? 'espeak-ng' : 'a silent WAV engine'}): an audio frame follows each text; the client acknowledges each clip with a status 'played'.`, basic(e, { tts: true, turns: 3 }), (r) => {
        speechOn = true;
        r.ackAfterMs = 40;
      }).finally(() => (speechOn = false)),
  },
  {
    name: 'basic-drop-resume',
    run: async (e) => {
      const r = new Recording('/ws/discuss', 'Basic endpoint, dropped with 1006 after the second turn (the client socket was destroyed); the client reconnects with the same configuration and session_id and receives every frame it missed, then the rest live. The line after the close is the new socket\'s configuration.');
      await r.open(e.base, e.token);
      const cfg = basic(e, { turns: 6 });
      r.send(cfg);
      await r.until(() => r.count('text') >= 2);
      await new Promise((res) => setTimeout(res, 30));
      r.ws.terminate();
      await r.untilClosed();
      await new Promise((res) => setTimeout(res, 150));
      await r.open(e.base, e.token);
      r.send(cfg);
      await r.untilClosed();
      return r;
    },
  },
  {
    name: 'basic-bad-config',
    run: (e) => simple(e, '/ws/discuss', 'A configuration with one agent and an empty context: one error frame, then close 1003.', { token: e.token, agent_ids: [e.agents[0]], session_id: session(), context: '   ' }),
  },
  { name: 'enhanced-default', run: (e) => simple(e, '/ws/enhanced', 'Enhanced endpoint: ACL messages, agent messages with confidence and reasoning chain, interrupts at 0.7, then consensus_reached and discussion_summary.', { ...basic(e), legacy_config: { tts: false, turns: 6, mode: 'enhanced', human_participation: true }, communication_config: { ...standardComms, useACL: true } }) },
  {
    name: 'enhanced-model-error',
    run: (e) => {
      failingAgent = 'Bo';
      return simple(e, '/ws/enhanced', 'Enhanced endpoint where one agent\'s model is unreachable: a non-fatal error frame per failed turn, the agent back to idle, and the discussion going on.', { ...basic(e), legacy_config: { turns: 5, mode: 'sequential', human_participation: true } }).finally(() => (failingAgent = null));
    },
  },
  { name: 'multi_round_reasoning-default', run: (e) => simple(e, '/ws/multi_round_reasoning', 'Multi-round reasoning: rounds of brainstorming → analysis → critique → synthesis → consensus, an argument tree, early stop at convergence 0.8, consensus_reached.', { token: e.token, agent_ids: e.agents, session_id: session(), context: TOPIC, communication_config: standardComms, reasoning_config: { ...reasoning, enableMultiRound: true, maxRounds: 3 }, research_config: researchCfg }) },
  {
    name: 'multi_round_reasoning-research',
    run: (e) => {
      researchReachable = true;
      return simple(e, '/ws/multi_round_reasoning', 'Multi-round reasoning with research on: research_result frames per source (a recorded fixture in the research service\'s real shape) before the first round; the papers become the agents\' evidence.', { token: e.token, agent_ids: e.agents, session_id: session(), context: TOPIC, communication_config: standardComms, reasoning_config: { ...reasoning, enableMultiRound: true, maxRounds: 2, stages: ['brainstorming', 'critique', 'consensus'] }, research_config: { ...researchCfg, enableResearch: true } });
    },
  },
  { name: 'hybrid-standard-config', run: (e) => simple(e, '/ws/hybrid', 'Hybrid endpoint opened by the standard panel (its smaller configuration): standard frame vocabulary only (no audio_message, system or performance_metric).', { token: e.token, agent_ids: e.agents, session_id: session(), topic: TOPIC, mode: 'hybrid', tts: false, max_rounds: 3, max_response_length: 120, reasoning_depth: 3, evidence_required: true, allow_research: false, consensus_threshold: 0.7 }) },
  ...(['natural', 'structured', 'hybrid', 'adaptive'] as const).map((mode): Case => ({
    name: `hybrid-${mode}`,
    run: (e) => simple(e, '/ws/hybrid', `Hybrid panel, ${mode} mode, up to 4 rounds, auto-stop on consensus at ${mode === 'adaptive' ? 0.85 : 0.7}${mode === 'natural' ? ', 100 ms pause between turns' : ''}.`, hybridPanel(e, { mode, max_rounds: 4, pause_between_turns: mode === 'natural' ? 100 : 0, auto_stop_on_consensus: true, consensus_threshold: mode === 'adaptive' ? 0.85 : 0.7 })),
  })),
  {
    name: 'hybrid-tts',
    run: (e) =>
      simple(e, '/ws/hybrid', `Hybrid panel with speech on (${espeak ? 'espeak-ng' : 'a silent WAV engine'}): tts_streaming_start, audio_message, tts_streaming_end per message; the client acknowledges each clip and the next agent waits for it.`, hybridPanel(e, { tts: true, max_rounds: 1, tts_config: { enabled: true, speed: 1, volume: 1, streaming: true, interrupt_enabled: true, parallel_generation: true, max_length: 300, format: 'wav' } }), (r) => {
        speechOn = true;
        r.ackAfterMs = 40;
      }).finally(() => (speechOn = false)),
  },
  { name: 'hybrid-tts-no-engine', run: (e) => simple(e, '/ws/hybrid', 'Hybrid panel with speech asked for and no speech engine: one tts_error "No speech engine configured", then a silent discussion.', hybridPanel(e, { tts: true, max_rounds: 1, tts_config: { enabled: true, speed: 1, volume: 1, streaming: true, interrupt_enabled: true, parallel_generation: true, max_length: 300, format: 'wav' } })) },
  {
    name: 'hybrid-research',
    run: (e) => {
      researchReachable = true;
      return simple(e, '/ws/hybrid', 'Hybrid panel with research allowed: the papers found (recorded fixture) arrive as system lines and are cited by the agents.', hybridPanel(e, { allow_research: true, max_rounds: 2 }));
    },
  },
  {
    name: 'hybrid-research-unavailable',
    run: (e) => {
      researchReachable = false;
      return simple(e, '/ws/hybrid', 'Hybrid panel with research allowed but no research service reachable (as offline): a system line says research is unavailable, the discussion goes on.', hybridPanel(e, { allow_research: true, max_rounds: 1 })).finally(() => (researchReachable = true));
    },
  },
  {
    name: 'basic-streaming',
    run: (e) => {
      humanPace = true;
      return simple(e, '/ws/discuss', `Basic endpoint with the offline model at a human pace (${DEFAULT_OFFLINE_TOKENS_PER_SECOND} tokens/s, a short seeded thinking pause): each turn is agent_message_start, agent_message_delta frames at most one per 50 ms, then the text frame with the same id whose text equals the deltas joined.`, basic(e, { turns: 2 })).finally(() => (humanPace = false));
    },
  },
  {
    name: 'hybrid-stream-stopped',
    run: async (e) => {
      humanPace = true;
      const r = new Recording('/ws/hybrid', 'Hybrid panel, offline model at a human pace, stopped by the user while the first message is being streamed: the model call is aborted, the message ends with agent_message {interrupted: true} (its content is the deltas so far), the speaker goes idle, discussion_ended {reason: stopped}, close 1000.');
      try {
        await r.open(e.base, e.token);
        r.send(hybridPanel(e, { max_rounds: 3, auto_stop_on_consensus: false }));
        await r.until(() => r.count('agent_message_delta') >= 4);
        r.send({ type: 'stop' });
        await r.untilClosed();
      } finally {
        humanPace = false;
      }
      return r;
    },
  },
  {
    name: 'hybrid-stopped',
    run: async (e) => {
      const r = new Recording('/ws/hybrid', 'Hybrid panel stopped by the user after the second message: the client sends stop; the server ends the discussion and closes 1000.');
      await r.open(e.base, e.token);
      r.send(hybridPanel(e, { max_rounds: 10, auto_stop_on_consensus: false, pause_between_turns: 200 }));
      await r.until(() => r.count('agent_message') >= 2);
      r.send({ type: 'stop' });
      await r.untilClosed();
      return r;
    },
  },
  // ── The close codes the panels handle (part 2 §8), as the real server produces them (npm run transcripts:record -- close)
  {
    name: 'standard-close-1008',
    run: async (e) => {
      const r = new Recording('/ws/discuss', 'Basic endpoint opened with a bad token (?token=not-a-jwt): the server accepts the upgrade, holds the configuration, and closes 1008 "Authentication failed" without a frame. The standard panel shows the authentication message and does not reconnect.');
      await r.open(e.base, 'not-a-jwt');
      r.send(basic(e, { token: 'not-a-jwt' }));
      await r.untilClosed();
      return r;
    },
  },
  {
    name: 'standard-close-1003-enhanced',
    run: (e) => simple(e, '/ws/enhanced', 'Enhanced endpoint, the panel\'s configuration naming two agents the user does not have: one fatal error frame "One or more agents were not found", then close 1003.', enhancedPanel(e, { agent_ids: ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'] })),
  },
  {
    name: 'standard-close-1006-enhanced',
    run: async (e) => {
      const r = new Recording('/ws/enhanced', 'Enhanced endpoint with the panel\'s configuration, cut mid-discussion (the client socket destroyed: 1006) after the second agent message; the client reconnects with the same configuration and session_id and the server resumes: what was missed, then the rest live. The line after the close is the new socket\'s configuration.');
      await r.open(e.base, e.token);
      const cfg = enhancedPanel(e);
      r.send(cfg);
      await r.until(() => r.count('agent_message') >= 2);
      await new Promise((res) => setTimeout(res, 30));
      r.ws.terminate();
      await r.untilClosed();
      await new Promise((res) => setTimeout(res, 150));
      await r.open(e.base, e.token);
      r.send(cfg);
      await r.untilClosed();
      return r;
    },
  },
  {
    name: 'hybrid-close-1006-resume',
    run: async (e) => {
      const r = new Recording('/ws/hybrid', 'Hybrid panel cut mid-discussion (the client socket destroyed: 1006) after the second agent message; the client reconnects with the same first message and session_id and the server resumes. The line after the close is the new socket\'s first message.');
      await r.open(e.base, e.token);
      const cfg = hybridPanel(e, { max_rounds: 2, auto_stop_on_consensus: false });
      r.send(cfg);
      await r.until(() => r.count('agent_message') >= 2);
      await new Promise((res) => setTimeout(res, 30));
      r.ws.terminate();
      await r.untilClosed();
      await new Promise((res) => setTimeout(res, 150));
      await r.open(e.base, e.token);
      r.send(cfg);
      await r.untilClosed();
      return r;
    },
  },
  {
    name: 'standard-close-1001',
    run: async () => {
      // A server of its own, shut down mid-discussion: running discussions end with {reason: 'shutdown'}, then 1001.
      const own = await startServer();
      try {
        const r = new Recording('/ws/discuss', 'Basic endpoint, the server shut down mid-discussion (after the second turn): discussion_ended {reason: shutdown}, then close 1001 "Server shutting down". 1001 is a quiet close for the panel.');
        await r.open(own.env.base, own.env.token);
        r.send(basic(own.env, { turns: 20 }));
        await r.until(() => r.count('text') >= 2);
        const closing = own.close();
        await r.untilClosed();
        await closing;
        return r;
      } catch (err) {
        await own.close().catch(() => {});
        throw err;
      }
    },
  },
];

/** The malformed-frame fault case: a recorded hybrid transcript with one agent_message broken on purpose. */
function malformedFrom(source: Recording): string {
  const lines = source.lines.map((l) => structuredClone(l));
  const i = lines.findIndex((l) => l.dir === 'server' && (l.data as Line).type === 'agent_message');
  const broken = lines[i].data as Line;
  delete broken.agent_id;
  broken.confidence = 'very high';
  const note = `Edited from hybrid-natural: the first agent_message (line ${i + 2}) lost its agent_id and has confidence "very high" (a string), so it is a malformed known type; every other frame is as recorded.`;
  return [{ endpoint: source.endpoint, note }, ...lines].map((l) => JSON.stringify(l)).join('\n') + '\n';
}

type Edit = (source: Recording) => string;
const jsonl = (endpoint: string, note: string, lines: Line[]) => [{ endpoint, note }, ...lines].map((l) => JSON.stringify(l)).join('\n') + '\n';

/** 1011: the server's answer when setting a discussion up fails (server/routes/discussionSockets.ts refuse(…, 1011)). */
const internalErrorFrom: Edit = (source) => {
  const lines = source.lines.map((l) => structuredClone(l));
  for (const l of lines) {
    if (l.dir === 'server' && (l.data as Line).type === 'error') (l.data as Line).message = 'The discussion could not be started because of a server error.';
    if (l.event === 'close') l.code = 1011;
  }
  return jsonl(source.endpoint, 'Edited from standard-close-1003-enhanced (a fault case: a store failure cannot be caused from outside): the fatal error frame says "The discussion could not be started because of a server error." and the close is 1011, as the server answers when setting up a discussion throws.', lines);
};

/** 1002: a protocol error close. The server never sends it on purpose (the ws library does on a malformed frame). */
const protocolErrorFrom: Edit = (source) => {
  const cut = source.lines.findIndex((l) => l.event === 'close');
  const lines = source.lines.slice(0, cut + 1).map((l) => structuredClone(l));
  lines[cut].code = 1002;
  return jsonl(source.endpoint, `Edited from standard-close-1006-enhanced (a fault case: the real server does not produce 1002 from a well-behaved client): the drop at line ${cut + 2} is a close 1002 instead of 1006 and nothing follows; the panel shows the authentication message (part 2 §8) and does not reconnect.`, lines);
};

const FAULTS_FROM: Record<string, { name: string; edit: Edit }[]> = {
  'standard-close-1003-enhanced': [{ name: 'standard-close-1011', edit: internalErrorFrom }],
  'standard-close-1006-enhanced': [{ name: 'standard-close-1002', edit: protocolErrorFrom }],
};

/** A fresh server (in-memory PGlite) with one registered user and three agents. */
async function startServer() {
  const dir = await mkdtemp(path.join(tmpdir(), 'agora-transcripts-'));
  const server = await buildServer(
    { port: 0, host: '127.0.0.1', databaseUrl: 'memory://', dataDir: dir, mediaDir: path.join(dir, 'media'), jwtSecret: 'transcripts-secret-0123456789', logLevel: 'silent', staticDir: undefined, ollamaHost: undefined, openaiBaseUrl: undefined, ttsBaseUrl: undefined, offlineTokensPerSecond: 0 },
    { providers },
  );
  tuneEngine(server.ctx, { ackTimeoutMs: 3_000 });
  const close = async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const url = (await server.listen()).replace('0.0.0.0', '127.0.0.1').replace('localhost', '127.0.0.1');
    const api = async (method: string, p: string, body?: unknown, token?: string) => {
      const res = await fetch(url + p, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<Record<string, any>>;
    };
    const { access_token: token } = await api('POST', '/auth/register', { email: 'recorder@example.com', password: 'recorder-pass' });
    const agents: string[] = [];
    for (const a of [
      { name: 'Ada', role: 'Agronomist', prompt: 'You study soil health and water use in vineyards. You want field evidence.', model: 'offline', personality: 'analytical' },
      { name: 'Bo', role: 'Economist', prompt: 'You weigh costs, prices and risk for small wine estates.', model: 'offline', personality: 'assertive' },
      { name: 'Cy', role: 'Grower', prompt: 'You run a family vineyard and care about practical, affordable steps.', model: 'offline', personality: 'patient' },
    ]) agents.push(String((await api('POST', '/agents/', a, token)).id));
    const env: Env = { base: url.replace(/^http/, 'ws'), token, agents };
    return { env, close };
  } catch (err) {
    await close();
    throw err;
  }
}

async function main() {
  const { env, close } = await startServer();
  try {
    await mkdir(OUT, { recursive: true });
    for (const c of CASES.filter((x) => !only || x.name.includes(only))) {
      const r = await c.run(env);
      await writeFile(path.join(OUT, `${c.name}.jsonl`), r.toJsonl());
      console.log(`${c.name}.jsonl  ${r.lines.length} lines`);
      if (c.name === 'hybrid-natural') {
        await writeFile(path.join(OUT, 'hybrid-malformed-frame.jsonl'), malformedFrom(r));
        console.log('hybrid-malformed-frame.jsonl  (edited from hybrid-natural)');
      }
      for (const fault of FAULTS_FROM[c.name] ?? []) {
        await writeFile(path.join(OUT, `${fault.name}.jsonl`), fault.edit(r));
        console.log(`${fault.name}.jsonl  (edited from ${c.name})`);
      }
    }
  } finally {
    await close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
