// The JSON export (docs/product.md#discussions-entities) and the PDF (#discussions-limits), read back with pdftotext.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyFrame, applyFrames, emptyFeed, type FeedInput } from '../../src/model/feed';
import {
  EXPORT_NAME_MAX_CHARS,
  buildExport,
  exportFileName,
  topicSlug,
  type ExportMeta,
} from '../../src/model/exportJson';
import { discussionExport, type DiscussionExport } from '../../src/schemas/exportJson';
import { communicationConfig, reasoningConfig, researchConfig } from '../../src/schemas/settings';
import { needsUnicodeFont, renderDiscussionPdf, renderHybridPdf } from '../../src/services/pdfExport';
import { transcriptFrames } from './transcriptFrames';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const meta = (over: Partial<ExportMeta> = {}): ExportMeta => ({
  sessionId: 'session_42',
  endpoint: '/ws/multi_round_reasoning',
  context: 'Should the vineyard switch to drip irrigation?',
  configuration: {
    communication: communicationConfig.parse({}),
    reasoning: reasoningConfig.parse({}),
    research: researchConfig.parse({}),
  },
  now: NOW,
  ...over,
});

describe('buildExport', () => {
  it('validates against discussionExport and carries messages, arguments, research and consensus', () => {
    const feed = applyFrames(emptyFeed, transcriptFrames('multi_round_reasoning-research'));
    const exp = buildExport(feed, meta());
    expect(discussionExport.safeParse(exp).success).toBe(true);
    expect(Object.keys(exp)).toEqual([
      'session_id',
      'endpoint',
      'context',
      'configuration',
      'message_count',
      'messages',
      'argument_tree',
      'research_results',
      'consensus',
      'consensus_score',
      'outcome',
      'outcome_words',
      'exported_at',
    ]);
    expect(exp.session_id).toBe('session_42');
    expect(exp.exported_at).toBe('2026-11-22T10:00:00.000Z');
    expect(exp.messages).toHaveLength(32);
    expect(exp.argument_tree).toHaveLength(18);
    expect(exp.argument_tree[0].parent_id).toBeNull();
    expect(exp.research_results.map((r) => r.source)).toEqual(['arxiv', 'pubmed']);
    expect(exp.consensus?.solution).toEqual(expect.any(String));
    const arg = exp.messages.find((m) => m.kind === 'argument')!;
    expect(arg).toMatchObject({ agent_name: 'Ada', confidence: expect.any(Number), stage: 'brainstorming', round: 1 });
    // JSON round trip is lossless
    expect(discussionExport.parse(JSON.parse(JSON.stringify(exp)))).toEqual(exp);
  });

  it('falls back to the session the server named, and exports audio urls', () => {
    const feed = applyFrames(emptyFeed, transcriptFrames('basic-tts'));
    const exp = buildExport(feed, meta({ sessionId: null, endpoint: '/ws/discuss' }));
    expect(exp.session_id).toMatch(/^session_\d+$/);
    expect(exp.messages.every((m) => typeof m.audio_url === 'string' && m.audio_url.startsWith('/media/tts/'))).toBe(
      true,
    );
    expect(exp.consensus).toBeNull();
  });

  it('exports an empty feed as an empty discussion', () => {
    const exp = buildExport(emptyFeed, meta({ sessionId: null }));
    expect(exp).toMatchObject({
      session_id: '',
      messages: [],
      argument_tree: [],
      research_results: [],
      consensus: null,
    });
  });
});

