// The hybrid panel's one-line settings summary (src/model/hybridSummary.ts): rounds only for formats that have them.
import { describe, expect, it } from 'vitest';
import { hybridSettingsSummary } from '../../src/model/hybridSummary';
import { defaults, type HybridSettings } from '../../src/schemas/settings';

const withFormat = (kind: HybridSettings['format']['kind']): HybridSettings => ({
  ...defaults.hybrid,
  max_rounds: 4,
  turns_per_round: 2,
  format: { ...defaults.hybrid.format, kind },
});

describe('hybridSettingsSummary', () => {
  it('a round table counts rounds and turns', () => {
    expect(hybridSettingsSummary(withFormat('round_table'))).toMatch(/^4 rounds · 2 turns each · /);
  });

  it('a moderated discussion names its format and keeps its rounds', () => {
    expect(hybridSettingsSummary(withFormat('moderated'))).toMatch(/^Moderated · 4 rounds · 2 turns each · /);
  });

  it.each([
    ['council', /^Council · answers, ranking, final answer · /],
    ['debate', /^Debate · opening, rebuttal, closing · /],
  ] as const)('a %s says its own stages, never rounds', (kind, words) => {
    const line = hybridSettingsSummary(withFormat(kind));
    expect(line).toMatch(words);
    expect(line).not.toMatch(/round/);
  });
});
