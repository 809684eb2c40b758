import type { Citation } from '../../src/schemas/sources';

// From a turn's words to its citations: each label the agent used ('[S1]', '[S1, S3]') in the order it first
// appears; a label naming a passage the agent was given is verified, with the passage's sentence closest to the
// claim as the quote; any other label is kept as written and listed unverified.

/** A passage as one turn's prompt gave it, under its label. */
export interface GivenPassage {
  label: string;
  passage_id: string;
  source_id: string;
  source_name: string;
  page: number | null;
  text: string;
}

const LABELS = /\[(S\d{1,2}(?:\s*[,;]\s*S\d{1,2})*)\]/g;
const MAX_CITATIONS = 20;
const QUOTE_MAX = 300;

const words = (s: string) => new Set((s.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).map((w) => w));
const sentences = (s: string) =>
  s
    .split(/(?<=[.!?…])\s+/)
    .map((x) => x.trim())
    .filter(Boolean);

/** The sentence of the content around a label's position: what the agent claims with it. */
function claimAt(content: string, index: number): string {
  const before = content.lastIndexOf('. ', index);
  const after = content.indexOf('. ', index);
  return content.slice(before < 0 ? 0 : before + 2, after < 0 ? content.length : after + 1);
}

/** The passage's sentence sharing the most words with the claim (its first when none shares any). */
export function quoteFor(passageText: string, claim: string): string {
  const claimWords = words(claim);
  let best = '';
  let bestScore = -1;
  for (const s of sentences(passageText)) {
    let score = 0;
    for (const w of words(s)) if (claimWords.has(w)) score++;
    if (score > bestScore) {
      best = s;
      bestScore = score;
    }
  }
  return best.length > QUOTE_MAX ? `${best.slice(0, QUOTE_MAX - 1)}…` : best;
}

export function citationsOf(content: string, given: readonly GivenPassage[]): Citation[] {
  const out: Citation[] = [];
  const seen = new Set<string>();
  for (const m of content.matchAll(LABELS)) {
    for (const label of m[1].split(/\s*[,;]\s*/)) {
      if (seen.has(label) || out.length >= MAX_CITATIONS) continue;
      seen.add(label);
      const g = given.find((p) => p.label === label);
      out.push(
        g
          ? {
              label,
              source_id: g.source_id,
              source_name: g.source_name,
              passage_id: g.passage_id,
              page: g.page,
              quote: quoteFor(g.text, claimAt(content, m.index ?? 0)),
              verified: true,
            }
          : { label, source_id: null, source_name: null, passage_id: null, page: null, quote: '', verified: false },
      );
    }
  }
  return out;
}
