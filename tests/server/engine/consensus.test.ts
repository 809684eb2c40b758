import { describe, expect, it } from 'vitest';
import { hasConverged, measureConsensus, type Position } from '../../../server/engine/consensus';

const p = (name: string, stance: Position['stance'], confidence: number): Position => ({ agentId: name, agentName: name, stance, confidence, content: `${name} says so` });

describe('consensus: confidence-weighted support', () => {
  it('is Σ cᵢ·sᵢ / Σ cᵢ with support 1, neutral 0, oppose 0', () => {
    const m = measureConsensus([p('a', 'support', 0.9), p('b', 'support', 0.6), p('c', 'oppose', 0.5)], 3);
    expect(m.score).toBeCloseTo((0.9 + 0.6) / (0.9 + 0.6 + 0.5), 3);
    expect(m.supportLevel).toBeCloseTo(2 / 3, 3);
    expect(m.confidence).toBeCloseTo(0.75, 3);
    expect(m.dissent).toEqual(['c: c says so']);
    expect(m.complete).toBe(true);
  });

  it('counts a neutral agent as not agreeing, weighted by its confidence', () => {
    expect(measureConsensus([p('a', 'support', 0.8), p('b', 'neutral', 0.8)], 2).score).toBe(0.5);
    expect(measureConsensus([p('a', 'support', 0.8), p('b', 'neutral', 0.2)], 2).score).toBe(0.8);
  });

  it('lets a sure opponent weigh more than a hesitant one', () => {
    const sure = measureConsensus([p('a', 'support', 0.7), p('b', 'oppose', 0.9)], 2).score;
    const hesitant = measureConsensus([p('a', 'support', 0.7), p('b', 'oppose', 0.1)], 2).score;
    expect(sure).toBeLessThan(hesitant);
  });

  it('is 1 for unanimous support and 0 for unanimous opposition, whatever the confidences', () => {
    expect(measureConsensus([p('a', 'support', 0.3), p('b', 'support', 0.99)], 2).score).toBe(1);
    expect(measureConsensus([p('a', 'oppose', 0.3), p('b', 'oppose', 0.99)], 2).score).toBe(0);
  });

  it('is 0 with no positions or only zero confidences, and clamps bad numbers', () => {
    expect(measureConsensus([], 3)).toMatchObject({ score: 0, supportLevel: 0, confidence: 0, complete: false });
    expect(measureConsensus([p('a', 'support', 0), p('b', 'oppose', 0)], 2).score).toBe(0);
    expect(measureConsensus([p('a', 'support', 7), p('b', 'oppose', Number.NaN)], 2).score).toBe(1);
  });

  it('never converges on part of the table', () => {
    const partial = measureConsensus([p('a', 'support', 0.9)], 3);
    expect(partial.score).toBe(1);
    expect(partial.complete).toBe(false);
    expect(hasConverged(partial, 0.8)).toBe(false);
    const whole = measureConsensus([p('a', 'support', 0.9), p('b', 'support', 0.8), p('c', 'neutral', 0.1)], 3);
    expect(hasConverged(whole, 0.8)).toBe(true);
    expect(hasConverged(whole, 0.95)).toBe(false);
  });
});