describe('file names', () => {
  const DAY = new Date(2026, 10, 28, 23, 59);
  it('are the topic in a few words and the day: <topic>-<YYYY-MM-DD>.pdf|json', () => {
    expect(exportFileName('pdf', 'Should our city make public transport free?', DAY)).toBe(
      'should-our-city-make-public-transport-2026-11-28.pdf',
    );
    expect(exportFileName('json', 'Free buses', DAY)).toBe('free-buses-2026-11-28.json');
  });
  it('are safe on every system: no separators, reserved characters, dots or control characters; accents dropped', () => {
    const name = exportFileName('pdf', '  ../CON: "a/b\\c" <x>|y?*\u0000 Café — naïve.  ', DAY);
    expect(name).toBe('con-a-b-c-x-y-2026-11-28.pdf');
    expect(name).not.toMatch(/[<>:"/\\|?*\u0000-\u001f]/);
    expect(topicSlug('Café naïve')).toBe('cafe-naive');
    // Letters of any script stay (every system allows them); a topic with none reads 'discussion'.
    expect(topicSlug('Свободные автобусы')).toBe('свободные-автобусы');
    expect(topicSlug('?!… ')).toBe('discussion');
  });
  it('stay short: at most six words and sixty characters, cut at a word', () => {
    const long = topicSlug('Supercalifragilisticexpialidocious antidisestablishmentarianism pneumonoultramicroscopic');
    expect(long.length).toBeLessThanOrEqual(EXPORT_NAME_MAX_CHARS);
    expect(long).toBe('supercalifragilisticexpialidocious');
    expect([...topicSlug('x'.repeat(500))]).toHaveLength(EXPORT_NAME_MAX_CHARS);
  });
});

const hasPdftotext =
  existsSync('/usr/bin/pdftotext') ||
  (() => {
    try {
      execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

const FONT = path.resolve(__dirname, '../../node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
let fontLoads = 0;
const loadUnicodeFont = async () => {
  fontLoads++;
  return new Uint8Array(readFileSync(FONT));
};

const dir = mkdtempSync(path.join(tmpdir(), 'agora-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function pdfText(blob: Blob, name: string): Promise<{ text: string; pages: number }> {
  const file = path.join(dir, name);
  writeFileSync(file, new Uint8Array(await blob.arrayBuffer()));
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  const pages = text.split('\f').filter((p) => p.trim() !== '').length;
  return { text, pages };
}

const squash = (s: string) => s.replace(/\s+/g, ' ');

function tricky(): DiscussionExport {
  const frames: FeedInput[] = [
    {
      type: 'discussion_started',
      session_id: 'session_pdf',
      participants: [
        { id: 'a1', name: 'Анна', role: 'Агроном' },
        { id: 'b2', name: 'Zoë', role: null },
      ],
    },
    {
      type: 'text',
      id: 'm1',
      from_id: 'a1',
      from: 'Анна',
      text: 'Привет! Капельный полив экономит воду.',
      turn: 1,
      timestamp: '2026-11-22T09:00:01.000Z',
    },
    {
      type: 'text',
      id: 'm2',
      from_id: 'b2',
      from: 'Zoë',
      text: 'Η άρδευση με σταγόνες είναι αποδοτική. Ça coûte 5 €',
      turn: 2,
      timestamp: '2026-11-22T09:00:02.000Z',
    },
    {
      type: 'human_message_local',
      id: 'h1',
      text: '<b>bold</b> & <script>alert(1)</script>',
      timestamp: '2026-11-22T09:00:03.000Z',
    },
  ];
  return buildExport(applyFrames(emptyFeed, frames), meta({ sessionId: 'session_pdf' }));
}

describe.skipIf(!hasPdftotext)('PDF (read back with pdftotext)', () => {
  it('writes Cyrillic, Greek, accented Latin with € and literal markup, with speaker, type and time', async () => {
    const exp = tricky();
    expect(needsUnicodeFont([exp.messages[0].content])).toBe(true);
    const before = fontLoads;
    const { text } = await pdfText(await renderDiscussionPdf(exp, { loadUnicodeFont }), 'tricky.pdf');
    expect(fontLoads).toBe(before + 1);
    const t = squash(text);
    expect(t).toContain('Анна');
    expect(t).toContain('Привет! Капельный полив экономит воду.');
    expect(t).toContain('Η άρδευση με σταγόνες είναι αποδοτική.');
    expect(t).toContain('Ça coûte 5 €');
    expect(t).toContain('<b>bold</b> & <script>alert(1)</script>');
    expect(t).toContain('Анна · 2026-11-22 09:00:01 UTC');
    expect(t).toContain('You · 2026-11-22 09:00:03 UTC');
  });

  it('uses Helvetica, loading no font, when everything is Latin-1', async () => {
    const frames: FeedInput[] = [
      { type: 'text', id: 'm1', from_id: 'a', from: 'Zoë', text: 'Ça coûte 5 francs, señor. <i>&</i>', turn: 1 },
    ];
    const exp = buildExport(applyFrames(emptyFeed, frames), meta());
    const before = fontLoads;
    const blob = await renderDiscussionPdf(exp, { loadUnicodeFont });
    expect(fontLoads).toBe(before);
    const raw = Buffer.from(await blob.arrayBuffer()).toString('latin1');
    expect(raw).toContain('/BaseFont /Helvetica');
    expect(raw).not.toContain('DejaVu');
    expect(squash((await pdfText(blob, 'latin1.pdf')).text)).toContain('Ça coûte 5 francs, señor. <i>&</i>');
  });

  it('prints the consensus and the papers of a research discussion', async () => {
    const feed = applyFrames(emptyFeed, transcriptFrames('multi_round_reasoning-research'));
    const exp = buildExport(feed, meta());
    const { text } = await pdfText(await renderDiscussionPdf(exp, { loadUnicodeFont }), 'research.pdf');
    const t = squash(text);
    // the closing row, headed by its verdict, in the words the panel says (outcomeWords.ts)
    expect(t).toContain(`Outcome: ${exp.outcome_words!.headline}`);
    expect(t).toContain(squash(exp.outcome_words!.body));
    // the solution is Cy's last turn: its words printed once (in the turn)
    const solution = squash(exp.consensus!.solution);
    expect(t.split(solution)).toHaveLength(2);
    expect(t).toContain('Research papers (3)');
    expect(t).toContain('Regulated deficit irrigation in Vitis vinifera: a meta-analysis');
    expect(t).toContain('https://arxiv.org/abs/2101.04512');
    expect(t).toContain(`Discussion (${exp.message_count} messages)`);
    // each turn once, under its speaker
    for (const a of exp.argument_tree) expect(t.split(squash(a.content)).length - 1, a.id).toBe(1);
    expect(t).toMatch(/Ada · 2026-11-24 11:47:26 UTC · confidence 61%/); // the recording's first argument
  });

  it('breaks a long discussion over several pages (standard and hybrid)', async () => {
    const frames: FeedInput[] = Array.from({ length: 80 }, (_, i) => ({
      type: 'text' as const,
      id: `m${i}`,
      from_id: 'a',
      from: 'Ada',
      turn: i + 1,
      timestamp: '2026-11-22T09:00:00.000Z',
      text: `Turn ${i + 1}: ${'drip irrigation saves water and labour '.repeat(6)}`,
    }));
    const exp = buildExport(applyFrames(emptyFeed, frames), meta());
    const standard = await pdfText(await renderDiscussionPdf(exp, { loadUnicodeFont }), 'long.pdf');
    expect(standard.pages).toBeGreaterThan(1);
    expect(execFileSync('pdfinfo', [path.join(dir, 'long.pdf')], { encoding: 'utf8' })).toMatch(
      /Pages:\s+([2-9]|\d\d+)/,
    );
    expect(squash(standard.text)).toContain('Turn 80:');
    const hybrid = await pdfText(
      await renderHybridPdf({ ...exp, mode: 'hybrid' }, { loadUnicodeFont }),
      'long-hybrid.pdf',
    );
    expect(hybrid.pages).toBeGreaterThan(1);
    expect(squash(hybrid.text)).toContain('Hybrid Discussion');
    expect(squash(hybrid.text)).toContain('Turn 80:');
  });

  it('renders the hybrid PDF with the Unicode font when needed', async () => {
    const exp = tricky();
    const { text } = await pdfText(await renderHybridPdf(exp, { loadUnicodeFont }), 'tricky-hybrid.pdf');
    expect(squash(text)).toContain('Ça coûte 5 €');
    expect(squash(text)).toContain('Анна');
  });
});

it('a frame applied after export does not change the export (immutability)', () => {
  const feed = applyFrames(emptyFeed, transcriptFrames('basic-sequential'));
  const exp = buildExport(feed, meta());
  applyFrame(feed, { type: 'human_message_local', id: 'late', text: 'late', timestamp: NOW.toISOString() });
  expect(buildExport(feed, meta())).toEqual(exp);
});
