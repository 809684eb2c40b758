// PDF export of a discussion (docs/product.md#discussions-limits), for both panels, in the browser (jspdf, loaded only
// when used).
//
// One layout for both: a title, the session lines, the discussion as the panel shows it — each turn once (speaker,
// time, its text, what the protocol added as one quiet line), the light rows between — then the consensus and the
// papers, and the person's sources the turns cited (pdfCitations.ts: '[S1]' becomes a note under its turn, and a
// 'Sources' section lists each document with its pages). The heading carries the one message count (src/shared/messageCount.ts). The panels differ only in geometry: the standard panel breaks pages when y passes
// PDF_PAGE_BREAK_Y and wraps text at PDF_TEXT_WIDTH; the hybrid panel keeps a PDF_HYBRID_MARGIN margin all round
// and PDF_HYBRID_LINE_SPACING between lines.
//
// Fonts: Helvetica (PDF_FONT), whose encoding covers Latin-1 only. When any text falls outside Latin-1
// (Cyrillic, Greek, the euro sign, …) the whole document uses DejaVu Sans instead, embedded from the bytes the
// caller's loader returns (in the browser: src/services/unicodeFont.ts), so nothing turns into mojibake.
// Text is drawn as text: markup in a message ('<b>', '&', '<script>') appears literally.

import {
  ABSTRACT_PREVIEW_CHARS,
  PDF_FONT,
  PDF_HYBRID_LINE_SPACING,
  PDF_HYBRID_MARGIN,
  PDF_PAGE_BREAK_Y,
  PDF_TEXT_WIDTH,
} from '../schemas/constants';
import type { DiscussionExport } from '../schemas/exportJson';
import { dedupePapers } from '../model/feedSelectors';
import { toolCallLine } from '../model/toolCallText';
import { messageCountLabel } from '../shared/messageCount';
import { ENDPOINT_TITLES } from '../model/standardConfig';
import type { EndpointKey } from '../schemas/constants';
import { citationNotes, type CitationNotes } from './pdfCitations';

export interface PdfOptions {
  /** The bytes of a Unicode TTF (DejaVu Sans); called only when some text is outside Latin-1. */
  loadUnicodeFont: () => Promise<ArrayBuffer | Uint8Array>;
}

/** What the hybrid panel has to print: the export's fields it can fill (configuration and endpoint are not needed). */
export type HybridPdfInput = Pick<
  DiscussionExport,
  'session_id' | 'context' | 'messages' | 'message_count' | 'consensus' | 'exported_at'
> &
  Partial<Pick<DiscussionExport, 'research_results' | 'endpoint' | 'outcome' | 'outcome_words' | 'participants'>> & {
    mode?: string;
  };

interface Geometry {
  title: string;
  left: number;
  top: number;
  width: number;
  /** A line whose baseline would pass this y goes to a new page. */
  bottom: number;
  lineHeight: number;
}

const A4_WIDTH = 210;
const A4_HEIGHT = 297;
export const STANDARD_GEOMETRY: Geometry = {
  title: 'Discussion',
  left: (A4_WIDTH - PDF_TEXT_WIDTH) / 2,
  top: 20,
  width: PDF_TEXT_WIDTH,
  bottom: PDF_PAGE_BREAK_Y,
  lineHeight: 6,
};
export const HYBRID_GEOMETRY: Geometry = {
  title: 'Hybrid Discussion',
  left: PDF_HYBRID_MARGIN,
  top: PDF_HYBRID_MARGIN,
  width: A4_WIDTH - 2 * PDF_HYBRID_MARGIN,
  bottom: A4_HEIGHT - PDF_HYBRID_MARGIN,
  lineHeight: PDF_HYBRID_LINE_SPACING,
};

type Style = 'title' | 'heading' | 'label' | 'body' | 'small';
interface Block {
  text: string;
  style: Style;
  /** Extra space before the block, in line heights. */
  gap?: number;
  /** A table row: its cells, each in its share of the width (`text` is the row read as one line). */
  cells?: { text: string; share: number }[];
  /** The text's colour (an agent's, #rrggbb); black when absent. */
  color?: string;
}

const SIZES: Record<Style, number> = { title: 16, heading: 13, label: 10, body: 10, small: 8 };
const BOLD: Record<Style, boolean> = { title: true, heading: true, label: true, body: false, small: false };

/** Tabs become spaces; other control characters (which no font draws) are dropped; line breaks stay. */
const clean = (s: string) =>
  s
    .replace(/\t/g, '    ')
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, '');

export const needsUnicodeFont = (texts: Iterable<string>): boolean => {
  for (const t of texts) for (let i = 0; i < t.length; i++) if (t.charCodeAt(i) > 0xff) return true;
  return false;
};

