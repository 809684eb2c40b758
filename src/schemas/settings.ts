import { z } from 'zod';
import { text } from './common';
import { tokenBudget } from './usage';
import {
  ARGUMENT_TYPES,
  CITATION_STYLES,
  COMMUNICATION_STYLES,
  CONVERSATION_MODES,
  DEFAULT_TTS,
  DEFAULT_TURNS,
  HYBRID_MODES,
  HYBRID_TTS_MAX_LENGTH,
  REASONING_MODES,
  REASONING_STAGES,
  RESEARCH_DOMAINS,
  RESEARCH_SOURCES,
  RESPONSE_FORMATS,
  RESPONSE_LENGTHS,
  DEFAULT_FORMAT_KIND,
  FORMAT_KINDS,
} from './constants';

// Settings bounds (docs/product.md#discussions-validation) and defaults (#discussions-entities, #discussions-limits),
// written once. Sliders read `bounds` for their min/max/step; the server validates the same schemas.

export const bounds = {
  hybridMaxRounds: { min: 1, max: 50, step: 1 },
  reasoningMaxRounds: { min: 1, max: 20, step: 1 },
  maxResponseLength: { min: 50, max: 2000, step: 50 },
  reasoningDepth: { min: 1, max: 5, step: 1 },
  consensusThreshold: { min: 0.5, max: 1, step: 0.05 },
  turnsPerRound: { min: 1, max: 5, step: 1 },
  pauseBetweenTurns: { min: 0, max: 5000, step: 100 },
  temperature: { min: 0, max: 2, step: 0.1 },
  convergence: { min: 0.5, max: 1, step: 0.05 },
  researchMaxResults: { min: 1, max: 50, step: 1 },
  standardTurns: { min: 2, max: 50, step: 1 },
  ttsSpeed: { min: 0.5, max: 2, step: 0.25 },
  ttsVolume: { min: 0, max: 1, step: 0.1 },
  interruptThreshold: { min: 0, max: 1, step: 0.05 },
} as const;
type Bound = { min: number; max: number };
const ranged = (b: Bound) => z.number().min(b.min).max(b.max);
const rangedInt = (b: Bound) => z.number().int().min(b.min).max(b.max);

export const communicationConfig = z.object({
  responseLength: z.enum(RESPONSE_LENGTHS).default('normal'),
  /** Custom min/max tokens are free numbers (docs/product.md#discussions-validation). */
  minTokens: z.number().nonnegative().default(50),
  maxTokens: z.number().positive().default(500),
  temperature: ranged(bounds.temperature).default(0.7),
  reasoningMode: z.enum(REASONING_MODES).default('balanced'),
  communicationStyle: z.enum(COMMUNICATION_STYLES).default('formal'),
  showReasoning: z.boolean().default(false),
  useACL: z.boolean().default(false),
  enableInterrupts: z.boolean().default(true),
  interruptThreshold: ranged(bounds.interruptThreshold).default(0.7),
});
export type CommunicationConfig = z.infer<typeof communicationConfig>;

export const reasoningConfig = z.object({
  enableMultiRound: z.boolean().default(false),
  maxRounds: rangedInt(bounds.reasoningMaxRounds).default(5),
  stages: z
    .array(z.enum(REASONING_STAGES))
    .min(1)
    .default(['brainstorming', 'analysis', 'critique', 'synthesis', 'consensus']),
  requireEvidence: z.boolean().default(true),
  convergenceThreshold: ranged(bounds.convergence).default(0.8),
  enableImplementation: z.boolean().default(false),
});
export type ReasoningConfig = z.infer<typeof reasoningConfig>;

export const researchConfig = z.object({
  enableResearch: z.boolean().default(false),
  sources: z.array(z.enum(RESEARCH_SOURCES)).default(['arxiv', 'pubmed', 'semantic_scholar']),
  maxResults: rangedInt(bounds.researchMaxResults).default(10),
  domainFilter: z.enum(RESEARCH_DOMAINS).default('agriculture'),
  autoRetrieve: z.boolean().default(true),
});
export type ResearchConfig = z.infer<typeof researchConfig>;

export const standardSettings = z.object({
  tts: z.boolean().default(false),
  turns: rangedInt(bounds.standardTurns).default(DEFAULT_TURNS),
  mode: z.enum(CONVERSATION_MODES).default('sequential'),
  humanParticipation: z.boolean().default(true),
  hybridMode: z.boolean().default(false),
});
export type StandardSettings = z.infer<typeof standardSettings>;

