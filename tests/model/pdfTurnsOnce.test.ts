// Every turn once in the PDF (issue 47): the outcome is printed in its words (outcomeWords.ts), never by repeating
// the turn the server took its solution from. Read back with pdftotext when installed; otherwise from the PDF's
// own text operators (jsPDF writes them uncompressed, one `(…) Tj` per line; these texts fit a line).
import { describe, expect, it } from 'vitest';
import type { FeedInput } from '../../src/model/feed';
import { exportOf, noFontNeeded, pdfReader } from '../support/pdfExportFixture';
import { renderDiscussionPdf, renderHybridPdf } from '../../src/services/pdfExport';

const pdfText = pdfReader('agora-pdf-once-');

const TURNS = [
  ['a1', 'Ada', 'Adopt the four-day week company-wide, starting with the support team in spring.'],
  ['b2', 'Bo', 'Keep five days; the support rota cannot cover Fridays.'],
  ['c3', 'Cy', 'Pilot it in support first and measure the queue times.'],
] as const;

const frames: FeedInput[] = [
  ...TURNS.map(
    ([id, name, content], i) =>
      ({
        type: 'agent_message',
        id: `m${i}`,
        agent_id: id,
        agent_name: name,
        content,
        message_type: 'statement',
        confidence: 0.6,
      }) as FeedInput,
  ),
  { type: 'human_message_local', id: 'h1', text: 'Tomas, would the pilot overload the Friday queue?' } as FeedInput,
  {
    type: 'consensus_reached',
    score: 0.4,
    reached: false,
    // The server's solution is a turn's words as it recorded them, not always byte for byte what the feed shows.
    consensus: {
      solution: 'Adopt the four-day week company-wide, starting with the support team in spring',
      confidence: 0.6,
      support_level: 0.67,
      dissenting_opinions: ['Bo: Keep five days; the support rota cannot cover Fridays.'],
    },
    final_vote: { option_id: 'o1', label: 'Four-day week', holders: 2, of: 3, score: 0.4 },
    dissent: [{ agent_name: 'Bo', label: 'Five days' }],
    outcome: 'The discussion did not change the first vote',
    changes: { argument: 0, majority: 0 },
  } as FeedInput,
];

const exp = () => exportOf(frames, { sessionId: 's-once', endpoint: 'hybrid', context: 'A four-day week?' });

const loadUnicodeFont = noFontNeeded;

describe('the PDF prints every turn once', () => {
  it.each([
    ['standard', () => renderDiscussionPdf(exp(), { loadUnicodeFont })],
    ['hybrid', () => renderHybridPdf({ ...exp(), mode: 'hybrid' }, { loadUnicodeFont })],
  ])('%s', async (name, render) => {
    const text = await pdfText(await render(), `${name}.pdf`);
    for (const [, , content] of TURNS) expect(text.split(content.slice(0, 60)).length - 1, content).toBe(1);
    expect(text).toContain('Outcome: Not agreed yet');
    expect(text).toContain('2 of 3 hold "Four-day week"');
    expect(text.split('did not change the first vote').length - 1).toBe(1);
  });
});
