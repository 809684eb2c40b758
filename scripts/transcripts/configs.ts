import { Recording, type Line } from './recording';

// The configurations the cases send (what the panels send), and the two ways a case runs: one socket to its close,
// or cut mid-discussion (1006) and resumed with the same configuration.

export interface Env {
  base: string;
  token: string;
  agents: string[];
}
export type Case = { name: string; run: (env: Env) => Promise<Recording> };

let counter = 0;
export const session = () => `session_${Date.now()}${String(++counter).padStart(2, '0')}`;
export const TOPIC = 'Should our family vineyard switch from furrow to drip irrigation before next season?';
export const hybridPanel = (env: Env, over: object = {}) => ({
  agent_ids: env.agents,
  topic: TOPIC,
  mode: 'hybrid',
  max_rounds: 3,
  max_response_length: 120,
  reasoning_depth: 3,
  evidence_required: true,
  allow_research: false,
  consensus_threshold: 0.7,
  session_id: session(),
  tts: false,
  turns_per_round: 1,
  pause_between_turns: 0,
  auto_stop_on_consensus: true,
  enable_cross_agent_learning: false,
  response_format: 'prose',
  citation_style: 'academic',
  tts_config: null,
  ...over,
});
export const standardComms = {
  responseLength: 'concise',
  minTokens: 50,
  maxTokens: 500,
  temperature: 0.7,
  reasoningMode: 'balanced',
  communicationStyle: 'formal',
  showReasoning: true,
  useACL: false,
  enableInterrupts: true,
  interruptThreshold: 0.7,
};
export const reasoning = {
  enableMultiRound: false,
  maxRounds: 5,
  stages: ['brainstorming', 'analysis', 'critique', 'synthesis', 'consensus'],
  requireEvidence: true,
  convergenceThreshold: 0.8,
  enableImplementation: false,
};
export const researchCfg = {
  enableResearch: false,
  sources: ['arxiv', 'pubmed', 'semantic_scholar'],
  maxResults: 10,
  domainFilter: 'vineyard',
  autoRetrieve: true,
};
export const basic = (env: Env, over: object = {}) => ({
  token: env.token,
  agent_ids: env.agents,
  session_id: session(),
  context: TOPIC,
  tts: false,
  turns: 6,
  mode: 'sequential',
  connections: [],
  communication_config: standardComms,
  reasoning_config: reasoning,
  research_config: researchCfg,
  legacy_config: { human_participation: true },
  ...over,
});

/** What the standard panel sends to /ws/enhanced (src/model/standardConfig.ts): no basic-only keys. */
export const enhancedPanel = (env: Env, over: object = {}) => ({
  token: env.token,
  agent_ids: env.agents,
  session_id: session(),
  context: TOPIC,
  communication_config: { ...standardComms, useACL: true },
  reasoning_config: reasoning,
  research_config: researchCfg,
  legacy_config: { tts: false, turns: 4, mode: 'enhanced', human_participation: true },
  ...over,
});

export async function simple(env: Env, endpoint: string, note: string, config: Line, setup?: (r: Recording) => void) {
  const r = new Recording(endpoint, note);
  setup?.(r);
  await r.open(env.base, env.token);
  r.send(config);
  await r.untilClosed();
  return r;
}

/** Runs until `cut` holds, destroys the client socket (1006), then reconnects with the same configuration and runs to the close. */
export async function dropAndResume(
  env: Env,
  endpoint: string,
  note: string,
  config: Line,
  cut: (r: Recording) => boolean,
) {
  const r = new Recording(endpoint, note);
  await r.open(env.base, env.token);
  r.send(config);
  await r.until(() => cut(r));
  await new Promise((res) => setTimeout(res, 30));
  r.ws.terminate();
  await r.untilClosed();
  await new Promise((res) => setTimeout(res, 150));
  await r.open(env.base, env.token);
  r.send(config);
  await r.untilClosed();
  return r;
}
