import { type Section, UnreadableSource } from './types';

// Plain text and Markdown: decoded as UTF-8 (a file that is not text is refused); Markdown's headings open
// sections, so a passage knows the heading it sits under.

const decoder = new TextDecoder('utf-8', { fatal: true });

export function decodeText(bytes: Uint8Array, what: string): string {
  // A NUL byte does not occur in text; a binary file given a text name is refused here.
  if (bytes.includes(0)) throw new UnreadableSource(`This file is not ${what}: it holds binary data.`, 415);
  try {
    return decoder.decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw new UnreadableSource(`This file is not ${what}: it is not UTF-8 text.`, 415);
  }
}

export function textSections(text: string): Section[] {
  return [{ page: null, heading: null, text }];
}

const HEADING = /^ {0,3}(#{1,6})\s+(.+?)\s*#*\s*$/;
const FENCE = /^ {0,3}(```|~~~)/;

export function markdownSections(text: string): Section[] {
  const sections: Section[] = [];
  let heading: string | null = null;
  let lines: string[] = [];
  let fenced = false;
  const flush = () => {
    const body = lines.join('\n').trim();
    if (body) sections.push({ page: null, heading, text: stripMarkdown(body) });
    lines = [];
  };
  for (const line of text.split(/\r?\n/)) {
    if (FENCE.test(line)) fenced = !fenced;
    const h = fenced ? null : HEADING.exec(line);
    if (h) {
      flush();
      heading = stripMarkdown(h[2]).slice(0, 200);
    } else lines.push(line);
  }
  flush();
  return sections;
}

/** The words of Markdown without its marks: links keep their text, emphasis and code marks go. */
function stripMarkdown(s: string): string {
  return s
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|\*|_|`)(?=\S)([^*_`]+?)\1/g, '$2')
    .replace(/^\s*>\s?/gm, '')
    .replace(/^\s*[-*+]\s+/gm, '')
    .replace(/^```.*$/gm, '');
}
