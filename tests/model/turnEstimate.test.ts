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
      'Plans up to 75 turns (5 rounds × 5 stages × 3 agents); it stops early on consensus.',
    );
  });
  it('plain turns say their number', () => {
    expect(turnEstimateLine('basic', settings, 3)).toBe(`Plans ${settings.basic.turns} turns.`);
  });
});
