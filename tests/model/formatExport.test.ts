// A format in the exports: the JSON says the format as sent and keeps each format row's frame; the PDF prints the
// council's ranking and the debate's votes as tables (read back with pdftotext -layout).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildExport, type ExportMeta } from '../../src/model/exportJson';
import { applyFrames, emptyFeed, type FeedInput } from '../../src/model/feed';
import { discussionExport } from '../../src/schemas/exportJson';
import { defaults } from '../../src/schemas/settings';
import { renderDiscussionPdf, renderHybridPdf } from '../../src/services/pdfExport';

const meta = (setting: ExportMeta['format'] extends infer F ? F : never): ExportMeta => ({
  sessionId: 'session_7',
  endpoint: 'basic',
  context: 'Drip or furrow?',
  configuration: {
    communication: defaults.communication,
    reasoning: defaults.reasoning,
    research: defaults.research,
  },
  now: new Date('2026-11-27T09:00:00.000Z'),
  format: setting,
});

const council: FeedInput[] = [
  { type: 'format_stage', format: 'council', stage: 'answers', title: 'Stage 1: independent answers' },
  { type: 'text', id: 't1', from_id: 'a', from: 'Ada', text: 'Drip.', turn: 1 },
  { type: 'text', id: 't2', from_id: 'b', from: 'Bo', text: 'Furrow.', turn: 2 },
  {
    type: 'ranking',
    rows: [
      { label: 'B', agent_id: 'b', agent_name: 'Bo', mean_rank: 1, ballots: 2 },
      { label: 'A', agent_id: 'a', agent_name: 'Ada', mean_rank: 2, ballots: 2 },
    ],
    ballots: [],
  },
] as FeedInput[];

const debate: FeedInput[] = [
  { type: 'vote', voter_id: 'human', side: 'against', confidence: 0.6, phase: 'before', reason: 'unsure' },
  { type: 'text', id: 't1', from_id: 'a', from: 'Ada', text: 'For it.', turn: 1 },
  { type: 'vote', voter_id: 'c', voter_name: 'Cy', side: 'for', confidence: 0.8, phase: 'after', reason: 'convinced' },
  {
    type: 'debate_result',
    side: 'for',
    change: 40,
    for_before: 40,
    for_after: 80,
    text: 'For gained 40 points of the judge’s support.',
  },
] as FeedInput[];

const dir = mkdtempSync(path.join(tmpdir(), 'agora-format-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
async function pdfText(blob: Blob, name: string) {
  const file = path.join(dir, name);
  writeFileSync(file, Buffer.from(await blob.arrayBuffer()));
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}
const FONT = path.resolve(__dirname, '../../node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const loadFont = async () => readFileSync(FONT);

describe('a format in the exports', () => {
  it('JSON: the format as sent, and the frame of each format row', () => {
    const exp = buildExport(
      applyFrames(emptyFeed, council),
      meta({ setting: { ...defaults.standardPanel.format, kind: 'council', chair: 'b' }, agentIds: ['a', 'b'] }),
    );
    expect(discussionExport.parse(exp).format).toEqual({ kind: 'council', chair: 'b' });
    const ranking = exp.messages.find((m) => (m.frame as { type?: string } | undefined)?.type === 'ranking');
    expect((ranking!.frame as unknown as { rows: unknown[] }).rows).toHaveLength(2);
    const plain = buildExport(
      applyFrames(emptyFeed, []),
      meta({ setting: defaults.standardPanel.format, agentIds: ['a', 'b'] }),
    );
    expect(plain.format).toEqual({ kind: 'round_table' });
  });

  it('PDF: the council’s ranking table, rank by rank', async () => {
    const exp = buildExport(applyFrames(emptyFeed, council), meta(undefined));
    const text = await pdfText(await renderDiscussionPdf(exp, { loadUnicodeFont: loadFont }), 'council.pdf');
    expect(text).toContain('Council ranking');
    expect(text).toMatch(/Rank\s+Answer\s+Agent\s+Mean rank\s+Ballots/);
    expect(text).toMatch(/1\s+Answer B\s+Bo\s+1\.00\s+2/);
    expect(text).toMatch(/2\s+Answer A\s+Ada\s+2\.00\s+2/);
    expect(text).not.toContain('Debate votes');
  });

  it('PDF: the debate’s votes table and its result (hybrid layout too)', async () => {
    const exp = buildExport(applyFrames(emptyFeed, debate), meta(undefined));
    for (const [name, render] of [
      ['standard', renderDiscussionPdf],
      ['hybrid', renderHybridPdf],
    ] as const) {
      const text = await pdfText(await render(exp, { loadUnicodeFont: loadFont }), `debate-${name}.pdf`);
      expect(text).toMatch(/Phase\s+Judge\s+Side\s+Confidence\s+Reason/);
      expect(text).toMatch(/Before\s+You\s+Against\s+60%\s+unsure/);
      expect(text).toMatch(/After\s+Cy\s+For\s+80%\s+convinced/);
      expect(text).toContain('For gained 40 points');
      expect(text).not.toContain('Council ranking');
    }
  });
});
