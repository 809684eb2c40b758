// A standard endpoint's first message from the standard panel's settings (its Advanced Settings sections): exactly
// that endpoint's fields, checked by its schema. Shared: the panel's Start builds it (src/model/standardConfig.ts),
// and so does a saved panel asked from another client (server/integrations/askPanel.ts). Pure.
import {
  HYBRID_FALLBACK_CONSENSUS_THRESHOLD,
  HYBRID_FALLBACK_MAX_ROUNDS,
  HYBRID_FALLBACK_REASONING_DEPTH,
  type EndpointKey,
} from '../schemas/constants';
import { bounds, type StandardPanelSettings } from '../schemas/settings';
import { basicConfig, enhancedConfig, multiRoundConfig, standardHybridConfig } from '../schemas/standardSocket';

export interface EndpointConfigInput {
  endpoint: EndpointKey;
  /** What every endpoint's first message carries: agent_ids, session_id, and token, format, continued_from if any. */
  common: Record<string, unknown>;
  context: string;
  settings: Omit<StandardPanelSettings, 'format'>;
  connections: { source: string; target: string }[];
}

const clampResponseLength = (maxTokens: number) => {
  const { min, max, step } = bounds.maxResponseLength;
  return Math.min(max, Math.max(min, Math.round(maxTokens / step) * step));
};

/** The configuration message for the chosen endpoint, with exactly that endpoint's fields. */
export function standardEndpointConfig(req: EndpointConfigInput): Record<string, unknown> {
  const { settings: s, common } = req;
  const configs = { communication_config: s.communication, reasoning_config: s.reasoning, research_config: s.research };
  switch (req.endpoint) {
    case 'basic':
      return basicConfig.parse({
        ...common,
        context: req.context.trim(),
        tts: s.basic.tts,
        turns: s.basic.turns,
        mode: s.basic.mode,
        connections: req.connections,
        ...configs,
        legacy_config: { human_participation: s.basic.humanParticipation },
      });
    case 'multi_round':
      return multiRoundConfig.parse({ ...common, context: req.context.trim(), ...configs });
    case 'enhanced':
      return enhancedConfig.parse({
        ...common,
        context: req.context.trim(),
        ...configs,
        legacy_config: {
          tts: s.basic.tts,
          turns: s.basic.turns,
          mode: s.basic.mode,
          human_participation: s.basic.humanParticipation,
        },
      });
    case 'hybrid':
      return standardHybridConfig.parse({
        ...common,
        topic: req.context.trim(),
        mode: 'hybrid',
        tts: s.basic.tts,
        max_rounds: HYBRID_FALLBACK_MAX_ROUNDS,
        max_response_length: clampResponseLength(s.communication.maxTokens),
        reasoning_depth: HYBRID_FALLBACK_REASONING_DEPTH,
        evidence_required: s.reasoning.requireEvidence,
        allow_research: s.research.enableResearch,
        consensus_threshold: HYBRID_FALLBACK_CONSENSUS_THRESHOLD,
      });
  }
}
