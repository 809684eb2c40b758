import { fixTags, has, isNoun, isVerbWord, PRONOUN_DETERMINERS, termsOf, type Term } from './tagging';

// The offline model's grasp of English: the noun phrases a topic or a message is about ("city parking fees", "the
// environmental impact"), how to refer to one in a sentence (with an article when a singular count noun needs one),
// and a topic question turned into a clause ("whether Basil should raise city parking fees to fund bike lanes").
// compromise tags the words; the rules below fix its one habitual slip on questions (it reads "Should our school
// switch to …" as a noun "school switch") by finding the verb the modal governs. Results are cached per text.

export interface NounPhrase {
  /** As written, without a leading article or possessive: "city parking fees", "environmental impact". */
  text: string;
  /** The last word: what the phrase is about. */
  head: string;
  plural: boolean;
  /** A name ("Basil", "Lisbon"): never takes an article. */
  proper: boolean;
  /** A mass noun ("water", "food waste"): no article needed. */
  mass: boolean;
}

/** Nouns too vague to carry a point on their own. */
const VAGUE = new Set([
  'way',
  'ways',
  'thing',
  'things',
  'lot',
  'lots',
  'kind',
  'sort',
  'idea',
  'ideas',
  'question',
  'questions',
  'point',
  'points',
  'year',
  'years',
  'month',
  'months',
  'week',
  'weeks',
  'day',
  'days',
  'time',
  'times',
  'people',
  'someone',
  'something',
  'anything',
  'everyone',
  'anyone',
  'anybody',
  'everybody',
  'somebody',
  'nobody',
  'part',
  'case',
  'fact',
  'number',
  'side',
  'place',
  'end',
  'start',
  'one',
  'ones',
  'best',
  'option',
  'options',
]);

/** Mass nouns compromise does not mark as such; they read fine without an article. */
export const MASS = new Set([
  'evidence',
  'attention',
  'research',
  'money',
  'water',
  'time',
  'data',
  'information',
  'advice',
  'feedback',
  'progress',
  'work',
  'traffic',
  'funding',
  'waste',
  'food',
  'energy',
  'software',
  'training',
  'safety',
  'security',
  'health',
  'income',
  'revenue',
  'pollution',
  'parking',
  'housing',
  'transport',
  'transportation',
  'equipment',
  'staff',
  'management',
  'maintenance',
  'insurance',
  'irrigation',
  'education',
  'access',
  'infrastructure',
  'demand',
  'supply',
  'privacy',
  'trust',
  'quality',
  'productivity',
  'growth',
  'noise',
  'heat',
  'electricity',
  'fuel',
  'climate',
  'weather',
  'knowledge',
  'experience',
  'support',
  'help',
  'space',
  'land',
  'soil',
  'air',
  'light',
  'power',
  'capital',
  'debt',
  'tourism',
  'agriculture',
  'childcare',
  'healthcare',
  'welfare',
  'recycling',
  'compost',
  'mulch',
  'grain',
  'wine',
  'coffee',
  'bread',
]);

/** Nouns that also read as verbs and often sit inside a compound ("a family farm offer …", "code review"). */
const NOUNISH = new Set([
  'farm',
  'code',
  'school',
  'club',
  'market',
  'park',
  'book',
  'water',
  'fund',
  'house',
  'plant',
  'team',
  'staff',
  'group',
  'shop',
  'store',
  'bus',
  'train',
  'bank',
  'office',
  'garden',
  'field',
  'land',
  'power',
  'light',
  'work',
  'trade',
  'film',
  'council',
  'board',
  'press',
  'space',
  'air',
  'home',
  'ship',
  'program',
  'network',
]);

/** Words that open a compound object ("fund bike lanes", "ban car traffic"): after one, the word before is the verb. */
const COMPOUND_FIRST = new Set([
  'bike',
  'bikes',
  'car',
  'cars',
  'cycle',
  'bus',
  'road',
  'street',
  'screen',
  'tree',
  'rail',
  'tram',
  'phone',
  'solar',
  'wind',
  'sugar',
  'plastic',
  'speed',
  'traffic',
]);

const MODALS = new Set(['should', 'can', 'could', 'would', 'will', 'must', 'shall', 'might', 'may']);
const COPULAS = new Set(['is', 'are', 'was', 'were']);

/** A word that can stand inside a noun phrase before its head. */
const isModifier = (t: Term) =>
  (has(t, 'Adjective') || has(t, 'Value') || has(t, 'Gerund') || has(t, 'Hyphenated') || isNoun(t)) &&
  !has(t, 'Copula') &&
  !has(t, 'Modal') &&
  !(has(t, 'Comparative') && ['better', 'worse', 'more', 'less', 'cheaper', 'faster', 'easier'].includes(t.normal)) &&
  !has(t, 'Superlative');
