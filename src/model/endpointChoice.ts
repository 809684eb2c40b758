// Which standard endpoint a discussion connects to (docs/product.md#discussions-states 'Endpoint choice'). Pure: no
// I/O.
//
// The rules, in priority order; the first that applies and whose endpoint has not been probed 'unavailable' wins
// (an unavailable endpoint is skipped and the next rule that applies is tried):
//   1. multi_round  if multi-round reasoning is enabled
//   2. enhanced     if ACL, interrupts or enhanced mode is on
//   3. hybrid       if research is enabled, hybrid mode is chosen, or the Reasoning tab is active
//   4. basic        otherwise
// When no endpoint at all is confirmed 'available' (probing not done yet, or nothing answered), Basic is used.
import { ENDPOINT_KEYS, type EndpointKey } from '../schemas/constants';
import type { StandardPanelSettings } from '../schemas/settings';

export type EndpointAvailability = 'unknown' | 'available' | 'unavailable';

export interface EndpointChoiceOptions {
  multiRound: boolean;
  useACL: boolean;
  enableInterrupts: boolean;
  enhancedMode: boolean;
  research: boolean;
  hybridMode: boolean;
  reasoningTabActive: boolean;
}

/** The rules in priority order: the endpoint, and whether the options ask for it. Basic is the fallback. */
const RULES: ReadonlyArray<[EndpointKey, (o: EndpointChoiceOptions) => boolean]> = [
  ['multi_round', (o) => o.multiRound],
  ['enhanced', (o) => o.useACL || o.enableInterrupts || o.enhancedMode],
  ['hybrid', (o) => o.research || o.hybridMode || o.reasoningTabActive],
];

/** An endpoint missing from `availability` (nothing probed yet) counts as 'unknown'. */
export function chooseEndpoint(
  opts: EndpointChoiceOptions,
  availability: Partial<Record<EndpointKey, EndpointAvailability>>,
): EndpointKey {
  if (!ENDPOINT_KEYS.some((key) => availability[key] === 'available')) return 'basic';
  for (const [key, applies] of RULES) {
    if (applies(opts) && availability[key] !== 'unavailable') return key;
  }
  return 'basic';
}

/** What the panel's Advanced Settings (and its open tab) ask of the endpoint. */
export function choiceOptions(s: StandardPanelSettings, reasoningTabActive: boolean): EndpointChoiceOptions {
  return {
    multiRound: s.reasoning.enableMultiRound,
    useACL: s.communication.useACL,
    enableInterrupts: s.communication.enableInterrupts,
    enhancedMode: s.basic.mode === 'enhanced',
    research: s.research.enableResearch,
    hybridMode: s.basic.hybridMode || s.basic.mode === 'hybrid',
    reasoningTabActive,
  };
}
