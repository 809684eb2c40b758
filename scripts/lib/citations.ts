// Comments that cite documents this repository does not hold — the product specification's 'part N §M' and
// ARCHITECTURE.md — found, and rewritten into links to the repository's own docs (docs/product.md,
// docs/architecture.md, docs/protocol.md). Idempotent; touches only lines that cite (scripts/rewriteCitations.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sourceFiles } from './sourceFiles';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const FOLDERS = ['src', 'server', 'tests', 'scripts', 'bench'];
const SOURCE = /\.(ts|tsx|mjs|js|css)$/;

/** What each numbered section of the specification is about, in docs/product.md's anchors. */
const SECTIONS: Record<string, string> = {
  '1': 'overview',
  '2': 'screens',
  '3': 'entities',
  '4': 'states',
  '5': 'validation',
  '6': 'roles',
  '7': 'calls',
  '8': 'errors',
  '9': 'limits',
};
const AREA: Record<string, string> = { '1': 'workspace', '2': 'discussions' };

/** ARCHITECTURE.md's sections, as the repository's docs hold them. */
const ARCHITECTURE: Array<[RegExp, string]> = [
  [/ARCHITECTURE\.md 'The actor system'/g, 'docs/architecture.md#the-actor-tree'],
  [/ARCHITECTURE\.md 'Derived, not stored'/g, 'docs/architecture.md#rules'],
  [/ARCHITECTURE\.md 'A turn is the unit a reader\s*(\n\s*(\/\/|\*)\s*)?sees'/g, 'docs/architecture.md#rules'],
  [/ARCHITECTURE\.md 'PDF'/g, 'docs/architecture.md#exports'],
  [/ARCHITECTURE\.md 'Streaming replies'/g, 'docs/protocol.md#sockets'],
  [
    /ARCHITECTURE\.md 'Recorded socket\s*(\n\s*(\/\/|\*)\s*)?transcripts'/g,
    'docs/architecture.md#recorded-socket-transcripts',
  ],
  [/the format of ARCHITECTURE\.md:/g, 'the format of docs/architecture.md#recorded-socket-transcripts:'],
  [/Format: ARCHITECTURE\.md \(/g, 'Format: docs/architecture.md#recorded-socket-transcripts ('],
  [/\(ARCHITECTURE\.md, issues\)/g, '(docs/architecture.md, docs/protocol.md)'],
  [/\(ARCHITECTURE\.md\)/g, '(docs/architecture.md#rules)'],
];

export const CITES = /\b[Pp]art [12]\b[^\n]{0,4}§|§\s?\d|ARCHITECTURE\.md/;

/** One line's spec citations as links; `part` is the part the file last named (a bare '§8' continues it). */
function rewriteLine(line: string, state: { part: string | null }): string {
  if (!/§/.test(line)) return line;
  let out = '';
  let rest = line;
  const token = /(?:\b(?:the )?(?:spec(?:ification)?'s |spec )?)?\b([Pp])art ([12]),?\s?(?=§)|§\s?(\d)(?:\.\d+)?/;
  for (let m = token.exec(rest); m; m = token.exec(rest)) {
    out += rest.slice(0, m.index);
    rest = rest.slice(m.index + m[0].length);
    if (m[2]) {
      state.part = m[2];
      continue; // the words 'part N' go; the link that follows names the area
    }
    const part = state.part;
    // A second link on the line names only its anchor: 'docs/product.md#discussions-states, #discussions-limits'.
    const page = out.includes('docs/product.md#') ? '' : 'docs/product.md';
    out += part ? `${page}#${AREA[part]}-${SECTIONS[m[3]]}` : m[0];
  }
  return out + rest;
}

const WIDTH = 120;

/** A comment line the links made too long, broken at a space into lines with the same comment prefix. */
function wrap(line: string, was: string): string[] {
  const length = (l: string) => [...l].length;
  // A '// ── Heading ───' rule keeps its width: the dashes give way.
  const rule = /^(.*\S) (─{3,})$/.exec(line);
  if (rule && length(line) > length(was))
    return [`${rule[1]} ${'─'.repeat(Math.max(3, rule[2].length - (length(line) - length(was))))}`];
  // A one-line '/** … */' that no longer fits opens into a block.
  const doc = /^(\s*)\/\*\* (.*) \*\/$/.exec(line);
  if (doc && length(line) > WIDTH) return [`${doc[1]}/**`, ...wrap(`${doc[1]} * ${doc[2]}`, ''), `${doc[1]} */`];
  return wrapLine(line);
}

function wrapLine(line: string): string[] {
  const prefix = /^(\s*(?:\/\/|\*)\s?)/.exec(line)?.[1];
  if (!prefix || line.length <= WIDTH) return [line];
  const cut = line.lastIndexOf(' ', WIDTH);
  if (cut <= prefix.length) return [line];
  const next = `${prefix.replace(/\/\*\*?\s?$/, ' * ')}${line.slice(cut + 1)}`;
  return [line.slice(0, cut), ...wrapLine(next)];
}

export function rewrite(text: string): string {
  let out = text;
  for (const [re, to] of ARCHITECTURE) out = out.replace(re, to);
  const state: { part: string | null } = { part: null };
  const before = new Set(text.split('\n'));
  return out
    .split('\n')
    .flatMap((l) => {
      const next = rewriteLine(l, state);
      if (next !== l) return wrap(next, l);
      // A line an ARCHITECTURE.md link joined with the next one.
      return before.has(l) ? [l] : wrapLine(l);
    })
    .join('\n');
}

/** Every source file that cites, with its text rewritten (unchanged text when nothing could be), and what still cites. */
export function citations(): { file: string; text: string; next: string; left: string[] }[] {
  const out: { file: string; text: string; next: string; left: string[] }[] = [];
  for (const file of FOLDERS.flatMap((f) => sourceFiles(path.join(ROOT, f), SOURCE))) {
    // The tool and its test name what they look for.
    if (file.endsWith(path.join('scripts', 'lib', 'citations.ts')) || file.endsWith('noOutsideCitations.test.ts'))
      continue;
    const text = readFileSync(file, 'utf8');
    if (!CITES.test(text)) continue;
    const next = rewrite(text);
    const left = next
      .split('\n')
      .flatMap((l, i) => (CITES.test(l) ? [`${path.relative(ROOT, file)}:${i + 1}: ${l.trim()}`] : []));
    out.push({ file, text, next, left });
  }
  return out;
}

/** What still cites a document outside the repo, as it stands on disk. */
export function outsideCitations(): string[] {
  return citations().flatMap((c) =>
    c.text
      .split('\n')
      .flatMap((l, i) => (CITES.test(l) ? [`${path.relative(ROOT, c.file)}:${i + 1}: ${l.trim()}`] : [])),
  );
}
