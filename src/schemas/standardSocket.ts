import { z } from 'zod';
import { sourceIds, sourcesAddMessage } from './sources';
import { continuedFrom } from './continuation';
import { idText, text } from './common';
import { CONVERSATION_MODES, HYBRID_MODES } from './constants';
import * as f from './discussionFrames';
import * as fm from './format';
import { positionsFrame } from './positions';
import { ROOM_CLIENT_MESSAGES, ROOM_SERVER_FRAMES, roomJoinMessage } from './rooms';
import { TOOL_FRAMES, toolApprovalMessage } from './tools';
import { tokenBudget } from './usage';
import { communicationConfig, reasoningConfig, researchConfig, bounds } from './settings';

// The standard panel's sockets: /ws/discuss, /ws/enhanced, /ws/multi_round_reasoning, /ws/hybrid
// (docs/product.md#discussions-calls).

/**
 * The 17 server message types of docs/product.md#discussions-states, plus the error frame ('a server message with an
 * error field').
 */
export const standardServerFrame = z.discriminatedUnion('type', [
  f.reasoningStageFrame,
  f.argumentFrame,
  f.researchResultFrame,
  f.researchResultsFrame,
  f.aclMessageFrame,
  f.consensusReachedFrame,
  f.discussionInitializedFrame,
  f.roundStartFrame,
  f.agentMessageFrame,
  f.roundEndFrame,
  f.discussionSummaryFrame,
  f.textFrame,
  f.delegationFrame,
  f.agentStatusFrame,
  f.audioFrame,
  f.discussionEndedFrame,
  f.discussionStartedFrame,
  f.errorFrame,
  f.agentMessageStartFrame,
  f.agentMessageDeltaFrame,
  positionsFrame,
  ...fm.FORMAT_FRAMES,
  ...TOOL_FRAMES,
  ...ROOM_SERVER_FRAMES,
]);
export type StandardServerFrame = z.infer<typeof standardServerFrame>;

const common = {
  token: text().optional(),
  agent_ids: z.array(idText()).min(2),
  session_id: idText(),
  format: fm.discussionFormat.optional(),
  continued_from: continuedFrom.optional(),
  /** The person's sources every agent of this discussion reads (docs/sources.md). */
  source_ids: sourceIds.optional(),
  /** 'Stop at … tokens' (docs/protocol.md#costs). */
  token_budget: tokenBudget,
};
const legacyConfig = z.object({
  tts: z.boolean().optional(),
  turns: z.number().int().min(bounds.standardTurns.min).max(bounds.standardTurns.max).optional(),
  mode: z.enum(CONVERSATION_MODES).optional(),
  human_participation: z.boolean().default(true),
});
const context = text().trim().min(1).max(20_000);

export const basicConfig = z.object({
  ...common,
  context,
  tts: z.boolean().default(false),
  turns: z.number().int().min(bounds.standardTurns.min).max(bounds.standardTurns.max).default(6),
  mode: z.enum(CONVERSATION_MODES).default('sequential'),
  connections: z.array(z.object({ source: idText(), target: idText() })).default([]),
  communication_config: communicationConfig.prefault({}),
  reasoning_config: reasoningConfig.prefault({}),
  research_config: researchConfig.prefault({}),
  legacy_config: legacyConfig.prefault({}),
});
export type BasicConfig = z.infer<typeof basicConfig>;

export const multiRoundConfig = z.object({
  ...common,
  context,
  communication_config: communicationConfig.prefault({}),
  reasoning_config: reasoningConfig.prefault({}),
  research_config: researchConfig.prefault({}),
});
export type MultiRoundConfig = z.infer<typeof multiRoundConfig>;

export const enhancedConfig = multiRoundConfig.extend({ legacy_config: legacyConfig.prefault({}) });
export type EnhancedConfig = z.infer<typeof enhancedConfig>;

/** What the standard panel sends to /ws/hybrid (its fallbacks: depth 3, threshold 0.7, rounds 10). */
export const standardHybridConfig = z.object({
  ...common,
  topic: text().trim().min(1).max(20_000),
  mode: z.enum(HYBRID_MODES).default('hybrid'),
  tts: z.boolean().default(false),
  max_rounds: z.number().int().min(bounds.hybridMaxRounds.min).max(bounds.hybridMaxRounds.max).default(10),
  max_response_length: z
    .number()
    .int()
    .min(bounds.maxResponseLength.min)
    .max(bounds.maxResponseLength.max)
    .default(500),
  reasoning_depth: z.number().int().min(bounds.reasoningDepth.min).max(bounds.reasoningDepth.max).default(3),
  evidence_required: z.boolean().default(true),
  allow_research: z.boolean().default(true),
  consensus_threshold: z.number().min(bounds.consensusThreshold.min).max(bounds.consensusThreshold.max).default(0.7),
});
export type StandardHybridConfig = z.infer<typeof standardHybridConfig>;

export const humanMessage = z.object({
  type: z.literal('human_message'),
  text: text().trim().min(1).max(10_000),
  timestamp: text().max(100),
});
export const stopMessage = z.object({ type: z.literal('stop') });
export const playedStatus = z.object({
  type: z.literal('status'),
  status: z.literal('played'),
  audio_id: text().max(200).optional(),
  message_id: text().max(200).optional(),
  agent_id: text().max(200).optional(),
});

/** What either panel sends during a run besides its messages: the format's seats, tool approvals, sources. */
export const runControlMessages = [
  fm.giveFloorMessage,
  fm.cancelFloorMessage,
  fm.endDiscussionMessage,
  fm.judgeVoteMessage,
  toolApprovalMessage,
  sourcesAddMessage,
  ...ROOM_CLIENT_MESSAGES,
] as const;

/** What every panel's first message has, whatever its endpoint. */
export const configFrameBase = {
  session_id: z.string().min(1),
  token_budget: tokenBudget,
  agent_ids: z.array(z.string().min(1)).min(2),
};

/** Frames the standard panel sends after its configuration. */
export const standardClientFrame = z.discriminatedUnion('type', [
  humanMessage,
  stopMessage,
  playedStatus,
  ...runControlMessages,
]);
export type StandardClientFrame = z.infer<typeof standardClientFrame>;

/**
 * Everything the standard panel may send: the configuration first (built and checked with its endpoint's exact
 * schema by src/model/standardConfig.ts, so it passes here unchanged), then the client frames.
 */
export const standardConfigFrame = z.looseObject(configFrameBase);
export const standardOutgoingFrame = z.union([standardClientFrame, roomJoinMessage, standardConfigFrame]);
