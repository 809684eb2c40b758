// The PDF's citations (issue 45): a turn's '[S1]' becomes a numbered note under the turn (document, page, quoted
// sentence), an invented label is said to name nothing, and a 'Sources' section lists each cited document with
// its pages and who cited it. Read back with pdftotext as the other PDF tests do.
import { describe, expect, it } from 'vitest';
import type { FeedInput } from '../../src/model/feed';
import { exportOf, noFontNeeded, pdfReader } from '../support/pdfExportFixture';
import type { Citation } from '../../src/schemas/sources';
import { citationNotes } from '../../src/services/pdfCitations';
import { renderDiscussionPdf, renderHybridPdf } from '../../src/services/pdfExport';

const pdfText = pdfReader('agora-pdf-cite-');

const cite = (label: string, source: string, passage: string, page: number | null, quote: string): Citation => ({
  label,
  source_id: source,
  source_name: `${source}.pdf`,
  passage_id: passage,
  page,
  quote,
  verified: true,
});
const invented: Citation = {
  label: 'S9',
  source_id: null,
  source_name: null,
  passage_id: null,
  page: null,
  quote: '',
  verified: false,
};

const turn = (i: number, name: string, content: string, citations: Citation[]) =>
  ({
    type: 'agent_message',
    id: `m${i}`,
    agent_id: name.toLowerCase(),
    agent_name: name,
    content,
    message_type: 'statement',
    citations,
  }) as FeedInput;

const frames: FeedInput[] = [
  turn(0, 'Ada', 'Route 12 carried 4,217 riders a day [S1].', [
    cite('S1', 'transit', 'p-a', 12, 'Route 12 carried 4,217 riders.'),
  ]),
  turn(1, 'Bo', 'The audit agrees [S2], and so does the plan [S1]; see also [S9].', [
    cite('S1', 'transit', 'p-a', 12, 'Route 12 carried 4,217 riders.'),
    cite('S2', 'audit', 'p-b', 3, 'Ridership rose in spring.'),
    invented,
  ]),
  turn(2, 'Ada', 'Fares were flat [S1].', [cite('S1', 'transit', 'p-c', 30, 'Fares stayed at 2 dollars.')]),
];

const exp = () => exportOf(frames, { sessionId: 's-cite', endpoint: 'basic', context: 'Extend route 12?' });

const loadUnicodeFont = noFontNeeded;

describe('PDF citations', () => {
  it('numbers each passage once, in order, and keeps an invented label as text', () => {
    const notes = citationNotes(exp().messages);
    const [a, b, c] = exp().messages.map((m) => notes.turn(m));
    expect(a.text).toBe('Route 12 carried 4,217 riders a day [1].');
    expect(b.text).toBe('The audit agrees [2], and so does the plan [1]; see also [S9].');
    expect(b.notes).toEqual([
      '[1] transit.pdf, p. 12: "Route 12 carried 4,217 riders."',
      '[2] audit.pdf, p. 3: "Ridership rose in spring."',
      '[S9] names no passage the agent was given.',
    ]);
    expect(c.text).toBe('Fares were flat [3].');
    expect(notes.bibliography).toEqual([
      { name: 'audit.pdf', detail: 'p. 3 · notes 2 · cited by Bo ×1' },
      { name: 'transit.pdf', detail: 'pp. 12, 30 · notes 1, 3 · cited by Ada ×2, Bo ×1' },
    ]);
  });

  it.each([
    ['standard', () => renderDiscussionPdf(exp(), { loadUnicodeFont })],
    ['hybrid', () => renderHybridPdf({ ...exp(), mode: 'hybrid' }, { loadUnicodeFont })],
  ])('%s: notes under the turns and a Sources section', async (name, render) => {
    const text = await pdfText(await render(), `${name}.pdf`);
    expect(text).toContain('Route 12 carried 4,217 riders a day [1].');
    expect(text).not.toContain('riders a day [S1]');
    expect(text).toContain('[2] audit.pdf, p. 3: "Ridership rose in spring."');
    expect(text).toContain('[S9] names no passage the agent was given.');
    const sources = text.slice(text.lastIndexOf('Sources (2)'));
    expect(sources).toContain('audit.pdf p. 3 · notes 2 · cited by Bo ×1');
    expect(sources).toContain('transit.pdf pp. 12, 30 · notes 1, 3 · cited by Ada ×2, Bo ×1');
  });
});
