import { describe, expect, it } from 'vitest';
import {
  attachedIds,
  citationLabel,
  citationsOfItem,
  highlight,
  sourceFacts,
  sourceSearched,
} from '../../src/model/sourcesList';

describe('sources as the panel words them', () => {
  it('says a source’s kind, pages (for a PDF) and passages', () => {
    expect(sourceFacts({ kind: 'pdf', pages: 12, passages: 40 })).toBe('PDF · 12 pages · 40 passages');
    expect(sourceFacts({ kind: 'markdown', pages: 1, passages: 1 })).toBe('Markdown · 1 passage');
  });

  it('says how a source is searched once an embedding model is chosen, and when embedding it failed', () => {
    expect(sourceSearched({})).toBeNull();
    expect(sourceSearched({ embedding: 'none' })).toBeNull();
    expect(sourceSearched({ embedding: 'embedding' })).toBe('embedding…');
    expect(sourceSearched({ embedding: 'ready' })).toBe('by words and meaning');
    expect(sourceSearched({ embedding: 'failed' })).toBe('embedding failed: by words');
  });

  it('names a chip by label, document and page, and says when a label names no passage given', () => {
    const base = { source_id: 's', passage_id: 'p', quote: 'q' };
    expect(citationLabel({ ...base, label: 'S1', source_name: 'report.pdf', page: 12, verified: true })).toBe(
      'S1 · report.pdf p. 12',
    );
    expect(
      citationLabel({
        label: 'S9',
        source_id: null,
        source_name: null,
        passage_id: null,
        page: null,
        quote: '',
        verified: false,
      }),
    ).toBe('S9 · not one of the passages given');
  });

  it('drops attached ids whose source is gone, and reads a turn’s citations from its frame', () => {
    const src = { id: 'a' } as never;
    expect(attachedIds(['a', 'gone'], [src])).toEqual(['a']);
    expect(citationsOfItem({ source: { citations: [{ label: 'S1' }] } })).toHaveLength(1);
    expect(citationsOfItem({ source: { type: 'text' } })).toEqual([]);
  });

  it('cuts a passage around its quote for the highlight', () => {
    expect(highlight('One. Two three. Four.', 'Two three.')).toEqual(['One. ', 'Two three.', ' Four.']);
    expect(highlight('One.', 'missing')).toEqual(['One.', '', '']);
  });
});
