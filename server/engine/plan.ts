import type { AgentRef } from './agentRef';
import type { PriorTranscript } from './continuation';
import {
  type CONVERSATION_MODES,
  type EndpointKey,
  type HYBRID_MODES,
  HYBRID_TTS_MAX_LENGTH,
  REASONING_STAGES,
} from '../../src/schemas/constants';
import type { HybridConfig } from '../../src/schemas/hybridSocket';
import type { CommunicationConfig, ResearchConfig } from '../../src/schemas/settings';
import type {
  BasicConfig,
  EnhancedConfig,
  MultiRoundConfig,
  StandardHybridConfig,
} from '../../src/schemas/standardSocket';
import type { FormatPlan } from './formats/formatPlan';
import { hybridModelSettings, modelSettings, type ModelSettings, wordsForTokens } from './presets';

// A discussion's configuration, whichever endpoint and panel it came from, reduced to the one shape the
// engine machine runs. Each endpoint's behaviour (spec part 2) is decided here, once.

export type ConversationMode = (typeof CONVERSATION_MODES)[number];
export type HybridMode = (typeof HYBRID_MODES)[number];
export type ReasoningStage = (typeof REASONING_STAGES)[number];
/** Which panel reads the frames: it decides the frame vocabulary (standardServerFrame or hybridServerFrame). */
export type Audience = 'standard' | 'hybrid';

export type { AgentRef } from './agentRef';

/** A person has ten minutes to Run or Refuse a tool call; then the turn fails and the discussion goes on. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 600_000;

export interface EngineTiming {
  /** A model call longer than this is a failed turn (the time a tool call waits for the person not counted). */
  turnTimeoutMs: number;
  /** How long a tool call waits for the person's Run or Refuse before its turn fails (DEFAULT_APPROVAL_TIMEOUT_MS). */
  approvalTimeoutMs?: number;
  /** How long a speaker waits for the client's 'played' before the next one speaks anyway. */
  ackTimeoutMs: number;
  /** This many failed turns in a row end the discussion. */
  maxConsecutiveFailures: number;
  /** A council's first answers asked of the models at once, at most (COUNCIL_PARALLEL_ANSWERS when absent). */
  parallelAnswers?: number;
}

/** The token budgets a run is held to: its own (`token_budget`) and what is left of its user's day (USER_DAILY_TOKENS). */
export interface Budget {
  discussion: number | null;
  daily: number | null;
  /** The daily budget less what the user's discussions spent in the 24 hours before this one started. */
  dailyLeft: number | null;
}

export interface Plan {
  sessionId: string;
  /**
   * The discussion's uuid: frame ids carry it, so a new discussion under a reused session_id never repeats a
   * deleted one's ids (absent from plans made before it was added, and from unit tests' plans).
   */
  discussionId?: string;
  /** What the discussion may spend (engine/budget.ts); absent: no budget. */
  budget?: Budget;
  endpoint: EndpointKey;
  audience: Audience;
  topic: string;
  agents: AgentRef[];
  conversationMode: ConversationMode | null;
  hybridMode: HybridMode | null;
  rounds: number;
  /** Every round runs these stages in order; a plan without stages has one `null` stage. */
  stages: Array<ReasoningStage | null>;
  turnsPerStage: number;
  announceRounds: boolean;
  model: ModelSettings;
  maxWords: number;
  style: string;
  reasoningMode: string;
  reasoningDepth: number;
  responseFormat: string;
  citationStyle: string;
  acl: boolean;
  argumentTree: boolean;
  interrupts: { threshold: number } | null;
  delegation: boolean;
  reactive: boolean;
  naturalPick: boolean;
  consensus: { threshold: number; stopEarly: boolean; announce: boolean };
  requireEvidence: boolean;
  research: { sources: string[]; maxResults: number; domain: string } | null;
  /** agent id → ids of the speakers it hears; null when everyone hears everyone. */
  hearing: Record<string, string[]> | null;
  /** Each agent's first turn hears only the question (positions/hearing.ts). */
  independentFirst: boolean;
  crossLearning: boolean;
  humanParticipation: boolean;
  speech: { enabled: boolean; speed: number; maxChars: number; format: string };
  pauseMs: number;
  timing: EngineTiming;
  /** Who speaks when and who hears what (formats/); null: the endpoint's own order, as without a format. */
  format: FormatPlan | null;
  /** 'Continue from here': the stored discussion's transcript up to a turn, heard before this one's own turns. */
  prior?: PriorTranscript;
  /** The person's sources every agent reads (an agent's own are on its AgentRef). */
  sourceIds?: string[];
}

