import type { SourceKind } from '../../../src/schemas/sources';
import { readDocx } from './docx';
import { readHtml } from './html';
import { readPdf } from './pdf';
import { decodeText, markdownSections, textSections } from './text';
import { type ReadDocument, type ReadLimits, UnreadableSource } from './types';

// One entrance for every kind of source: the kind named by the file's name, confirmed by its first bytes (a
// file whose bytes are of another kind than its name says is refused), then read by that kind's reader.

const BY_EXTENSION: Record<string, SourceKind> = {
  pdf: 'pdf',
  docx: 'docx',
  md: 'markdown',
  markdown: 'markdown',
  txt: 'text',
  text: 'text',
  html: 'html',
  htm: 'html',
};
export const ACCEPTED_EXTENSIONS = Object.keys(BY_EXTENSION).map((e) => `.${e}`);

const KIND_WORDS: Record<SourceKind, string> = {
  pdf: 'a PDF',
  docx: 'a Word document (.docx)',
  markdown: 'Markdown text',
  text: 'plain text',
  html: 'an HTML page',
};

const textDocument =
  (kind: 'markdown' | 'text', split: (text: string) => ReadDocument['sections']) =>
  async (bytes: Uint8Array): Promise<ReadDocument> => ({
    kind,
    title: null,
    pages: 1,
    sections: split(decodeText(bytes, KIND_WORDS[kind])),
  });

/** Each kind's reader. */
const READERS: Record<SourceKind, (bytes: Uint8Array, limits: ReadLimits) => Promise<ReadDocument>> = {
  pdf: readPdf,
  docx: readDocx,
  html: (bytes) => readHtml(decodeText(bytes, KIND_WORDS.html)),
  markdown: textDocument('markdown', markdownSections),
  text: textDocument('text', textSections),
};

const startsWith = (bytes: Uint8Array, magic: string) =>
  bytes.length >= magic.length && [...magic].every((c, i) => bytes[i] === c.charCodeAt(0));

/** The kind a file's bytes are, where they say it (PDF and zip have signatures; text has none). */
function sniffed(bytes: Uint8Array): 'pdf' | 'zip' | null {
  // A PDF may have a few bytes of junk before its header (pdf.js accepts up to 1 KB); most start with it.
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  if (head.includes('%PDF-')) return 'pdf';
  if (startsWith(bytes, 'PK\u0003\u0004')) return 'zip';
  return null;
}

export function kindOfName(name: string): SourceKind | null {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return ext ? (BY_EXTENSION[ext] ?? null) : 'text';
}

export async function readSourceFile(name: string, bytes: Uint8Array, limits: ReadLimits): Promise<ReadDocument> {
  const kind = kindOfName(name);
  if (!kind)
    throw new UnreadableSource(
      `Sources can be PDF, Word (.docx), Markdown, plain text or HTML files (${ACCEPTED_EXTENSIONS.join(', ')}).`,
      415,
    );
  if (!bytes.length) throw new UnreadableSource('The file is empty.');
  const sniff = sniffed(bytes);
  const expected = kind === 'pdf' ? 'pdf' : kind === 'docx' ? 'zip' : null;
  if (sniff !== expected) {
    const is = sniff === 'pdf' ? 'a PDF' : sniff === 'zip' ? 'a zip archive' : 'text';
    throw new UnreadableSource(
      `This file's name says ${KIND_WORDS[kind]}, but its content is ${is}; rename it or add the right file.`,
      415,
    );
  }
  return READERS[kind](bytes, limits);
}