const ends = (t: Term) => /[.,;:!?()"—–]/.test(t.post);

/**
 * The terms of a question with the verb its modal governs tagged as a verb: "Should our school switch to …" —
 * compromise makes "our school switch" one noun; the first word after the subject's first noun that reads as a
 * verb is the verb. Returns the terms and where the subject and the verb are, when the text is such a question.
 */
function parseQuestion(
  text: string,
): { terms: Term[]; modalAt: number; subject: [number, number]; verbAt: number } | null {
  const terms = fixTags(termsOf(text));
  let m = 0;
  if (terms[0] && has(terms[0], 'QuestionWord')) m = 1;
  const modal = terms[m];
  if (!modal || !(MODALS.has(modal.normal) || COPULAS.has(modal.normal))) return null;
  let i = m + 1;
  const start = i;
  let firstNoun = -1;
  while (
    i < terms.length &&
    (has(terms[i], 'Determiner') ||
      PRONOUN_DETERMINERS.has(terms[i].normal) ||
      isModifier(terms[i]) ||
      has(terms[i], 'ProperNoun'))
  ) {
    if (firstNoun < 0 && isNoun(terms[i])) firstNoun = i;
    if (ends(terms[i])) {
      i++;
      break;
    }
    i++;
  }
  if (firstNoun < 0) return null;
  if (COPULAS.has(modal.normal)) {
    // "Is remote work better for …": the subject ends at its last noun; the rest is the predicate.
    let last = firstNoun;
    for (let k = firstNoun; k < i; k++)
      if (isNoun(terms[k])) last = k;
      else break;
    return { terms, modalAt: m, subject: [start, last + 1], verbAt: last + 1 };
  }
  // A candidate reads as a verb and was not read as an adjective ("free school meals"); two in a row ("a family farm
  // offer …") mean the first is still the subject's noun.
  const candidate = (k: number) => k < i && !has(terms[k], 'Adjective') && isVerbWord(terms[k].normal);
  // A bare verb right after the run is the modal's verb, so every noun before it is the subject's: "Should our town
  // square be closed", "Should the city park stay open".
  const after = terms[i];
  if (after && (after.normal === 'be' || has(after, 'Infinitive')) && !has(after, 'Gerund'))
    return { terms, modalAt: m, subject: [start, i], verbAt: i };
  for (let k = firstNoun + 1; k < i; k++) {
    if (
      candidate(k) &&
      !(NOUNISH.has(terms[k].normal) && candidate(k + 1) && !COMPOUND_FIRST.has(terms[k + 1].normal))
    ) {
      terms[k].tags = new Set(['Verb', 'Infinitive']);
      return { terms, modalAt: m, subject: [start, k], verbAt: k };
    }
  }
  if (i < terms.length && has(terms[i], 'Verb')) return { terms, modalAt: m, subject: [start, i], verbAt: i };
  return null;
}

const join = (terms: Term[]) =>
  terms
    .map((t, k) => t.text + (k < terms.length - 1 ? t.post.replace(/[^-—–,;:\s]/g, '') || ' ' : ''))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
const clean = (s: string) => s.replace(/[.?!;:,"]+$/g, '').trim();

/** Noun phrases of a text, in order of appearance, without repeats (by their words). */
export function nounPhrases(text: string, exclude: ReadonlySet<string> = new Set()): NounPhrase[] {
  const terms = parseQuestion(text)?.terms ?? fixTags(termsOf(text));
  const out: NounPhrase[] = [];
  let run: Term[] = [];
  const flush = () => {
    // A phrase ends in its head noun: trailing modifiers ("work better") are not part of it.
    while (run.length && !isNoun(run[run.length - 1])) run.pop();
    // A leading verb is not part of the phrase: "losing customers" is about customers ("parking lots" keeps its noun).
    while (
      run.length > 1 &&
      (has(run[0], 'Verb') || /ing$/.test(run[0].normal)) &&
      !MASS.has(run[0].normal) &&
      !isNoun(run[0])
    )
      run.shift();
    while (run.length > 1 && /ing$/.test(run[0].normal) && has(run[0], 'Actor')) run.shift();
    while (
      run.length &&
      ['has', 'have', 'had', 'is', 'are', 'do', 'does', 'did', 'was', 'were'].includes(run[0].normal)
    )
      run.shift();
    if (run.length) {
      const last = run[run.length - 1];
      const words = run.map((t) => t.text);
      const text = clean(join(run));
      const head = clean(last.text).toLowerCase();
      const key = text.toLowerCase();
      // A name: tagged as one, or capitalised where a sentence does not start.
      const proper = run.every((t) => /^[A-Z]/.test(t.text) && (has(t, 'ProperNoun') || midSentence(terms, t)));
      // A vague or time word is a point only with something before it ("a four-day week", "parking lots").
      const single = run.length === 1;
      const gerund = !single && has(run[0], 'Gerund') && !MASS.has(run[0].normal);
      // "next season", "this year": a time, not a subject.
      const when =
        has(last, 'Date') &&
        run
          .slice(0, -1)
          .every((w) =>
            ['next', 'last', 'this', 'every', 'coming', 'following', 'previous', 'each'].includes(w.normal),
          );
      if (
        !when &&
        !(single && (VAGUE.has(head) || has(last, 'Date') || has(last, 'Value'))) &&
        !exclude.has(head) &&
        !exclude.has(key) &&
        !out.some((p) => p.text.toLowerCase() === key) &&
        words.join('').length > 2
      ) {
        // "losing customers" is an activity: singular, and no article.
        out.push({
          text: proper ? text : lowerFirst(text),
          head,
          plural: !gerund && has(last, 'Plural'),
          proper,
          mass: gerund || has(last, 'Uncountable') || MASS.has(head),
        });
      }
    }
    run = [];
  };
  terms.forEach((t) => {
    if (has(t, 'Determiner') || PRONOUN_DETERMINERS.has(t.normal)) {
      flush();
    } else if (isModifier(t) && !(has(t, 'Verb') && !has(t, 'Gerund'))) {
      run.push(t);
    } else flush();
    if (ends(t)) flush();
  });
  flush();
  return out;
}

const midSentence = (terms: Term[], t: Term) => {
  const i = terms.indexOf(t);
  return i > 0 && !/[.?!]/.test(terms[i - 1].post);
};

const lowerFirst = (s: string) => (/^[A-Z][a-z]/.test(s) ? s[0].toLowerCase() + s.slice(1) : s);

/** How a sentence names a phrase: "city parking fees", "food waste", "Basil", "the team". */
export function refer(np: NounPhrase): string {
  return np.plural || np.mass || np.proper ? np.text : `the ${np.text}`;
}

/** "is" or "are" for a phrase as the subject. */
export const be = (np: NounPhrase) => (np.plural ? 'are' : 'is');
/** A present-tense verb agreeing with the phrase: verb(np, 'matter', 'matters'). */
export const agree = (np: NounPhrase, plural: string, singular: string) => (np.plural ? plural : singular);

/**
 * The topic question as a clause that fits after "on": "whether Basil should raise city parking fees to fund bike
 * lanes", "how a small bakery can cut food waste", "the best way to introduce code review". Null when the topic
 * is not a question of those shapes.
 */
export function questionClause(topic: string): string | null {
  const first = topic.trim().split(/(?<=[?.!])\s+/)[0] ?? '';
  if (!first.endsWith('?')) return null;
  const what = /^what(?:'s| is) (the (?:best|right|fairest|cheapest|safest|fastest) way to .+)\?$/i.exec(first);
  if (what) return what[1];
  const q = parseQuestion(first);
  if (!q) return null;
  const { terms, modalAt, subject, verbAt } = q;
  const subj = terms.slice(subject[0], subject[1]);
  const rest = terms.slice(verbAt);
  if (!subj.length || !rest.length) return null;
  const word = modalAt === 1 ? terms[0].normal : 'whether';
  if (!['whether', 'how', 'why', 'when', 'where'].includes(word)) return null;
  const subjText = join(subj);
  const s = has(subj[0], 'ProperNoun') || subj[0].text === 'I' ? subjText : lowerFirst(subjText);
  return clean(`${word} ${s} ${terms[modalAt].normal} ${join(rest)}`);
}

/** The words of a question's subject ("a small bakery" in "How can a small bakery cut …"), in lower case; null if none. */
export function questionSubject(topic: string): string | null {
  const q = parseQuestion(topic.trim().split(/(?<=[?.!])\s+/)[0] ?? '');
  return q ? join(q.terms.slice(q.subject[0], q.subject[1])).toLowerCase() : null;
}

export type MessageKind = 'question' | 'suggestion' | 'claim' | 'other';

export interface MessageTake {
  kind: MessageKind;
  /** Its first sentence, as a clause to quote or embed (no closing punctuation; the first letter lower case unless a name). */
  clause: string;
  /** The same sentence as written, for quoting ("…"): at most sixteen words. */
  quote: string;
  nps: NounPhrase[];
}

/** What a person said, read for a reply: a question, a suggestion ("Consider water"), a claim, or something else. */
export function readMessage(text: string, exclude: ReadonlySet<string> = new Set()): MessageTake {
  const first = (text.trim().split(/(?<=[.?!])\s+/)[0] ?? text).trim();
  const words = first.split(/\s+/);
  const quote = clean(words.slice(0, 16).join(' ')) + (words.length > 16 ? '…' : '');
  const terms = termsOf(first);
  const t0 = terms[0];
  const nps = nounPhrases(text, exclude);
  const firstPerson = /^(i|i'm|i've|i'd|my|me|we|our|us)\b/i.test(first);
  const body = clean(first);
  const clause = t0 && (has(t0, 'ProperNoun') || /^[A-Z]{2,}/.test(t0.text)) ? body : lowerFirst(body);
  let kind: MessageKind = 'other';
  if (
    first.endsWith('?') ||
    (t0 &&
      (has(t0, 'QuestionWord') ||
        MODALS.has(t0.normal) ||
        COPULAS.has(t0.normal) ||
        ['do', 'does', 'did'].includes(t0.normal)))
  )
    kind = 'question';
  else if (t0 && (has(t0, 'Imperative') || (has(t0, 'Infinitive') && !has(t0, 'Noun')))) kind = 'suggestion';
  else if (!firstPerson && words.length >= 3 && terms.some((t) => has(t, 'Verb')) && /^[a-z0-9]/i.test(first))
    kind = 'claim';
  return { kind, clause, quote, nps };
}
