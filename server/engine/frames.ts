import type { z } from 'zod';
import type * as f from '../../src/schemas/discussionFrames';
import type * as fm from '../../src/schemas/format';
import type { positionsFrame } from '../../src/schemas/positions';
import type { TOOL_FRAMES } from '../../src/schemas/tools';
import type { roomMessageFrame } from '../../src/schemas/rooms';
import { knownTypes } from '../../src/schemas/frames';
import { hybridServerFrame } from '../../src/schemas/hybridSocket';
import { standardServerFrame } from '../../src/schemas/standardSocket';
import type { Audience } from './plan';

// The frames the engine writes, typed by the shared schemas' input shapes so a misspelt field fails to compile,
// and the one place where a frame is fitted to the panel that reads it.

type In<S extends z.ZodType> = z.input<S>;
export type EngineFrame =
  | In<typeof f.discussionStartedFrame>
  | In<typeof f.discussionInitializedFrame>
  | In<typeof f.reasoningStageFrame>
  | In<typeof f.argumentFrame>
  | In<typeof f.researchResultFrame>
  | In<typeof f.researchResultsFrame>
  | In<typeof f.aclMessageFrame>
  | In<typeof f.consensusReachedFrame>
  | In<typeof f.roundStartFrame>
  | In<typeof f.roundEndFrame>
  | In<typeof f.agentMessageFrame>
  | In<typeof f.discussionSummaryFrame>
  | In<typeof f.textFrame>
  | In<typeof f.delegationFrame>
  | In<typeof f.agentStatusFrame>
  | In<typeof f.audioFrame>
  | In<typeof f.audioMessageFrame>
  | In<typeof f.discussionEndedFrame>
  | In<typeof f.requestFrame>
  | In<typeof f.ttsStreamingStartFrame>
  | In<typeof f.ttsStreamingEndFrame>
  | In<typeof f.performanceMetricFrame>
  | In<typeof f.ttsErrorFrame>
  | In<typeof f.errorFrame>
  | In<typeof f.systemFrame>
  | In<typeof f.agentMessageStartFrame>
  | In<typeof f.agentMessageDeltaFrame>
  | In<typeof positionsFrame>
  | In<(typeof fm.FORMAT_FRAMES)[number]>
  | In<(typeof TOOL_FRAMES)[number]>
  | In<typeof roomMessageFrame>;

/**
 * What the machine emits: a frame, and for a turn's message the moment its model call resolved, for a delta the
 * moment its first model token arrived (both performance.now(), for the latency figures).
 */
export interface FrameOut {
  type: 'frame';
  frame: EngineFrame;
  answeredAt?: number;
  tokenAt?: number;
}

/** The id of the frame that closes a stream (the final frame with the draft's id), or null for any other frame. */
export function finalIdOf(frame: EngineFrame): string | null {
  if (frame.type === 'agent_message' || frame.type === 'text' || frame.type === 'discussion_summary')
    return frame.id ?? null;
  if (frame.type === 'argument') return frame.argument.id;
  return null;
}

/** Frames of a turn being streamed: sent live, never stored, numbered or replayed. */
export const isEphemeral = (frame: { type: string }) =>
  frame.type === 'agent_message_start' || frame.type === 'agent_message_delta';

const readable: Record<Audience, ReadonlySet<string>> = {
  standard: knownTypes(standardServerFrame),
  hybrid: knownTypes(hybridServerFrame),
};

export const schemaFor = (audience: Audience) => (audience === 'standard' ? standardServerFrame : hybridServerFrame);

/**
 * The same event in the words the panel understands. The standard panel has no audio_message, tts_error or
 * system frame: audio becomes `audio`, a speech failure an `error` (not fatal); hybrid-only telemetry (request,
 * performance_metric, tts streaming) is not sent to it. The hybrid panel has no research frames: research
 * becomes a `system` line. Anything else a panel cannot read is dropped rather than sent malformed.
 */
export function forAudience(frame: EngineFrame, audience: Audience): EngineFrame | null {
  if (readable[audience].has(frame.type)) return frame;
  if (audience === 'standard') {
    if (frame.type === 'audio_message') {
      return {
        type: 'audio',
        agent_id: frame.agent_id,
        audio_url: frame.audio_url,
        audio_id: frame.audio_id,
        message_id: frame.message_id,
      };
    }
    if (frame.type === 'tts_error') return { type: 'error', message: frame.error, fatal: false };
    // The standard panel has no system line: a note about an agent's tools is a notice that does not end anything.
    if (frame.type === 'system' && frame.about === 'tools_unsupported')
      return {
        type: 'error',
        message: frame.content,
        fatal: false,
        about: frame.about,
        agent_id: frame.agent_id,
        message_id: frame.message_id,
      };
    return null;
  }
  if (frame.type === 'research_result') {
    const papers = frame.result.articles ?? frame.result.results ?? [];
    return {
      type: 'system',
      content: `Research (${frame.result.source}): ${papers.map((p) => p.title).join('; ') || 'no papers found'}`,
    };
  }
  if (frame.type === 'research_results') {
    if (frame.unavailable && frame.results.length === 0)
      return { type: 'system', content: frame.unavailable, about: 'research_unavailable' };
    return { type: 'system', content: frame.unavailable ?? `Research: ${frame.results.length} result sets` };
  }
  return null;
}
