import { z } from 'zod';
import { ROOM_CLIENT_MESSAGES } from '../../src/schemas/rooms';
import type { EndpointKey } from '../../src/schemas/constants';
import type { ContinuedFrom } from '../../src/schemas/continuation';
import { audioAcknowledgment, hybridConfig } from '../../src/schemas/hybridSocket';
import { cancelFloorMessage, endDiscussionMessage, giveFloorMessage, judgeVoteMessage } from '../../src/schemas/format';
import { ENGINE_MESSAGES } from '../../src/schemas/messages';
import {
  basicConfig,
  enhancedConfig,
  humanMessage,
  multiRoundConfig,
  playedStatus,
  standardHybridConfig,
  stopMessage,
} from '../../src/schemas/standardSocket';
import type { Queryable } from '../db/db';
import { formatProblem } from './formats';
import type { AgentRef, EndpointConfig } from './plan';
import { agentsOf } from './sourceStore';
import { toolApprovalMessage } from '../../src/schemas/tools';
import { sourcesAddMessage } from '../../src/schemas/sources';

// The first message of a discussion socket: which configuration schema applies, and whose agents it names.

export type Configured =
  | {
      ok: true;
      input: EndpointConfig;
      topic: string;
      agentIds: string[];
      sessionId: string;
      resumeFrom?: number;
      /** 'Continue from here': the stored discussion and turn whose transcript the agents hear first. */
      continuedFrom?: ContinuedFrom;
    }
  | { ok: false; why: string };

/** No discussion holds more frames than a PostgreSQL integer counts; a resume point is clamped to this first. */
export const MAX_RESUME_FROM = 2 ** 31 - 1;

/**
 * The one rule for `resume_from`, applied before any query: absent (or null) → the session's own default; any
 * number → a whole number of frames in [0, MAX_RESUME_FROM] (negative → 0, fractional → rounded down, huge →
 * the maximum); anything else (a string, a boolean, an object) is refused. The session and the stored replay then
 * clamp it to the discussion's frame count (clampResume).
 */
export function resumePoint(v: unknown): { ok: true; value: number | undefined } | { ok: false } {
  if (v === undefined || v === null) return { ok: true, value: undefined };
  if (typeof v !== 'number' || Number.isNaN(v)) return { ok: false };
  return { ok: true, value: Math.min(MAX_RESUME_FROM, Math.max(0, Math.floor(v))) };
}

/** Where a replay of `frameCount` frames starts for a resume point (already through resumePoint). */
export const clampResume = (from: number, frameCount: number) => Math.min(frameCount, Math.max(0, from));

/**
 * Fields only the hybrid panel sends; the standard panel's /ws/hybrid message has none of them
 * (docs/product.md#discussions-calls).
 */
const HYBRID_PANEL_FIELDS = [
  'turns_per_round',
  'pause_between_turns',
  'auto_stop_on_consensus',
  'independent_first_answers',
  'enable_cross_agent_learning',
  'response_format',
  'citation_style',
  'tts_config',
];

const oneLine = (e: z.ZodError) =>
  z
    .prettifyError(e)
    .replace(/\s*\n\s*/g, '; ')
    .replace(/✖\s*/g, '')
    .trim();

/**
 * Validates the configuration with the endpoint's schema. /ws/hybrid takes the hybrid panel's richer message
 * (recognised by its panel-only fields) or the standard panel's. An optional `resume_from` (frames the client
 * already holds) tells a reconnect where to start its replay.
 */
export function parseConfiguration(endpoint: EndpointKey, raw: string): Configured {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return { ok: false, why: ENGINE_MESSAGES.badConfig('the first message is not JSON') };
  }
  if (!data || typeof data !== 'object' || Array.isArray(data))
    return { ok: false, why: ENGINE_MESSAGES.badConfig('the first message must be a JSON object') };
  const obj = data as Record<string, unknown>;
  if (typeof obj.type === 'string' && ['human_message', 'stop', 'status', 'audio_acknowledgment'].includes(obj.type)) {
    return {
      ok: false,
      why: ENGINE_MESSAGES.badConfig(`the first message must be the discussion configuration, not "${obj.type}"`),
    };
  }
  const resume = resumePoint(obj.resume_from);
  if (!resume.ok) return { ok: false, why: ENGINE_MESSAGES.badResumeFrom };
  const resumeFrom = resume.value;

  const fail = (e: z.ZodError): Configured => ({ ok: false, why: ENGINE_MESSAGES.badConfig(oneLine(e)) });
  const done = (input: EndpointConfig, topic: string): Configured => {
    const problem = formatProblem(input.config.format, input.config.agent_ids);
    return problem ? { ok: false, why: ENGINE_MESSAGES.badConfig(problem) } : configured(input, topic);
  };
  const configured = (input: EndpointConfig, topic: string): Configured => ({
    ok: true,
    input,
    topic,
    agentIds: [...new Set(input.config.agent_ids)],
    sessionId: input.config.session_id,
    resumeFrom,
    ...(input.config.continued_from ? { continuedFrom: input.config.continued_from } : {}),
  });
  switch (endpoint) {
    case 'basic': {
      const r = basicConfig.safeParse(obj);
      return r.success ? done({ endpoint, config: r.data }, r.data.context) : fail(r.error);
    }
    case 'enhanced': {
      const r = enhancedConfig.safeParse(obj);
      return r.success ? done({ endpoint, config: r.data }, r.data.context) : fail(r.error);
    }
    case 'multi_round': {
      const r = multiRoundConfig.safeParse(obj);
      return r.success ? done({ endpoint, config: r.data }, r.data.context) : fail(r.error);
    }
    case 'hybrid': {
      if (HYBRID_PANEL_FIELDS.some((k) => k in obj)) {
        const r = hybridConfig.safeParse(obj);
        return r.success ? done({ endpoint, config: r.data, panel: 'hybrid' }, r.data.topic) : fail(r.error);
      }
      const r = standardHybridConfig.safeParse(obj);
      return r.success ? done({ endpoint, config: r.data, panel: 'standard' }, r.data.topic) : fail(r.error);
    }
  }
}

/** The user's agents in the order the client listed them; null when any is missing or someone else's. */
export async function loadAgents(db: Queryable, userId: string, ids: string[]): Promise<AgentRef[] | null> {
  const rows = await agentsOf(db, userId, ids);
  if (rows.length !== ids.length) return null;
  return ids.map((id) => rows.find((r) => r.id === id)!);
}

/** Every frame either panel may send after its configuration (the standard panel's played status, the hybrid panel's acknowledgment). */
export const discussionClientFrame = z.discriminatedUnion('type', [
  humanMessage,
  stopMessage,
  playedStatus,
  audioAcknowledgment,
  giveFloorMessage,
  cancelFloorMessage,
  endDiscussionMessage,
  judgeVoteMessage,
  toolApprovalMessage,
  sourcesAddMessage,
  // The room's own (rooms/control.ts): typing from anyone who may talk, seats and removal from the owner.
  ...ROOM_CLIENT_MESSAGES,
]);
