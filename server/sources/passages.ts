import type { Section } from './read/types';
import { UnreadableSource } from './read/types';

// A document's sections cut into passages of about 300–500 words: a passage never crosses a heading or a page,
// and repeats the previous passage's last sentence, so a claim split across the
// cut is whole in one of them.

export const PASSAGE_TARGET_WORDS = 400;
export const PASSAGE_MAX_WORDS = 500;
const LONG_SENTENCE_WORDS = 120;

export interface PassageDraft {
  page: number | null;
  heading: string | null;
  text: string;
}

interface Sentence {
  text: string;
  words: number;
  page: number | null;
}

const wordCount = (s: string) => (s.match(/\S+/g) ?? []).length;

/** A section's sentences; a run of words with no full stop is cut every LONG_SENTENCE_WORDS words. */
export function sentencesOf(text: string): string[] {
  const out: string[] = [];
  for (const para of text.split(/\n\s*\n|\r?\n(?=\s*[-*•\d])/)) {
    const flat = para.replace(/\s+/g, ' ').trim();
    if (!flat) continue;
    for (const s of flat.split(/(?<=[.!?…]["')\]]?)\s+(?=[A-Z0-9"'([])/)) {
      const words = s.split(' ');
      for (let i = 0; i < words.length; i += LONG_SENTENCE_WORDS)
        out.push(words.slice(i, i + LONG_SENTENCE_WORDS).join(' '));
    }
  }
  return out;
}

export function passagesOf(sections: Section[], maxPassages: number): PassageDraft[] {
  const out: PassageDraft[] = [];
  let current: Sentence[] = [];
  let words = 0;
  let heading: string | null = null;
  // Sentences added since the last passage: one made only of the repeated sentence is not a passage.
  let fresh = 0;
  const emit = () => {
    if (!fresh) return;
    fresh = 0;
    if (out.length >= maxPassages)
      throw new UnreadableSource(
        `This document is longer than ${maxPassages} passages (SOURCE_MAX_PASSAGES); split it into smaller files.`,
        413,
      );
    out.push({ page: current[0].page, heading, text: current.map((s) => s.text).join(' ') });
  };
  for (const section of sections) {
    // A passage never crosses a heading or a page, so the page a citation names is the page its words are on.
    if (section.heading !== heading || (current.length && section.page !== current[0].page)) {
      emit();
      current = [];
      words = 0;
      heading = section.heading;
    }
    for (const text of sentencesOf(section.text)) {
      const s = { text, words: wordCount(text), page: section.page };
      if (current.length && words + s.words > PASSAGE_MAX_WORDS) {
        emit();
        // The last sentence opens the next passage too (unless it alone is most of one).
        const last = current[current.length - 1];
        current = last.words < PASSAGE_TARGET_WORDS / 2 ? [last] : [];
        words = current.reduce((n, x) => n + x.words, 0);
      }
      current.push(s);
      words += s.words;
      fresh++;
      if (words >= PASSAGE_TARGET_WORDS) {
        emit();
        current = s.words < PASSAGE_TARGET_WORDS / 2 ? [s] : [];
        words = current.reduce((n, x) => n + x.words, 0);
      }
    }
  }
  emit();
  return out;
}