export type EndpointConfig =
  | { endpoint: 'basic'; config: BasicConfig }
  | { endpoint: 'enhanced'; config: EnhancedConfig }
  | { endpoint: 'multi_round'; config: MultiRoundConfig }
  | { endpoint: 'hybrid'; config: StandardHybridConfig; panel: 'standard' }
  | { endpoint: 'hybrid'; config: HybridConfig; panel: 'hybrid' };

const reactiveModes: ConversationMode[] = ['reactive', 'hybrid', 'enhanced'];
const delegatingModes: ConversationMode[] = ['smart_delegation', 'hybrid', 'enhanced'];

function standardCommon(c: CommunicationConfig) {
  const model = modelSettings(c);
  return {
    model,
    maxWords: wordsForTokens(model.maxTokens),
    style: c.communicationStyle,
    reasoningMode: c.reasoningMode,
    reasoningDepth: 3,
    responseFormat: 'prose',
    citationStyle: 'inline',
    crossLearning: false,
  };
}

const researchPlan = (r: ResearchConfig) =>
  r.enableResearch ? { sources: [...r.sources], maxResults: r.maxResults, domain: r.domainFilter } : null;

/** Canvas connections restrict who hears whom: a connection either way lets two agents hear each other. */
export function hearingFrom(
  agentIds: string[],
  connections: Array<{ source: string; target: string }>,
): Plan['hearing'] {
  const inTable = new Set(agentIds);
  const edges = connections.filter((c) => inTable.has(c.source) && inTable.has(c.target) && c.source !== c.target);
  if (!edges.length) return null;
  const hears: Record<string, string[]> = Object.fromEntries(agentIds.map((id) => [id, []]));
  for (const { source, target } of edges) {
    if (!hears[target].includes(source)) hears[target].push(source);
    if (!hears[source].includes(target)) hears[source].push(target);
  }
  return hears;
}

/** The stages a multi-round discussion runs, in the canonical order; implementation only when enabled. */
export function stagesFor(listed: readonly ReasoningStage[], enableImplementation: boolean): ReasoningStage[] {
  const wanted = new Set(listed);
  if (enableImplementation) wanted.add('implementation');
  return REASONING_STAGES.filter((s) => wanted.has(s));
}

/** What every plan has unless its endpoint says otherwise (fresh each time: plans never share an array). */
const defaults = () =>
  ({
    conversationMode: null,
    hybridMode: null,
    rounds: 1,
    stages: [null],
    announceRounds: false,
    acl: false,
    argumentTree: false,
    interrupts: null,
    delegation: false,
    reactive: false,
    naturalPick: false,
    requireEvidence: false,
    hearing: null,
    independentFirst: true,
    crossLearning: false,
    humanParticipation: true,
    speech: { enabled: false, speed: 1, maxChars: 1000, format: 'wav' },
    pauseMs: 0,
  }) satisfies Partial<Plan>;

/** How a conversation mode of the standard endpoints takes turns. */
const modeTraits = (mode: ConversationMode) => ({
  conversationMode: mode,
  delegation: delegatingModes.includes(mode),
  reactive: reactiveModes.includes(mode),
  naturalPick: mode === 'natural',
});

/** What the three standard endpoints share: the topic, the communication and research settings. */
const standardPlan = (c: BasicConfig | EnhancedConfig | MultiRoundConfig) => ({
  ...defaults(),
  ...standardCommon(c.communication_config),
  audience: 'standard' as const,
  topic: c.context,
  research: researchPlan(c.research_config),
});

const interruptsFrom = (c: CommunicationConfig, on: boolean) =>
  on && c.enableInterrupts ? { threshold: c.interruptThreshold } : null;

