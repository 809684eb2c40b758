import { describe, expect, it } from 'vitest';
import { citedSources } from '../../src/model/citedSources';
import type { Citation } from '../../src/schemas/sources';

// The Research tab's 'Sources cited' and the PDF's bibliography: each source the turns cited (verified only), who
// cited it how many times, the passages and pages cited.

const cite = (label: string, source: string | null, passage: string | null, page: number | null): Citation => ({
  label,
  source_id: source,
  source_name: source ? `${source}.pdf` : null,
  passage_id: passage,
  page,
  quote: `quote ${passage}`,
  verified: source !== null,
});
const turn = (agent: string, ...citations: Citation[]) => ({ agent, citations });

describe('citedSources', () => {
  it('counts each source by agent, lists its passages and pages, most cited first, and skips invented labels', () => {
    const out = citedSources([
      turn('Ada', cite('S1', 'plan', 'p1', 12)),
      turn('Grace', cite('S1', 'audit', 'a1', 3), cite('S2', 'plan', 'p2', 4), cite('S9', null, null, null)),
      turn('Grace', cite('S1', 'plan', 'p1', 12)),
      { agent: null, citations: [] },
    ]);
    expect(out.map((s) => [s.name, s.count])).toEqual([
      ['plan.pdf', 3],
      ['audit.pdf', 1],
    ]);
    expect(out[0].by).toEqual([
      { agent: 'Grace', count: 2 },
      { agent: 'Ada', count: 1 },
    ]);
    expect(out[0].passages).toEqual([
      { passageId: 'p1', page: 12, quote: 'quote p1' },
      { passageId: 'p2', page: 4, quote: 'quote p2' },
    ]);
    expect(out[0].pages).toEqual([4, 12]);
  });

  it('is empty for a discussion without citations', () => {
    expect(citedSources([turn('Ada'), { agent: null, citations: [] }])).toEqual([]);
  });
});