export const ttsSettings = z.object({
  enabled: z.boolean().default(DEFAULT_TTS.enabled),
  speed: ranged(bounds.ttsSpeed).default(DEFAULT_TTS.speed),
  volume: ranged(bounds.ttsVolume).default(DEFAULT_TTS.volume),
  streaming: z.boolean().default(DEFAULT_TTS.streaming),
  interrupt_enabled: z.boolean().default(DEFAULT_TTS.interrupt_enabled),
  parallel_generation: z.boolean().default(DEFAULT_TTS.parallel_generation),
  max_length: z.number().int().positive().default(DEFAULT_TTS.max_length),
  pitch: z.number().positive().optional(),
  format: text().max(20).default(DEFAULT_TTS.format),
});

/** The panel's 'Format' setting: the kind and who moderates, chairs or judges ('human' or an agent id; '' = default). */
export const panelFormat = z.object({
  kind: z.enum(FORMAT_KINDS).catch(DEFAULT_FORMAT_KIND).default(DEFAULT_FORMAT_KIND),
  moderator: z.string().max(200).catch('human').default('human'),
  chair: z.string().max(200).catch('').default(''),
  judge: z.string().max(200).catch('human').default('human'),
});
export type PanelFormat = z.infer<typeof panelFormat>;

/** The hybrid panel's settings, with docs/product.md#discussions-limits defaults. */
export const hybridSettings = z.object({
  mode: z.enum(HYBRID_MODES).default('hybrid'),
  max_rounds: rangedInt(bounds.hybridMaxRounds).default(10),
  max_response_length: z
    .number()
    .int()
    .min(bounds.maxResponseLength.min)
    .max(bounds.maxResponseLength.max)
    .default(500),
  reasoning_depth: rangedInt(bounds.reasoningDepth).default(3),
  evidence_required: z.boolean().default(true),
  allow_research: z.boolean().default(true),
  consensus_threshold: ranged(bounds.consensusThreshold).default(0.7),
  turns_per_round: rangedInt(bounds.turnsPerRound).default(1),
  pause_between_turns: z
    .number()
    .int()
    .min(bounds.pauseBetweenTurns.min)
    .max(bounds.pauseBetweenTurns.max)
    .default(1000),
  auto_stop_on_consensus: z.boolean().default(true),
  /** Each agent states its position before hearing anyone (the first vote); on by default. */
  independent_first_answers: z.boolean().default(true),
  enable_cross_agent_learning: z.boolean().default(false),
  response_format: z.enum(RESPONSE_FORMATS).default('prose'),
  citation_style: z.enum(CITATION_STYLES).default('academic'),
  tts: z.boolean().default(false),
  tts_speed: ranged(bounds.ttsSpeed).default(1),
  tts_volume: ranged(bounds.ttsVolume).default(1),
  /** The 'Format' setting, as in the standard panel (sent as the first frame's `format`). */
  format: panelFormat.prefault({}),
  /** 'Stop at … tokens' (sent as `token_budget` when set; null: no budget). */
  token_budget: tokenBudget.catch(null).default(null),
});
export type HybridSettings = z.infer<typeof hybridSettings>;
export const hybridTtsMaxLength = HYBRID_TTS_MAX_LENGTH;

export const argumentType = z.enum(ARGUMENT_TYPES);

/** Everything the standard panel's Advanced Settings hold; persisted per user in local storage. */
export const standardPanelSettings = z.object({
  format: panelFormat.prefault({}),
  communication: communicationConfig.prefault({}),
  reasoning: reasoningConfig.prefault({}),
  research: researchConfig.prefault({}),
  basic: standardSettings.prefault({}),
  /** 'Stop at … tokens' (sent as `token_budget` when set; null: no budget). */
  token_budget: tokenBudget.catch(null).default(null),
});
export type StandardPanelSettings = z.infer<typeof standardPanelSettings>;

export const defaults = {
  communication: communicationConfig.parse({}),
  reasoning: reasoningConfig.parse({}),
  research: researchConfig.parse({}),
  standard: standardSettings.parse({}),
  hybrid: hybridSettings.parse({}),
  tts: ttsSettings.parse({}),
  standardPanel: standardPanelSettings.parse({}),
};
