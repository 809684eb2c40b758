import { describe, expect, it } from 'vitest';
import { plannedTurns, turnEstimateLine } from '../../src/model/turnEstimate';
import { defaults } from '../../src/schemas/settings';

// Before Start the panel says how many turns will run: multi-round with its defaults plans 75 for three agents.
const settings = defaults.standardPanel;

describe('turn estimate before Start', () => {
  it('multi-round with the defaults plans 75 turns for three agents, and says so', () => {
    const multi = { ...settings, reasoning: { ...settings.reasoning, enableMultiRound: true } };
    expect(plannedTurns('multi_round', multi, 3).turns).toBe(75);
    expect(turnEstimateLine('multi_round', multi, 3)).toBe(
      'Plans up to 75 messages (5 rounds × 5 stages × 3 agents); it stops early on consensus.',
    );
  });
  it('plain turns and the other formats leave the count to the Format line (one count, one word)', () => {
    expect(turnEstimateLine('basic', settings, 3)).toBeNull();
    const council = { ...settings, format: { ...settings.format, kind: 'council' as const } };
    expect(
      turnEstimateLine('multi_round', { ...council, reasoning: { ...council.reasoning, enableMultiRound: true } }, 3),
    ).toBeNull();
  });
});
