// The hybrid panel's first socket message (docs/product.md#discussions-calls), its start checks
// (#discussions-validation 'Hybrid start') and its four
// topic templates (docs/product.md#discussions-limits). Pure. The spec fixes one or two values per template; the rest
// of each is ours, chosen so each template reads as its name:
//   Scientific Analysis    — depth 5 (spec); structured mode, evidence and research on, academic citations, 0.8 threshold
//   Problem Solving        — 15 rounds, 2 turns per round (spec); hybrid mode, auto-stop on consensus
//   Creative Brainstorming — bullets, length 300 (spec); natural mode, evidence off, cross-agent learning on
//   Strategic Planning     — depth 4 (spec); adaptive mode, structured format, research on
// Each also offers a starter topic when the topic box is empty.
import type { RoomJoin } from './room';
import { HYBRID_TEMPLATES } from '../schemas/constants';
import { formatOf } from './discussionFormat';
import { hybridConfig } from '../schemas/hybridSocket';
import { DISCUSSION_MESSAGES } from '../schemas/messages';
import { defaults, hybridSettings, type HybridSettings } from '../schemas/settings';

export type HybridTemplateName = keyof typeof HYBRID_TEMPLATES;
export const HYBRID_TEMPLATE_NAMES = Object.keys(HYBRID_TEMPLATES) as HybridTemplateName[];

/** A hybrid run as the panel holds it: what its first frame is built from. */
export interface HybridRun {
  sessionId: string;
  agentIds: string[];
  topic: string;
  token: string | null;
  /** The settings the run started with (locked while connected; the export reads the mode). */
  settings: HybridSettings;
  startedAt: number;
  /** Re-attached from History: the frames it already has (resume_from); undefined for a run started here. */
  resumeFrom?: number;
  /** 'Continue from here': the stored discussion and turn its agents hear first (sent as `continued_from`). */
  continuedFrom?: { discussionId: string; turn: number };
  /** Joined by an invite: the socket attaches to someone else's running discussion (src/model/room.ts). */
  room?: RoomJoin;
}

/**
 * The first message exactly as docs/product.md#discussions-calls (the token travels in the query only); tts_config is
 * null when speech is
 * off. A re-attached run (History) also says how many frames it has, so the server sends only the rest.
 */
export function buildHybridConfig(run: HybridRun) {
  const { tts, tts_speed, tts_volume, format: panelFormat, ...rest } = run.settings;
  // Round table sends no format: the spec's first message, exactly (an @mention still works, docs/protocol.md#formats).
  const format = formatOf(panelFormat, run.agentIds);
  const { independent_first_answers, token_budget, ...spec } = hybridConfig.parse({
    ...rest,
    ...(format ? { format } : {}),
    agent_ids: run.agentIds,
    topic: run.topic,
    session_id: run.sessionId,
    tts,
    tts_config: tts
      ? { ...defaults.tts, enabled: true, speed: tts_speed, volume: tts_volume, max_length: 300, format: 'wav' }
      : null,
  });
  // Not a key of the spec's first frame: sent only to turn it off (the server's default is on).
  const config = {
    ...(independent_first_answers ? spec : { ...spec, independent_first_answers }),
    // Not a key of the spec's first frame either: sent only when the person set a budget.
    ...(token_budget ? { token_budget } : {}),
    ...(run.continuedFrom
      ? { continued_from: { discussion_id: run.continuedFrom.discussionId, turn: run.continuedFrom.turn } }
      : {}),
  };
  return run.resumeFrom === undefined ? config : { ...config, resume_from: run.resumeFrom };
}

/** The settings a stored hybrid run started with: buildHybridConfig read backwards (defaults for what is missing). */
export function hybridSettingsOf(config: Record<string, unknown>): HybridSettings {
  const tts = (config.tts_config ?? {}) as { speed?: unknown; volume?: unknown };
  const known = Object.fromEntries(
    Object.keys(hybridSettings.shape)
      .filter((k) => config[k] !== undefined)
      .map((k) => [k, config[k]]),
  );
  const settings = hybridSettings.safeParse({ ...known, tts_speed: tts.speed, tts_volume: tts.volume });
  if (settings.success) return settings.data;
  // A field out of today's bounds: keep each one that still fits, one by one.
  const kept = Object.fromEntries(
    Object.entries({ ...known, tts_speed: tts.speed, tts_volume: tts.volume }).filter(
      ([k, v]) => hybridSettings.shape[k as keyof HybridSettings].safeParse(v).success,
    ),
  );
  return hybridSettings.parse(kept);
}

export function hybridStartProblem(agentIds: string[], topic: string): string | null {
  if (new Set(agentIds).size < 2) return DISCUSSION_MESSAGES.hybridSelectAgents;
  if (!topic.trim()) return DISCUSSION_MESSAGES.hybridProvideTopic;
  return null;
}

const OURS: Record<HybridTemplateName, { settings: Partial<HybridSettings>; topic: string }> = {
  'Scientific Analysis': {
    settings: {
      mode: 'structured',
      evidence_required: true,
      allow_research: true,
      citation_style: 'academic',
      consensus_threshold: 0.8,
    },
    topic: 'What does the evidence say about the effect of a four-day school week on learning?',
  },
  'Problem Solving': {
    settings: { mode: 'hybrid', auto_stop_on_consensus: true },
    topic: 'Our town library is empty on weekday mornings. How do we bring people in this year?',
  },
  'Creative Brainstorming': {
    settings: { mode: 'natural', evidence_required: false, enable_cross_agent_learning: true },
    topic: 'Brainstorm new ways a small museum could attract younger visitors.',
  },
  'Strategic Planning': {
    settings: { mode: 'adaptive', response_format: 'structured', allow_research: true },
    topic: 'Draft a three-year plan for moving a small bakery to renewable energy.',
  },
};

export function hybridTemplate(name: HybridTemplateName): { settings: Partial<HybridSettings>; topic: string } {
  return {
    settings: { ...OURS[name].settings, ...(HYBRID_TEMPLATES[name] as Partial<HybridSettings>) },
    topic: OURS[name].topic,
  };
}

/** A template fills its settings at once, and the topic box only when it is empty. */
export function withTemplate(
  context: { settings: HybridSettings; topic: string },
  name: HybridTemplateName,
): { settings: HybridSettings; topic: string } {
  const t = hybridTemplate(name);
  return {
    settings: hybridSettings.parse({ ...context.settings, ...t.settings }),
    topic: context.topic.trim() ? context.topic : t.topic,
  };
}
