import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasConverged, measureConsensus, type Position } from '../../../server/engine/consensus';

const p = (name: string, optionId: string | null, confidence: number, informed = true): Position => ({
  agentId: name,
  agentName: name,
  stance: 'support',
  confidence,
  content: `${name} says so`,
  optionId,
  informed,
});

describe('consensus: the confidence-weighted share of the leading option over all participants', () => {
  it('scores two agents on one option at 0.49 and 0.66 as 0.575, which does not converge at 0.7', () => {
    const m = measureConsensus([p('Ines', 'o1', 0.49), p('Tomas', 'o1', 0.66)], 2);
    expect(m.score).toBe(0.575);
    expect(m).toMatchObject({ leader: 'o1', holders: 2, supportLevel: 1, confidence: 0.575, dissent: [] });
    expect(hasConverged(m, 0.7)).toBe(false);
  });

  it('gives three agents on three options at most 1/3', () => {
    const m = measureConsensus([p('a', 'o1', 1), p('b', 'o2', 1), p('c', 'o3', 1)], 3);
    expect(m.score).toBeCloseTo(1 / 3, 3);
    expect(m.leader).toBe('o1');
    expect(m.dissent).toEqual(['b: b says so', 'c: c says so']);
  });

  it('divides by every participant, spoken or not, and names dissent by the option label', () => {
    const m = measureConsensus(
      [p('a', 'o1', 0.9), p('b', 'o2', 0.5)],
      4,
      (id) => ({ o1: 'Fare-free', o2: 'Cheaper passes' })[id],
    );
    expect(m.score).toBeCloseTo(0.9 / 4, 3);
    expect(m.complete).toBe(false);
    expect(m.dissent).toEqual(['b: Cheaper passes']);
  });

  it('counts as dissent only an agent that holds another option, and says it as data too', () => {
    const m = measureConsensus(
      [p('Ada', 'o1', 0.7), p('Bo', 'o1', 0.6), p('Cy', null, 0.9), p('Di', 'o2', 0.5)],
      4,
      (id) => ({ o1: 'Pilot in support first', o2: 'Keep five days' })[id],
    );
    expect(m.dissent).toEqual(['Di: Keep five days']);
    expect(m.dissenters).toEqual([{ agent_name: 'Di', label: 'Keep five days' }]);
  });

  it('lets the surer option lead, the larger breaking a tie', () => {
    expect(measureConsensus([p('a', 'o1', 0.9), p('b', 'o2', 0.4), p('c', 'o2', 0.4)], 3).leader).toBe('o1');
    expect(measureConsensus([p('a', 'o1', 0.8), p('b', 'o2', 0.4), p('c', 'o2', 0.4)], 3).leader).toBe('o2');
  });

  it('is 0 with no options or zero confidences, and clamps bad numbers', () => {
    expect(measureConsensus([], 3)).toMatchObject({
      score: 0,
      supportLevel: 0,
      confidence: 0,
      leader: null,
      complete: false,
    });
    expect(measureConsensus([p('a', null, 0.9), p('b', null, 0.9)], 2).score).toBe(0);
    expect(measureConsensus([p('a', 'o1', 7), p('b', 'o1', Number.NaN)], 2).score).toBe(0.5);
  });

  it('never converges on part of the table, nor before everyone has spoken after hearing another agent', () => {
    expect(hasConverged(measureConsensus([p('a', 'o1', 0.9)], 3), 0.2)).toBe(false);
    const first = measureConsensus([p('a', 'o1', 0.9, false), p('b', 'o1', 0.9, true)], 2);
    expect(first.score).toBe(0.9);
    expect(hasConverged(first, 0.8)).toBe(false);
    expect(hasConverged(measureConsensus([p('a', 'o1', 0.9), p('b', 'o1', 0.9)], 2), 0.8)).toBe(true);
  });
});

const positionsArb = fc
  .array(
    fc.record({
      option: fc.constantFrom('o1', 'o2', 'o3', null),
      confidence: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
    { minLength: 1, maxLength: 8 },
  )
  .map((xs) => xs.map((x, i) => p(`agent${i}`, x.option, x.confidence)));

describe('consensus: properties', () => {
  it('stays within [0, 1] and within the leader share of the table', () => {
    fc.assert(
      fc.property(positionsArb, fc.nat(4), (ps, extra) => {
        const m = measureConsensus(ps, ps.length + extra);
        expect(m.score).toBeGreaterThanOrEqual(0);
        expect(m.score).toBeLessThanOrEqual(1);
        expect(m.score).toBeLessThanOrEqual(m.supportLevel + 1e-9);
      }),
    );
  });

  it('does not fall when a supporter of the leading option grows surer', () => {
    fc.assert(
      fc.property(positionsArb, fc.double({ min: 0, max: 1, noNaN: true }), (ps, more) => {
        const m = measureConsensus(ps, ps.length);
        const i = ps.findIndex((x) => x.optionId === m.leader && m.leader !== null);
        if (i < 0) return;
        const surer = ps.map((x, j) => (j === i ? { ...x, confidence: Math.min(1, x.confidence + more) } : x));
        expect(measureConsensus(surer, ps.length).score).toBeGreaterThanOrEqual(m.score);
      }),
    );
  });

  it('does not depend on the order of the agents', () => {
    const permuted = positionsArb.chain((ps) =>
      fc.tuple(fc.constant(ps), fc.shuffledSubarray(ps, { minLength: ps.length, maxLength: ps.length })),
    );
    fc.assert(
      fc.property(permuted, ([ps, shuffled]) => {
        const [x, y] = [measureConsensus(ps, ps.length), measureConsensus(shuffled, ps.length)];
        expect(y.score).toBe(x.score);
        expect(y.leader).toBe(x.leader);
      }),
    );
  });
});