/** The endpoint's plan without its format (buildPlan.ts adds it, from the format's definition). */
export function endpointPlan(
  input: EndpointConfig,
  agents: AgentRef[],
  timing: EngineTiming,
  discussionId?: string,
): Omit<Plan, 'format'> {
  const base = {
    sessionId: input.config.session_id,
    ...(discussionId ? { discussionId } : {}),
    agents,
    timing,
    ...(input.config.source_ids?.length ? { sourceIds: [...new Set(input.config.source_ids)] } : {}),
  };
  switch (input.endpoint) {
    case 'basic': {
      const c = input.config;
      const mode = c.legacy_config.mode ?? c.mode;
      return {
        ...base,
        ...standardPlan(c),
        ...modeTraits(mode),
        endpoint: 'basic',
        turnsPerStage: c.legacy_config.turns ?? c.turns,
        interrupts: interruptsFrom(c.communication_config, mode === 'enhanced'),
        consensus: { threshold: c.reasoning_config.convergenceThreshold, stopEarly: false, announce: false },
        // The evidence rule is the person's setting on every endpoint (docs/discussions.md#the-outcome-row).
        requireEvidence: c.reasoning_config.requireEvidence,
        hearing: hearingFrom(
          agents.map((a) => a.id),
          c.connections,
        ),
        humanParticipation: c.legacy_config.human_participation,
        speech: { speed: 1, maxChars: 1000, format: 'wav', enabled: c.tts || Boolean(c.legacy_config.tts) },
      };
    }
    case 'enhanced': {
      const c = input.config;
      return {
        ...base,
        ...standardPlan(c),
        ...modeTraits(c.legacy_config.mode ?? 'enhanced'),
        endpoint: 'enhanced',
        turnsPerStage: c.legacy_config.turns ?? 6,
        acl: true,
        interrupts: interruptsFrom(c.communication_config, true),
        consensus: { threshold: c.reasoning_config.convergenceThreshold, stopEarly: false, announce: true },
        requireEvidence: c.reasoning_config.requireEvidence,
        humanParticipation: c.legacy_config.human_participation,
        speech: { speed: 1, maxChars: 1000, format: 'wav', enabled: Boolean(c.legacy_config.tts) },
      };
    }
    case 'multi_round': {
      const c = input.config;
      return {
        ...base,
        ...standardPlan(c),
        endpoint: 'multi_round',
        rounds: c.reasoning_config.maxRounds,
        stages: stagesFor(c.reasoning_config.stages, c.reasoning_config.enableImplementation),
        turnsPerStage: agents.length,
        announceRounds: true,
        acl: c.communication_config.useACL,
        argumentTree: true,
        consensus: { threshold: c.reasoning_config.convergenceThreshold, stopEarly: true, announce: true },
        requireEvidence: c.reasoning_config.requireEvidence,
      };
    }
    case 'hybrid': {
      const c = input.config;
      const rich = input.panel === 'hybrid' ? input.config : null;
      return {
        ...base,
        ...defaults(),
        endpoint: 'hybrid',
        audience: input.panel,
        topic: c.topic,
        hybridMode: c.mode,
        rounds: c.max_rounds,
        turnsPerStage: (rich?.turns_per_round ?? 1) * agents.length,
        announceRounds: true,
        model: hybridModelSettings(c.max_response_length),
        maxWords: c.max_response_length,
        style: c.mode === 'structured' ? 'formal' : 'analytical',
        reasoningMode: 'balanced',
        reasoningDepth: c.reasoning_depth,
        responseFormat: rich?.response_format ?? 'prose',
        citationStyle: rich?.citation_style ?? 'academic',
        acl: c.mode !== 'natural',
        delegation: true,
        consensus: {
          threshold: c.consensus_threshold,
          stopEarly: rich ? rich.auto_stop_on_consensus : true,
          announce: true,
        },
        requireEvidence: c.evidence_required,
        research: c.allow_research
          ? { sources: ['arxiv', 'pubmed', 'semantic_scholar'], maxResults: 5, domain: 'general' }
          : null,
        crossLearning: rich?.enable_cross_agent_learning ?? false,
        independentFirst: rich?.independent_first_answers ?? true,
        speech: {
          enabled: rich ? Boolean(rich.tts || rich.tts_config?.enabled) : c.tts,
          speed: rich?.tts_config?.speed ?? 1,
          maxChars: rich?.tts_config?.max_length ?? HYBRID_TTS_MAX_LENGTH,
          format: rich?.tts_config?.format ?? 'wav',
        },
        pauseMs: rich?.pause_between_turns ?? 0,
      };
    }
  }
}

/** Total speaking turns the plan allows (an upper bound: early stops end sooner). */
export const maxTurns = (p: Plan) => p.rounds * p.stages.length * p.turnsPerStage;
