import { describe, expect, it } from 'vitest';
import { applyFrames, emptyFeed, type FeedInput } from '../../src/model/feed';
import { claimOf, selectReasoningTree } from '../../src/model/reasoningTree';

// The Reasoning Tree of a default run (Basic endpoint, no multi-round reasoning): drawn from the options the turns
// took and their claims, not empty (issue 47).

const turn = (n: number, who: string, text: string, option?: [string, string], changed?: 'argument') =>
  ({
    type: 'text',
    id: `t${n}`,
    from_id: who.toLowerCase(),
    from: who,
    text,
    turn: n,
    ...(option ? { option_id: option[0], position: option[1] } : {}),
    ...(changed ? { changed } : {}),
  }) as FeedInput;

const PILOT: [string, string] = ['o1', 'Pilot in support first'];
const FIVE: [string, string] = ['o2', 'Keep five days'];

describe('the Reasoning Tree of a default run', () => {
  it('has each option as a proposal by whoever took it first, and the turns that held it beneath as support', () => {
    const feed = applyFrames(emptyFeed, [
      turn(1, 'Ada', 'A pilot in support tells us the queue cost. Then we decide.', PILOT),
      turn(2, 'Bo', 'Fridays cannot be covered. Keep five days.', FIVE),
      { type: 'human_message_local', id: 'h1', text: 'Bo, what about a rota?' } as FeedInput,
      turn(3, 'Cy', 'I agree with Ada: measure first.', PILOT),
      turn(4, 'Bo', 'A rota could work, so a pilot is fair.', PILOT, 'argument'),
    ]);
    const roots = selectReasoningTree(feed);
    expect(roots.map((r) => [r.argument.type, r.argument.agent_name, r.argument.content])).toEqual([
      ['proposal', 'Ada', 'Pilot in support first — A pilot in support tells us the queue cost.'],
      ['proposal', 'Bo', 'Keep five days — Fridays cannot be covered.'],
    ]);
    expect(roots[0].children.map((c) => [c.argument.type, c.argument.agent_name, c.argument.content])).toEqual([
      ['support', 'Cy', 'I agree with Ada: measure first.'],
      ['support', 'Bo', 'A rota could work, so a pilot is fair.'],
    ]);
    // Who holds each option now: all three the pilot, nobody five days any more.
    expect(roots.map((r) => r.argument.votes)).toEqual([
      { support: 3, oppose: 0 },
      { support: 0, oppose: 3 },
    ]);
    expect(selectReasoningTree(feed)).toBe(roots); // the same array while nothing changed
  });

  it('a run whose turns held no option still shows their claims; only a run with no turn is empty', () => {
    const feed = applyFrames(emptyFeed, [turn(1, 'Ada', 'Free fares fill route 12. Buses are full.')]);
    expect(selectReasoningTree(feed).map((r) => r.argument.content)).toEqual(['Free fares fill route 12.']);
    expect(selectReasoningTree(emptyFeed)).toEqual([]);
    expect(
      selectReasoningTree(
        applyFrames(emptyFeed, [{ type: 'human_message_local', id: 'h1', text: 'Hello?' } as FeedInput]),
      ),
    ).toEqual([]);
  });

  it('a claim is the first sentence, bounded', () => {
    expect(claimOf('  One.  Two. ')).toBe('One.');
    expect(claimOf('x'.repeat(500))).toHaveLength(240);
  });
});
