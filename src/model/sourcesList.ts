import type { FeedItem } from './feed';
import type { Citation, Source } from '../schemas/sources';

// Pure pieces of the person's sources as the panels show them: how a source and a citation are named, which
// files can be added, and the ids a discussion's configuration carries.

/** What the chart that asked for an addition (its `replyTo`) hears when the source has been read. */
export interface SourceAddedEvent {
  type: 'sources.added';
  source: Source;
}

/** What the file input accepts (the server confirms each file's kind by its bytes). */
export const SOURCE_FILE_ACCEPT = '.pdf,.docx,.md,.markdown,.txt,.text,.html,.htm';

const KIND_LABEL: Record<Source['kind'], string> = {
  pdf: 'PDF',
  docx: 'Word',
  markdown: 'Markdown',
  text: 'Text',
  html: 'Web page',
};

/** 'PDF · 12 pages · 40 passages'. */
export function sourceFacts(s: Pick<Source, 'kind' | 'pages' | 'passages'>): string {
  const parts = [KIND_LABEL[s.kind]];
  if (s.kind === 'pdf') parts.push(`${s.pages} ${s.pages === 1 ? 'page' : 'pages'}`);
  parts.push(`${s.passages} ${s.passages === 1 ? 'passage' : 'passages'}`);
  return parts.join(' · ');
}

/**
 * How a source is searched, once the person has chosen an embedding model (docs/sources.md); null before, when
 * every source is searched by words. Short: it sits under the facts in a narrow panel.
 */
const SEARCHED: Record<NonNullable<Source['embedding']>, string | null> = {
  none: null,
  embedding: 'embedding…',
  ready: 'by words and meaning',
  failed: 'embedding failed: by words',
};
export const sourceSearched = (s: Pick<Source, 'embedding'>): string | null => SEARCHED[s.embedding ?? 'none'];

/** A citation chip's words: 'S1 · report.pdf p. 12'; an unverified label says so. */
export function citationLabel(c: Citation): string {
  if (!c.verified) return `${c.label} · not one of the passages given`;
  return `${c.label} · ${c.source_name ?? 'source'}${c.page ? ` p. ${c.page}` : ''}`;
}

/** The attached ids that still name a source (one removed meanwhile is dropped, so a Start never names it). */
export const attachedIds = (attached: readonly string[], sources: readonly Source[]): string[] =>
  attached.filter((id) => sources.some((s) => s.id === id));

/** The passage's text cut around its quote, for the dialog's highlight: [before, quote, after]. */
export function highlight(text: string, quote: string): [string, string, string] {
  const at = quote ? text.indexOf(quote.replace(/…$/, '')) : -1;
  if (at < 0) return [text, '', ''];
  const q = quote.replace(/…$/, '');
  return [text.slice(0, at), q, text.slice(at + q.length)];
}

/** A turn's citations, from its final frame (agent_message, text or argument; the frame was checked by its schema). */
export function citationsOfItem(item: Pick<FeedItem, 'source'>): readonly Citation[] {
  const c = (item.source as { citations?: unknown } | null | undefined)?.citations;
  return Array.isArray(c) ? (c as Citation[]) : [];
}
