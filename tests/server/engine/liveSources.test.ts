import { describe, expect, it } from 'vitest';
import type { EngineContext } from '../../../server/engine/context';
import { addSources } from '../../../server/engine/liveSources';
import { MAX_SOURCE_IDS } from '../../../src/schemas/sources';

// The engine's step for sources added during a run: new ids join plan.sourceIds once, never past MAX_SOURCE_IDS,
// and the panels' row names what was added; an id the discussion already reads changes and says nothing.

const withSources = (sourceIds?: string[]) =>
  ({ plan: { topic: 'T', ...(sourceIds ? { sourceIds } : {}) } }) as unknown as EngineContext;
const ids = (n: number, tag = 's') => Array.from({ length: n }, (_, i) => `${tag}${i}`);
const named = (...names: string[]) => names.map((name) => ({ id: name.split('.')[0]!, name }));

describe('addSources', () => {
  it('adds new ids once, after those the discussion reads, and names them in a format_note', () => {
    const step = addSources(withSources(['a']), named('a.md', 'b.pdf', 'b.pdf', 'c.md'));
    expect(step.patch.plan?.sourceIds).toEqual(['a', 'b', 'c']);
    expect(step.frames.map((f) => f.frame)).toEqual([
      { type: 'format_note', kind: 'sources', text: 'b.pdf, c.md added: the next turns read them.' },
    ]);
  });

  it('changes and says nothing for ids it already reads', () => {
    expect(addSources(withSources(['a']), named('a.md'))).toEqual({ patch: {}, frames: [] });
  });

  it('stops at MAX_SOURCE_IDS and says so when there is no room', () => {
    const full = addSources(withSources(ids(MAX_SOURCE_IDS - 1)), named('x.md', 'y.md'));
    expect(full.patch.plan?.sourceIds).toHaveLength(MAX_SOURCE_IDS);
    expect(full.patch.plan?.sourceIds?.at(-1)).toBe('x');
    expect(full.frames[0]?.frame).toMatchObject({ text: 'x.md added: the next turns read it.' });
    const none = addSources(withSources(ids(MAX_SOURCE_IDS)), named('z.md'));
    expect(none.patch).toEqual({});
    expect(none.frames[0]?.frame).toMatchObject({ kind: 'sources', text: expect.stringMatching(/none was added/) });
  });
});
