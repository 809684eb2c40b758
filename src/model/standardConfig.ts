// The standard panel's first socket message (docs/product.md#discussions-calls 'Standard socket session'): exactly the
// fields of the
// chosen endpoint, checked by that endpoint's schema, and the start checks of docs/product.md#discussions-validation.
// Pure.
import type { RoomJoin } from './room';
import { formatOf } from './discussionFormat';
import type { EndpointAvailability, EndpointChoiceOptions } from './endpointChoice';
import { ENDPOINT_KEYS, ENDPOINTS, type EndpointKey } from '../schemas/constants';
import { DISCUSSION_MESSAGES } from '../schemas/messages';
import type { StandardPanelSettings } from '../schemas/settings';
import { standardEndpointConfig } from '../shared/standardEndpointConfig';

export interface StartRequest {
  agentIds: string[];
  context: string;
  token: string | null;
}

/**
 * The first failing start check's message, or null when Start may proceed (docs/product.md#discussions-validation, in
 * the spec's order).
 */
export function startProblem(req: StartRequest): string | null {
  if (new Set(req.agentIds).size < 2) return DISCUSSION_MESSAGES.selectTwoAgents;
  if (!req.context.trim()) return DISCUSSION_MESSAGES.provideContext;
  if (!req.token) return DISCUSSION_MESSAGES.tokenMissing;
  return null;
}

export interface ConfigRequest {
  endpoint: EndpointKey;
  agentIds: string[];
  sessionId: string;
  context: string;
  token: string | null;
  settings: StandardPanelSettings;
  connections: { source: string; target: string }[];
  /** Re-attaching to a running discussion: ask the server to replay every frame after this seq (0 = all). */
  resumeFrom?: number;
  /** 'Continue from here': the stored discussion and turn the agents hear first (sent as `continued_from`). */
  continuedFrom?: { discussionId: string; turn: number };
  /** Joined by an invite: the socket attaches to someone else's running discussion (src/model/room.ts). */
  room?: RoomJoin;
}

/** The configuration message for the chosen endpoint, with exactly that endpoint's fields. */
export function buildStandardConfig(req: ConfigRequest): Record<string, unknown> {
  const config = endpointConfig(req);
  return req.resumeFrom === undefined ? config : { ...config, resume_from: req.resumeFrom };
}

function endpointConfig(req: ConfigRequest): Record<string, unknown> {
  const { settings: s } = req;
  const format = formatOf(s.format, [...new Set(req.agentIds)]);
  const common = {
    ...(req.token ? { token: req.token } : {}),
    agent_ids: [...new Set(req.agentIds)],
    session_id: req.sessionId,
    ...(format ? { format } : {}),
    ...(s.token_budget ? { token_budget: s.token_budget } : {}),
    ...(req.continuedFrom
      ? { continued_from: { discussion_id: req.continuedFrom.discussionId, turn: req.continuedFrom.turn } }
      : {}),
  };
  return standardEndpointConfig({
    endpoint: req.endpoint,
    common,
    context: req.context,
    settings: s,
    connections: req.connections,
  });
}

export const endpointName = (key: EndpointKey) => ENDPOINTS[key].name;

// ── What the panel says about the discussion it will run ──

/** The panel's title for each endpoint: it says what will run (or runs). */
export const ENDPOINT_TITLES: Record<EndpointKey, string> = {
  basic: 'Discussion',
  enhanced: 'Discussion',
  multi_round: 'Multi-Round Discussion',
  hybrid: 'Hybrid Discussion',
};

/** A kind of discussion by its adjective, for sentences: 'Hybrid discussions are not available …'. */
const KIND_WORDS: Record<EndpointKey, string> = {
  basic: 'Plain',
  enhanced: 'Enhanced',
  multi_round: 'Multi-Round',
  hybrid: 'Hybrid',
};

/**
 * One line on why this kind of discussion was chosen, in the reader's words (no socket paths, no protocol names):
 * the first setting that asks for it (endpointChoice.ts, in its priority order), or why nothing more runs.
 */
export function endpointReason(
  key: EndpointKey,
  o: EndpointChoiceOptions,
  availability: Partial<Record<EndpointKey, EndpointAvailability>>,
): string {
  const confirmed = ENDPOINT_KEYS.some((k) => availability[k] === 'available');
  const skipped = (['multi_round', 'enhanced', 'hybrid'] as const).filter(
    (k) => k !== key && availability[k] === 'unavailable' && asks(k, o),
  );
  const unavailable = skipped.length ? ` ${KIND_WORDS[skipped[0]]} discussions are not available on this server.` : '';
  switch (key) {
    case 'multi_round':
      return 'Multi-round reasoning is on: the agents argue in stages and build a reasoning tree.';
    case 'enhanced':
      return `${o.useACL ? 'Formal agent messages are on' : o.enableInterrupts ? 'Interrupts are on' : 'Enhanced mode is on'}: agents address and answer each other, and the panel tracks agreement.${unavailable}`;
    case 'hybrid':
      return `${o.research ? 'Research is on: the agents can look up and cite papers' : o.reasoningTabActive ? 'The Reasoning Tree is open: the agents mix plain words with formal messages' : 'Hybrid mode is on: the agents mix plain words with formal messages'}.${unavailable}`;
    case 'basic':
      if (!confirmed)
        return 'The server has not confirmed the richer discussion kinds yet, so the agents take plain turns.';
      return unavailable
        ? `The agents take plain turns.${unavailable}`
        : 'The agents take turns; turn on more in Advanced Settings.';
  }
}

function asks(key: 'multi_round' | 'enhanced' | 'hybrid', o: EndpointChoiceOptions): boolean {
  if (key === 'multi_round') return o.multiRound;
  if (key === 'enhanced') return o.useACL || o.enableInterrupts || o.enhancedMode;
  return o.research || o.hybridMode || o.reasoningTabActive;
}
