import nlp from 'compromise';
import { MASS } from '../../../server/providers/llm/offlineModel/phrases';
import { fixTags } from '../../../server/providers/llm/offlineModel/tagging';

// The shapes of broken English the offline model used to produce ("Basil raises city", "how team interacts with
// environmental"), as checks over one sentence. Each returns the shape's name when the sentence has it. Words in
// quotation marks are someone else's (a person's message quoted back) and are not checked.

export interface Shape {
  name: string;
  found(sentence: string, terms: Tagged[]): boolean;
}

export interface Tagged {
  text: string;
  normal: string;
  tags: Set<string>;
  post: string;
}

const LINKING = new Set([
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'being',
  'seems',
  'seem',
  'looks',
  'look',
  'sounds',
  'sound',
  'stay',
  'stays',
  'remain',
  'remains',
  'feel',
  'feels',
  'get',
  'gets',
  'become',
  'becomes',
  "i'm",
  "it's",
  "that's",
  "we're",
  "they're",
  "you're",
]);
const DEGREE = new Set([
  'than',
  'as',
  'so',
  'too',
  'more',
  'less',
  'very',
  'quite',
  'rather',
  'really',
  'not',
  'still',
  'even',
  'fairly',
  'most',
]);
const COUNTLESS = new Set([
  ...MASS,
  'everything',
  'nothing',
  'something',
  'anyone',
  'everyone',
  'nobody',
  'somebody',
  'someone',
  'anything',
]);

/** Words compromise tags as adjectives that end a sentence as adverbs do ("refine this together."). */
const ADVERBISH = new Set([
  'own',
  'together',
  'enough',
  'round',
  'around',
  'early',
  'late',
  'alone',
  'otherwise',
  'first',
  'ahead',
  'apart',
  'aside',
  'more',
  'less',
]);

const has = (t: Tagged, tag: string) => t.tags.has(tag);
const isBareSingular = (t: Tagged) =>
  has(t, 'Noun') &&
  has(t, 'Singular') &&
  !has(t, 'ProperNoun') &&
  !has(t, 'Pronoun') &&
  !has(t, 'Uncountable') &&
  !has(t, 'Value') &&
  !has(t, 'Date') &&
  !COUNTLESS.has(t.normal) &&
  !/^[A-Z]/.test(t.text);

export const SHAPES: Shape[] = [
  { name: 'repeated word', found: (s) => /\b(\w+)\s+\1\b/i.test(s) },
  {
    name: 'empty slot or stray punctuation',
    found: (s) => /undefined|null|NaN|[{}]|\s[,.;:?]|\s{2}|\b(the|a|an) (the|a|an)\b/i.test(s),
  },
  {
    name: 'sentence ends on a function word',
    found: (s) => /\b(the|a|an|of|to|with|and|or|on|for|about|than|is|are)[.?!]$/i.test(s),
  },
  {
    name: 'a/an before the wrong sound',
    found: (s) => /\ba [aeio][a-z]/i.test(s) || /\ban [bcdfgjklmnpqrstvwxz][a-z]/i.test(s),
  },
  {
    name: 'dangling adjective before a verb or the end',
    found: (_s, terms) =>
      terms.some((t, i) => {
        if (
          !has(t, 'Adjective') ||
          has(t, 'Noun') ||
          /^[A-Z]/.test(t.text) ||
          has(t, 'Comparative') ||
          has(t, 'Superlative') ||
          ADVERBISH.has(t.normal)
        )
          return false;
        const next = terms[i + 1];
        const atEnd = !next || /[.?!;:,]/.test(t.post);
        if (!atEnd && !(has(next, 'Verb') && !has(next, 'Gerund'))) return false;
        // A predicate adjective ("the plan is sound.") is fine: look back over adverbs for a linking verb.
        let j = i - 1;
        while (j >= 0 && (has(terms[j], 'Adverb') || DEGREE.has(terms[j].normal))) j--;
        return !(j >= 0 && (LINKING.has(terms[j].normal) || has(terms[j], 'Copula') || DEGREE.has(terms[j].normal)));
      }),
  },
  {
    name: 'singular count noun without a determiner after a verb or question word',
    found: (_s, terms) =>
      terms.some((t, i) => {
        if (!isBareSingular(t) || i === 0) return false;
        const prev = terms[i - 1];
        const next = terms[i + 1];
        const alone = !next || !has(next, 'Noun') || /[.?!;:,]/.test(t.post);
        return (
          alone &&
          !/[.?!;:,]/.test(prev.post) &&
          ((has(prev, 'Verb') &&
            !has(prev, 'Copula') &&
            !has(prev, 'Auxiliary') &&
            !has(prev, 'Modal') &&
            !has(prev, 'Gerund') &&
            !has(prev, 'Particle') &&
            prev.text !== '') ||
            has(prev, 'QuestionWord'))
        );
      }),
  },
  {
    name: 'plural subject with a singular verb',
    found: (_s, terms) =>
      terms.some((t, i) => {
        if (!(has(t, 'Plural') && has(t, 'Noun') && !/[.?!;:,]/.test(t.post)) || COUNTLESS.has(t.normal)) return false;
        if (
          !['is', 'was', 'has', 'fails', 'matters', 'looks', 'drives', 'belongs', 'costs', 'helps'].includes(
            terms[i + 1]?.normal ?? '',
          )
        )
          return false;
        // "My view of parking fees has …": the plural is not the subject when a preposition comes before its phrase.
        let j = i - 1;
        while (j >= 0 && (has(terms[j], 'Noun') || has(terms[j], 'Adjective')) && !/[.?!;:,]/.test(terms[j].post)) j--;
        return !(j >= 0 && has(terms[j], 'Preposition'));
      }),
  },
  // Shapes a newcomer met in the demo's first discussion; the list grows with every one found.
  {
    name: 'topic phrases set against each other as options',
    found: (s) =>
      /\b(one option is to pair|the trade-off is between|weigh(ed)? against|as the core and|go together: changing one)\b/i.test(
        s,
      ),
  },
  {
    name: "a person's words pasted mid-sentence",
    found: (s) =>
      /\b(you say|you point out that|i hear you that|even if|on the table:) (?!it\b)[a-z]/i.test(s) ||
      /\bfor you all:/i.test(s),
  },
  {
    // 'I'm now in favour of food waste': a side is taken on a proposal, never on what the topic is about.
    name: "a side taken on the topic's phrase instead of a proposal",
    found: (s) =>
      /\b(in favour of|i back|i backed|turned me against|come down against|won't support|i oppose)\s+(?!the proposal\b|this\b|it\b|that\b)/i.test(
        s,
      ),
  },
];

/** Sentences of a turn, with quoted words (someone else's) blanked out of the checks. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/\n/)
    .flatMap((line) => line.replace(/^- /, '').split(/(?<=[.?!]"?)\s+(?=[A-Z"0-9€$£])/))
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The broken shapes found in one sentence. */
export function brokenShapes(sentence: string): string[] {
  const unquoted = sentence
    .replace(/"[^"]*"/g, 'it')
    .replace(/\[\d+\]|\[\^\d+\]/g, '')
    .trim();
  if (!unquoted) return [];
  const terms: Tagged[] = [];
  for (const s of nlp(unquoted).json() as Array<{
    terms: Array<{ text: string; normal: string; tags: string[]; post: string }>;
  }>) {
    for (const t of s.terms) terms.push({ text: t.text, normal: t.normal, tags: new Set(t.tags), post: t.post });
  }
  return SHAPES.filter((shape) => shape.found(unquoted, fixTags(terms))).map((shape) => shape.name);
}
