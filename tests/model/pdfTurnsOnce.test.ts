// Every turn once in the PDF (issue 47): the outcome is printed in its words (outcomeWords.ts), never by repeating
// the turn the server took its solution from. Read back with pdftotext when installed; otherwise from the PDF's
// own text operators (jsPDF writes them uncompressed, one `(…) Tj` per line; these texts fit a line).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildExport } from '../../src/model/exportJson';
import { applyFrames, emptyFeed, type FeedInput } from '../../src/model/feed';
import { communicationConfig, reasoningConfig, researchConfig } from '../../src/schemas/settings';
import { renderDiscussionPdf, renderHybridPdf } from '../../src/services/pdfExport';

const dir = mkdtempSync(path.join(tmpdir(), 'agora-pdf-once-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function pdfText(blob: Blob, name: string): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  try {
    const file = path.join(dir, name);
    writeFileSync(file, bytes);
    return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  } catch {
    const raw = Buffer.from(bytes).toString('latin1');
    return [...raw.matchAll(/\(((?:\\.|[^\\)])*)\)\s*Tj/g)].map((m) => m[1].replace(/\\(.)/g, '$1')).join(' ');
  }
}

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

const exp = () =>
  buildExport(applyFrames(emptyFeed, frames), {
    sessionId: 's-once',
    endpoint: 'hybrid',
    context: 'A four-day week?',
    configuration: {
      communication: communicationConfig.parse({}),
      reasoning: reasoningConfig.parse({}),
      research: researchConfig.parse({}),
    },
    now: new Date('2026-11-28T10:00:00.000Z'),
  });

// Everything here is Latin-1: the PDF keeps Helvetica, and its text operators stay readable without pdftotext.
const loadUnicodeFont = async (): Promise<Uint8Array> => {
  throw new Error('no font should be needed');
};

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
