// chooseEndpoint, row by row: the priority order of docs/product.md#discussions-states, the skipping of endpoints
// probed unavailable, and Basic when nothing is confirmed.
import { describe, expect, it } from 'vitest';
import { chooseEndpoint, type EndpointAvailability, type EndpointChoiceOptions } from '../../src/model/endpointChoice';
import type { EndpointKey } from '../../src/schemas/constants';

const off: EndpointChoiceOptions = {
  multiRound: false,
  useACL: false,
  enableInterrupts: false,
  enhancedMode: false,
  research: false,
  hybridMode: false,
  reasoningTabActive: false,
};
const all = (a: EndpointAvailability): Record<EndpointKey, EndpointAvailability> => ({
  basic: a,
  enhanced: a,
  multi_round: a,
  hybrid: a,
});
const up = all('available');
const without = (...keys: EndpointKey[]) =>
  ({ ...up, ...Object.fromEntries(keys.map((k) => [k, 'unavailable'])) }) as Record<EndpointKey, EndpointAvailability>;

type Row = [
  description: string,
  options: Partial<EndpointChoiceOptions>,
  availability: Record<EndpointKey, EndpointAvailability>,
  expected: EndpointKey,
];

const rows: Row[] = [
  // The priority order, everything available.
  ['nothing on → basic', {}, up, 'basic'],
  ['multi-round → multi_round', { multiRound: true }, up, 'multi_round'],
  ['ACL → enhanced', { useACL: true }, up, 'enhanced'],
  ['interrupts → enhanced', { enableInterrupts: true }, up, 'enhanced'],
  ['enhanced mode → enhanced', { enhancedMode: true }, up, 'enhanced'],
  ['research → hybrid', { research: true }, up, 'hybrid'],
  ['hybrid mode → hybrid', { hybridMode: true }, up, 'hybrid'],
  ['Reasoning tab → hybrid', { reasoningTabActive: true }, up, 'hybrid'],
  ['multi-round beats enhanced and hybrid', { multiRound: true, useACL: true, research: true }, up, 'multi_round'],
  ['enhanced beats hybrid', { enableInterrupts: true, hybridMode: true }, up, 'enhanced'],
  // Skipping endpoints probed unavailable: the next rule that applies.
  [
    'multi_round unavailable → enhanced when it applies',
    { multiRound: true, useACL: true },
    without('multi_round'),
    'enhanced',
  ],
  [
    'multi_round unavailable → hybrid when enhanced does not apply',
    { multiRound: true, research: true },
    without('multi_round'),
    'hybrid',
  ],
  ['multi_round unavailable, nothing else applies → basic', { multiRound: true }, without('multi_round'), 'basic'],
  [
    'multi_round and enhanced unavailable → hybrid',
    { multiRound: true, enhancedMode: true, reasoningTabActive: true },
    without('multi_round', 'enhanced'),
    'hybrid',
  ],
  ['enhanced unavailable → hybrid', { useACL: true, hybridMode: true }, without('enhanced'), 'hybrid'],
  ['enhanced unavailable, hybrid does not apply → basic', { useACL: true }, without('enhanced'), 'basic'],
  ['hybrid unavailable → basic', { research: true }, without('hybrid'), 'basic'],
  [
    'every rule skipped → basic',
    { multiRound: true, useACL: true, research: true },
    without('multi_round', 'enhanced', 'hybrid'),
    'basic',
  ],
  [
    'an unavailable endpoint that does not apply changes nothing',
    { useACL: true },
    without('multi_round', 'hybrid'),
    'enhanced',
  ],
  // 'unknown' is not skipped once something is confirmed.
  ['not yet answered is not skipped', { multiRound: true }, { ...up, multi_round: 'unknown' }, 'multi_round'],
  // Basic when none is confirmed.
  ['nothing probed yet → basic', { multiRound: true, useACL: true, research: true }, all('unknown'), 'basic'],
  ['nothing answered → basic', { enhancedMode: true }, all('unavailable'), 'basic'],
  [
    'only basic confirmed, the others unknown → the rule still applies',
    { hybridMode: true },
    { ...all('unknown'), basic: 'available' },
    'hybrid',
  ],
  ['basic unavailable but nothing applies → basic (the last resort)', {}, without('basic'), 'basic'],
];

describe('chooseEndpoint', () => {
  it.each(rows)('%s', (_description, options, availability, expected) => {
    expect(chooseEndpoint({ ...off, ...options }, availability)).toBe(expected);
  });

  it('every option alone picks the endpoint its rule names', () => {
    const byOption: Record<keyof EndpointChoiceOptions, EndpointKey> = {
      multiRound: 'multi_round',
      useACL: 'enhanced',
      enableInterrupts: 'enhanced',
      enhancedMode: 'enhanced',
      research: 'hybrid',
      hybridMode: 'hybrid',
      reasoningTabActive: 'hybrid',
    };
    for (const [option, key] of Object.entries(byOption))
      expect(chooseEndpoint({ ...off, [option]: true }, up), option).toBe(key);
  });
});
