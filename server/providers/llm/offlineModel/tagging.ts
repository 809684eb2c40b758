import type compromise from 'compromise';

// compromise's tags for the words of a text, cached per text, with its habitual slips inside noun phrases fixed
// (phrases.ts reads noun phrases and questions from these).

// compromise takes about half a second to load, so it loads with the offline model's first answer, not with
// the server (the server answers /health sooner).
let nlp: typeof compromise | null = null;

/** Loads the tagger once; the offline provider awaits it before its first answer. */
export async function loadTagger(): Promise<void> {
  nlp ??= (await import('compromise')).default;
}

function tagger(): typeof compromise {
  if (!nlp) throw new Error("the offline model's tagger is not loaded yet (await loadTagger() first)");
  return nlp;
}

export interface Term {
  text: string;
  normal: string;
  tags: Set<string>;
  /** Punctuation after the word (a comma or a full stop ends a phrase). */
  post: string;
}

export const PRONOUN_DETERMINERS = new Set(['its', 'our', 'their', 'my', 'your', 'his', 'her']);

const cache = new Map<string, Term[]>();

export function termsOf(text: string): Term[] {
  const hit = cache.get(text);
  if (hit) return hit;
  const terms: Term[] = [];
  for (const sentence of tagger()(text).json() as Array<{
    terms: Array<{ text: string; normal: string; tags: string[]; post: string }>;
  }>) {
    for (const t of sentence.terms) terms.push({ text: t.text, normal: t.normal, tags: new Set(t.tags), post: t.post });
    if (terms.length) terms[terms.length - 1].post ||= '.';
  }
  if (cache.size > 2000) cache.clear();
  cache.set(text, terms);
  return terms;
}

const verbCache = new Map<string, boolean>();
/** Whether a word reads as a verb both after "they will" and after "to" (so "council" is not, "ban" is). */
export function isVerbWord(word: string): boolean {
  const w = word.toLowerCase();
  const hit = verbCache.get(w);
  if (hit !== undefined) return hit;
  const a =
    (tagger()(`they will ${w}`).json() as Array<{ terms: Array<{ tags: string[] }> }>)[0]?.terms[2]?.tags.includes(
      'Verb',
    ) ?? false;
  const b =
    (tagger()(`to ${w}`).json() as Array<{ terms: Array<{ tags: string[] }> }>)[0]?.terms[1]?.tags.includes('Verb') ??
    false;
  verbCache.set(w, a && b);
  return a && b;
}

export const has = (t: Term, tag: string) => t.tags.has(tag);

const FUNCTION_TAGS = ['Determiner', 'Preposition', 'Conjunction', 'Adverb'];
const opensPhrase = (prev: TaggedTerm | undefined) =>
  !prev || /[.,;:!?]/.test(prev.post) || FUNCTION_TAGS.some((tag) => prev.tags.has(tag)) || prev.tags.has('Verb');

export interface TaggedTerm {
  text: string;
  normal: string;
  tags: Set<string>;
  post: string;
}

/**
 * compromise's habitual slips inside noun phrases, fixed: the plural head of a compound read as a verb ("night
 * shifts better", "paper charts with", "If nurses fail") and a noun after an adjective read as a verb ("remote work
 * in", "public transport for"). Returns new terms; the input is not changed.
 */
export function fixTags<T extends TaggedTerm>(terms: T[]): T[] {
  const out = terms.map((t) => ({ ...t, tags: new Set(t.tags) }));
  out.forEach((t, i) => {
    const prev = out[i - 1];
    const next = out[i + 1];
    const nextOk =
      !next ||
      /[.,;:!?]/.test(t.post) ||
      (['Preposition', 'Conjunction', 'Adjective', 'Comparative', 'Determiner', 'Adverb', 'Value'].some((tag) =>
        next.tags.has(tag),
      ) &&
        next.normal !== 'to');
    const nextNotNoun = !next || /[.,;:!?]/.test(t.post) || (!has(next, 'Noun') && next.normal !== 'to');
    const verbish =
      has(t, 'Verb') &&
      !has(t, 'Copula') &&
      !has(t, 'Modal') &&
      !has(t, 'Auxiliary') &&
      !has(t, 'PastTense') &&
      !has(t, 'Gerund');
    const swapped =
      next &&
      has(next, 'Noun') &&
      !has(next, 'ProperNoun') &&
      !isPronoun(next) &&
      !has(prev ?? t, 'ProperNoun') &&
      opensPhrase(out[i - 2]) &&
      isVerbWord(next.normal.replace(/s$/, '')) &&
      // "shops needs to …" swaps; "the river affects costs, …" does not: a plural next word must be followed by what a verb takes.
      (!has(next, 'Plural') ||
        out[i + 2]?.normal === 'to' ||
        (out[i + 2] !== undefined && has(out[i + 2], 'Determiner')));
    if (
      verbish &&
      /s$/.test(t.normal) &&
      has(t, 'PresentTense') &&
      prev &&
      (isNoun(prev) || has(prev, 'Adjective')) &&
      nextOk
    )
      t.tags = new Set(['Noun', 'Plural']);
    else if (
      verbish &&
      /s$/.test(t.normal) &&
      has(t, 'PresentTense') &&
      prev &&
      (isNoun(prev) || has(prev, 'Adjective')) &&
      swapped
    ) {
      // "then paper charts look", "for small shops needs": the plural, then its verb.
      t.tags = new Set(['Noun', 'Plural']);
      next.tags = new Set(['Verb', 'PresentTense']);
    } else if (
      verbish &&
      /s$/.test(t.normal) &&
      has(t, 'PresentTense') &&
      opensPhrase(prev) &&
      next &&
      (has(next, 'Noun') || has(next, 'Verb'))
    ) {
      // "If nurses fail": the plural opens the clause; the word after it is its verb.
      t.tags = new Set(['Noun', 'Plural']);
      if (has(next, 'Noun') && has(next, 'Singular')) next.tags = new Set(['Verb', 'PresentTense']);
    } else if (
      verbish &&
      !/s$/.test(t.normal) &&
      prev &&
      has(prev, 'Adjective') &&
      !has(prev, 'Comparative') &&
      !(next && (has(next, 'Determiner') || isPronoun(next)))
    ) {
      // An adjective is not followed by a verb: "public transport", "remote work" (and in "public transport fails"
      // the word after it is the verb).
      t.tags = new Set(['Noun', 'Singular']);
      if (next && /s$/.test(next.normal) && has(next, 'Noun') && has(next, 'Plural') && !nextNotNoun)
        next.tags = new Set(['Verb', 'PresentTense']);
    }
  });
  return out;
}
export const isPronoun = (t: Term) => has(t, 'Pronoun') || PRONOUN_DETERMINERS.has(t.normal);
export const isNoun = (t: Term) => has(t, 'Noun') && !isPronoun(t) && !has(t, 'QuestionWord');
