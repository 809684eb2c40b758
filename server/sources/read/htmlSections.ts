import type { Section } from './types';

// The sections of an HTML body (a web page's main text, a Word file converted by mammoth): every heading opens
// one; paragraphs, list items, cells and quotes under it are its text.

const BLOCKS = new Set(['P', 'LI', 'TD', 'TH', 'PRE', 'BLOCKQUOTE', 'DD', 'DT', 'FIGCAPTION', 'CAPTION']);
const HEADINGS = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6']);

interface El {
  tagName?: string;
  textContent: string | null;
  children: ArrayLike<El>;
}

const squash = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();

export function htmlSections(root: El): Section[] {
  const sections: Section[] = [];
  let heading: string | null = null;
  let parts: string[] = [];
  const flush = () => {
    if (parts.length) sections.push({ page: null, heading, text: parts.join('\n') });
    parts = [];
  };
  const walk = (el: El) => {
    const tag = el.tagName?.toUpperCase() ?? '';
    if (HEADINGS.has(tag)) {
      flush();
      heading = squash(el.textContent).slice(0, 200) || null;
      return;
    }
    if (BLOCKS.has(tag)) {
      const t = squash(el.textContent);
      if (t) parts.push(t);
      return;
    }
    const kids = Array.from(el.children);
    // A container of bare text (a <div> of words, no blocks inside) is a paragraph of its own.
    if (!kids.length) {
      const t = squash(el.textContent);
      if (t && tag !== 'SCRIPT' && tag !== 'STYLE') parts.push(t);
      return;
    }
    for (const k of kids) walk(k);
  };
  walk(root);
  flush();
  return sections;
}