function time(ts: string | null | undefined): string {
  if (!ts) return '';
  const d = new Date(ts);
  return Number.isNaN(d.getTime()) ? ts : `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

type Message = DiscussionExport['messages'][number];
/** Rows that are not a turn, named in plain words (a turn is named by its speaker). */
const ROW_LABELS: Record<string, string> = {
  stage: 'Stage',
  acl: 'Note',
  research: 'Research',
  consensus: 'Consensus',
  summary: 'Summary',
  delegation: 'Hand-over',
  system: 'Notice',
  error: 'Problem',
  round: 'Round',
};
const TURN_KINDS = new Set(['hybrid', 'text', 'argument', 'human']);

function speaker(m: Message): string {
  if (m.kind === 'human') return m.agent_name ? `${m.agent_name} (you)` : 'You';
  const role = typeof m.agent_role === 'string' && m.agent_role ? ` (${m.agent_role})` : '';
  return m.agent_name ? `${m.agent_name}${role}` : 'Agent';
}

/** A turn: speaker, time and confidence; its text once; what the protocol added as one quiet line. */
function turnBlocks(m: Message, cited: CitationNotes): Block[] {
  const extra = typeof m.confidence === 'number' ? ` · confidence ${Math.round(m.confidence * 100)}%` : '';
  const when = time(m.timestamp);
  const out: Block[] = [
    {
      text: `${speaker(m)}${when ? ` · ${when}` : ''}${extra}${m.interrupted ? ' · stopped while writing' : ''}`,
      style: 'label',
      gap: 0.5,
    },
  ];
  const { text, notes } = cited.turn(m);
  if (text) out.push({ text, style: 'body' });
  for (const note of notes) out.push({ text: note, style: 'small' });
  const phrases = [...new Set((m.protocol ?? []).map((p) => p.phrase))];
  if (phrases.length) out.push({ text: phrases.join(' · '), style: 'small' });
  for (const call of m.tool_calls ?? []) out.push({ text: toolCallLine(call), style: 'small' });
  return out;
}

function rowBlocks(m: Message, doc: HybridPdfInput): Block[] {
  // The closing row is headed by its verdict, as the panel's is (outcomeWords.ts).
  const label =
    m.kind === 'consensus' && doc.outcome_words
      ? `Outcome: ${doc.outcome_words.headline}`
      : (ROW_LABELS[m.kind] ?? 'Note');
  const who = m.agent_name ? ` · ${m.agent_name}` : '';
  if (m.kind === 'round' || m.kind === 'stage') return [{ text: m.content, style: 'label', gap: 0.5 }];
  return [
    { text: `${label}${who}`, style: 'label', gap: 0.5 },
    ...(m.content ? [{ text: m.content, style: 'body' as const }] : []),
  ];
}

/** Whether a row of the discussion already says `sentence` (the summary row carries the first vote's fate). */
const sentenceSaid = (doc: HybridPdfInput, sentence: string) => doc.messages.some((m) => m.content.includes(sentence));

type Participant = NonNullable<DiscussionExport['participants']>[number];

/** Who took part, each in its colour, with the model it spoke with ('Bo (Economist) · Loopback sim · walk-sim-7b'). */
function participantBlocks(people: readonly Participant[]): Block[] {
  if (people.length === 0) return [];
  return [
    { text: 'Participants', style: 'heading', gap: 1 },
    ...people.map((p) => ({
      text: `${p.name}${p.role ? ` (${p.role})` : ''}${p.model ? ` · ${p.model}` : ''}`,
      style: 'label' as const,
      color: p.color,
    })),
  ];
}

/** Each speaker's colour, the one the feed gives it (by id, else by name where the frames carry no id). */
function speakerColours(people: readonly Participant[]): (m: Message) => string | undefined {
  const byId = new Map(people.map((p) => [p.id, p.color]));
  const byName = new Map(people.map((p) => [p.name, p.color]));
  return (m) => (m.agent_id && byId.get(m.agent_id)) || (m.agent_name ? byName.get(m.agent_name) : undefined);
}

/** A turn's speaker line in its speaker's colour. */
const inColour = (blocks: Block[], color: string | undefined): Block[] =>
  color && blocks.length ? [{ ...blocks[0], color }, ...blocks.slice(1)] : blocks;

/** The document as blocks of text, the same for both panels. */
function blocksOf(doc: HybridPdfInput, title: string): Block[] {
  const blocks: Block[] = [{ text: title, style: 'title' }];
  const meta = [
    doc.session_id ? `Session: ${doc.session_id}` : null,
    doc.endpoint ? `Endpoint: ${doc.endpoint}` : null,
    doc.mode ? `Mode: ${doc.mode}` : null,
    `Exported: ${time(doc.exported_at)}`,
  ].filter((x): x is string => x !== null);
  for (const line of meta) blocks.push({ text: line, style: 'small' });
  if (doc.context) blocks.push({ text: 'Topic', style: 'heading', gap: 1 }, { text: doc.context, style: 'body' });
  blocks.push(...participantBlocks(doc.participants ?? []));

  blocks.push({ text: `Discussion (${messageCountLabel(doc.message_count)})`, style: 'heading', gap: 1 });
  const colourOf = speakerColours(doc.participants ?? []);
  const cited = citationNotes(doc.messages);
  for (const m of doc.messages)
    blocks.push(...(TURN_KINDS.has(m.kind) ? inColour(turnBlocks(m, cited), colourOf(m)) : rowBlocks(m, doc)));

  blocks.push(...formatTables(doc.messages));

  // The outcome itself is the closing row above (its words once); here only what no row says: the changes of mind,
  // and the first vote's fate when no closing row carried it.
  if (doc.outcome && (doc.outcome.changes || doc.outcome.outcome)) {
    blocks.push({ text: 'Outcome', style: 'heading', gap: 1 });
    if (doc.outcome.outcome && !doc.outcome_words?.first_vote && !sentenceSaid(doc, doc.outcome.outcome))
      blocks.push({ text: `${doc.outcome.outcome}.`, style: 'body' });
    if (doc.outcome.changes) {
      const { argument: a, majority: m } = doc.outcome.changes;
      blocks.push({
        text:
          a || m
            ? `Changes of position: ${a} changed after an argument, ${m} followed the majority.`
            : 'No agent changed its position.',
        style: 'body',
      });
    }
  } else if (doc.consensus && !doc.outcome_words) {
    // An export from before the outcome had words: its consensus figures only (the solution is a turn's words).
    const c = doc.consensus;
    blocks.push(
      { text: 'Consensus', style: 'heading', gap: 1 },
      {
        text: `Confidence ${Math.round(c.confidence * 100)}% · support ${Math.round(c.support_level * 100)}%`,
        style: 'small',
      },
    );
  }

  const papers = dedupePapers(doc.research_results ?? []);
  if (papers.length > 0) {
    blocks.push({ text: `Research papers (${papers.length})`, style: 'heading', gap: 1 });
    for (const p of papers) {
      const authors = Array.isArray(p.authors) ? p.authors.join(', ') : p.authors;
      blocks.push({ text: p.title, style: 'label', gap: 0.5 });
      blocks.push({
        text: [authors, p.year != null ? String(p.year) : '', p.source].filter(Boolean).join(' · '),
        style: 'small',
      });
      if (p.url) blocks.push({ text: p.url, style: 'small' });
      if (p.abstract) {
        const a =
          p.abstract.length > ABSTRACT_PREVIEW_CHARS ? `${p.abstract.slice(0, ABSTRACT_PREVIEW_CHARS)}…` : p.abstract;
        blocks.push({ text: a, style: 'body' });
      }
    }
  }
  if (cited.bibliography.length > 0) {
    blocks.push({ text: `Sources (${cited.bibliography.length})`, style: 'heading', gap: 1 });
    for (const b of cited.bibliography)
      blocks.push({ text: b.name, style: 'label', gap: 0.5 }, { text: b.detail, style: 'small' });
  }
  return blocks.map((b) => ({
    ...b,
    text: clean(b.text),
    ...(b.cells ? { cells: b.cells.map((c) => ({ ...c, text: clean(c.text) })) } : {}),
  }));
}

type Frame = Record<string, unknown> & { type: string };
const frames = (messages: Message[], type: string) =>
  messages.map((m) => (m as { frame?: Frame }).frame).filter((f): f is Frame => f?.type === type);

/** A table: a bold header row, then one row per entry; each cell in its share of the width. */
function table(title: string, shares: number[], header: string[], rows: string[][]): Block[] {
  const row = (cells: string[], style: Style, gap?: number): Block => ({
    text: cells.join('  '),
    style,
    gap,
    cells: cells.map((text, i) => ({ text, share: shares[i] })),
  });
  return [{ text: title, style: 'heading', gap: 1 }, row(header, 'label', 0.5), ...rows.map((r) => row(r, 'body'))];
}

/** A council's ranking and a debate's votes as tables (docs/protocol.md#formats), from the frames the rows keep. */
function formatTables(messages: Message[]): Block[] {
  const out: Block[] = [];
  const ranking = frames(messages, 'ranking').at(-1) as
    | { rows: { label: string; agent_name: string; mean_rank: number | null; ballots: number }[] }
    | undefined;
  if (ranking?.rows.length)
    out.push(
      ...table(
        'Council ranking',
        [0.12, 0.18, 0.4, 0.15, 0.15],
        ['Rank', 'Answer', 'Agent', 'Mean rank', 'Ballots'],
        ranking.rows.map((r, i) => [
          String(i + 1),
          `Answer ${r.label}`,
          r.agent_name,
          r.mean_rank === null ? '—' : r.mean_rank.toFixed(2),
          String(r.ballots),
        ]),
      ),
    );
  const votes = frames(messages, 'vote') as unknown as {
    voter_id: string;
    voter_name?: string;
    side: 'for' | 'against';
    confidence: number;
    phase: 'before' | 'after';
    reason: string;
  }[];
  if (votes.length) {
    out.push(
      ...table(
        'Debate votes',
        [0.12, 0.18, 0.14, 0.14, 0.42],
        ['Phase', 'Judge', 'Side', 'Confidence', 'Reason'],
        votes.map((v) => [
          v.phase === 'before' ? 'Before' : 'After',
          v.voter_id === 'human' ? 'You' : (v.voter_name ?? v.voter_id),
          v.side === 'for' ? 'For' : 'Against',
          `${Math.round(v.confidence * 100)}%`,
          v.reason,
        ]),
      ),
    );
    const result = frames(messages, 'debate_result').at(-1);
    if (typeof result?.text === 'string') out.push({ text: result.text, style: 'body' });
  }
  return out;
}

function toBase64(bytes: Uint8Array): string {
  let bin = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) bin += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(bin);
}

const UNICODE_FONT = 'DejaVuSans';

/** The one layout routine both panels use. */
async function render(doc: HybridPdfInput, geometry: Geometry, opts: PdfOptions): Promise<Blob> {
  // The standard panel's title follows what ran, as the panel's does ('Multi-Round Discussion').
  const ran =
    geometry === STANDARD_GEOMETRY && doc.endpoint && Object.hasOwn(ENDPOINT_TITLES, doc.endpoint)
      ? ENDPOINT_TITLES[doc.endpoint as EndpointKey]
      : null;
  const blocks = blocksOf(doc, ran ?? geometry.title);
  const { jsPDF } = await import('jspdf');
  const pdf = new jsPDF({ unit: 'mm', format: 'a4' });
  let family = PDF_FONT;
  let canBold = true;
  if (needsUnicodeFont(blocks.map((b) => b.text))) {
    const raw = await opts.loadUnicodeFont();
    const bytes = raw instanceof Uint8Array ? raw : new Uint8Array(raw);
    pdf.addFileToVFS(`${UNICODE_FONT}.ttf`, toBase64(bytes));
    pdf.addFont(`${UNICODE_FONT}.ttf`, UNICODE_FONT, 'normal');
    family = UNICODE_FONT;
    canBold = false; // one face embedded; headings stand out by size
  }

  let y = geometry.top;
  for (const block of blocks) {
    const size = SIZES[block.style];
    pdf.setFont(family, BOLD[block.style] && canBold ? 'bold' : 'normal');
    pdf.setFontSize(size);
    pdf.setTextColor(block.color ?? '#000000');
    const lineHeight = Math.max(geometry.lineHeight * (size / SIZES.body), size * 0.3528 * 1.15);
    y += (block.gap ?? 0) * geometry.lineHeight;
    if (block.cells) {
      // A table row: each cell wrapped in its column; the row is as tall as its tallest cell.
      const columns = block.cells.map((c) => pdf.splitTextToSize(c.text, c.share * geometry.width - 2) as string[]);
      const height = Math.max(1, ...columns.map((c) => c.length)) * lineHeight;
      if (y + height - lineHeight > geometry.bottom) {
        pdf.addPage();
        y = geometry.top;
      }
      let x = geometry.left;
      block.cells.forEach((c, i) => {
        columns[i].forEach((line, j) => pdf.text(line, x, y + j * lineHeight));
        x += c.share * geometry.width;
      });
      y += height;
      continue;
    }
    const lines = pdf.splitTextToSize(block.text, geometry.width) as string[];
    for (const line of lines) {
      if (y > geometry.bottom) {
        pdf.addPage();
        y = geometry.top;
      }
      pdf.text(line, geometry.left, y);
      y += lineHeight;
    }
  }
  return new Blob([pdf.output('arraybuffer')], { type: 'application/pdf' });
}

/** The standard panel's PDF (file name: exportFileName('pdf', …) in src/model/exportJson.ts). */
export const renderDiscussionPdf = (exp: DiscussionExport, opts: PdfOptions): Promise<Blob> =>
  render(exp, STANDARD_GEOMETRY, opts);

/** The hybrid panel's PDF (file name: exportFileName('pdf', …) in src/model/exportJson.ts). */
export const renderHybridPdf = (doc: HybridPdfInput, opts: PdfOptions): Promise<Blob> =>
  render(doc, HYBRID_GEOMETRY, opts);
