// The PDF's citations (docs/sources.md 'In the app'): each passage a turn cites becomes a numbered note — the turn's
// '[S1]' reads '[1]', and under the turn its notes name the document, the page and the quoted sentence — and a
// 'Sources' section lists each cited document with its pages and who cited it. Pure: pdfExport.ts lays it out.
// A passage keeps its number wherever it is cited again, so the notes and the bibliography agree.
import { citedSources } from '../model/citedSources';
import type { DiscussionExport } from '../schemas/exportJson';
import type { Citation } from '../schemas/sources';

type Message = DiscussionExport['messages'][number];

export interface CitationNotes {
  /** A turn's text with its labels as note markers, and its notes ('[1] report.pdf, p. 12: "…"'). */
  turn(m: Message): { text: string; notes: string[] };
  /** Each cited document: its name, then its pages, its notes and who cited it, in one line. */
  bibliography: { name: string; detail: string }[];
}

const key = (c: Citation) => `${c.source_id}\u0000${c.passage_id}`;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const pagesOf = (pages: readonly number[]) =>
  pages.length === 0 ? null : pages.length === 1 ? `p. ${pages[0]}` : `pp. ${pages.join(', ')}`;

export function citationNotes(messages: readonly Message[]): CitationNotes {
  const numbers = new Map<string, number>();
  for (const m of messages)
    for (const c of m.citations ?? []) if (c.verified && !numbers.has(key(c))) numbers.set(key(c), numbers.size + 1);

  const turn = (m: Message) => {
    let text = m.content;
    const notes: string[] = [];
    for (const c of m.citations ?? []) {
      if (!c.verified) {
        notes.push(`[${c.label}] names no passage the agent was given.`);
        continue;
      }
      const n = numbers.get(key(c))!;
      text = text.replace(new RegExp(`\\[${escape(c.label)}\\]`, 'g'), `[${n}]`);
      const page = c.page ? `, p. ${c.page}` : '';
      notes.push(`[${n}] ${c.source_name ?? 'Source'}${page}${c.quote ? `: "${c.quote}"` : ''}`);
    }
    return { text, notes };
  };

  const bibliography = citedSources(
    messages.map((m) => ({ agent: m.agent_name ?? null, citations: m.citations ?? [] })),
  )
    .map((s) => {
      const marks = [
        ...new Set(
          messages.flatMap((m) =>
            (m.citations ?? [])
              .filter((c) => c.verified && c.source_id === s.sourceId)
              .map((c) => numbers.get(key(c))!),
          ),
        ),
      ].sort((a, b) => a - b);
      const by = s.by.map((b) => `${b.agent} ×${b.count}`).join(', ');
      const detail = [pagesOf(s.pages), `notes ${marks.join(', ')}`, `cited by ${by}`].filter(Boolean).join(' · ');
      return { name: s.name, detail };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
  return { turn, bibliography };
}
