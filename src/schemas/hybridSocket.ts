import { z } from 'zod';
import { sourceIds } from './sources';
import { idText, text } from './common';
import { continuedFrom } from './continuation';
import * as f from './discussionFrames';
import * as fm from './format';
import { positionsFrame } from './positions';
import { ROOM_SERVER_FRAMES, roomJoinMessage } from './rooms';
import { TOOL_FRAMES } from './tools';
import { hybridSettings, ttsSettings } from './settings';
import { configFrameBase, humanMessage, runControlMessages, stopMessage } from './standardSocket';

// The hybrid panel's socket (/ws/hybrid with the richer first message, docs/product.md#discussions-calls).

/** The 18 server message types the hybrid panel reads (docs/product.md#discussions-states), `system` included. */
export const hybridServerFrame = z.discriminatedUnion('type', [
  f.discussionInitializedFrame,
  f.roundStartFrame,
  f.agentMessageFrame,
  f.audioMessageFrame,
  f.aclMessageFrame,
  f.agentStatusFrame,
  f.requestFrame,
  f.roundEndFrame,
  f.ttsStreamingStartFrame,
  f.ttsStreamingEndFrame,
  f.performanceMetricFrame,
  f.delegationFrame,
  f.consensusReachedFrame,
  f.discussionSummaryFrame,
  f.discussionEndedFrame,
  f.ttsErrorFrame,
  f.errorFrame,
  f.systemFrame,
  f.agentMessageStartFrame,
  f.agentMessageDeltaFrame,
  positionsFrame,
  ...fm.FORMAT_FRAMES,
  ...TOOL_FRAMES,
  ...ROOM_SERVER_FRAMES,
]);
export type HybridServerFrame = z.infer<typeof hybridServerFrame>;

const { tts_speed: _s, tts_volume: _v, format: _f, ...hybridShape } = hybridSettings.shape;
export const hybridConfig = z.object({
  ...hybridShape,
  token: text().optional(),
  agent_ids: z.array(idText()).min(2),
  topic: text().trim().min(1).max(20_000),
  session_id: idText(),
  format: fm.discussionFormat.optional(),
  continued_from: continuedFrom.optional(),
  source_ids: sourceIds.optional(),
  tts_config: ttsSettings.nullable().default(null),
});
export type HybridConfig = z.infer<typeof hybridConfig>;

export const audioAcknowledgment = z.object({
  type: z.literal('audio_acknowledgment'),
  audio_id: text().max(200),
  status: z.literal('played'),
  timestamp: text().max(100),
});
export const hybridClientFrame = z.discriminatedUnion('type', [
  stopMessage,
  audioAcknowledgment,
  humanMessage,
  ...runControlMessages,
]);
export type HybridClientFrame = z.infer<typeof hybridClientFrame>;

/** Everything the hybrid panel may send: its first message (checked by `hybridConfig` when built), then the rest. */
export const hybridConfigFrame = z.looseObject({ ...configFrameBase, topic: z.string().min(1) });
export const hybridOutgoingFrame = z.union([hybridClientFrame, roomJoinMessage, hybridConfigFrame]);
