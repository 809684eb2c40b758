// Small text tools for the offline model: salient words of a topic or a turn, and a word budget.

const STOP = new Set(
  (
    'a an the and or but if then so of to in on at by for with from as is are was were be been being it its this that these those ' +
    'we you they i he she our your their my me us them what which who whom how why when where there here can could should would ' +
    'will shall may might must do does did done not no yes than too very just also more most less least much many some any all ' +
    'each every into onto over under about above below between after before during while because through again further once ' +
    'own same other such only both either neither nor have has had having get gets got make makes made let lets like think ' +
    'point points agree disagree idea ideas said says say still well really yet way ways thing things something anything ' +
    'discuss discussion topic please best good better need needs want wants one two first next last new use used using ' +
    'care cares focus focuses focusing analyse analyses analyze analyzes ensure ensures help helps consider considers expert specialist responsible role assistant always never often make sure ' +
    "you're i'd i'm we're it's that's don't can't isn't aren't won't " +
    // Verbs and time words that topics and prompts are phrased with but that are never their subject.
    'switch switching adopt adopting move moving start starting stop stopping change changing reduce reducing increase ' +
    'increasing improve improves improving build building plan planning choose decide invest investing replace replacing ' +
    'implement implementing study studies keep keeping expand expanding raise lower hire launch introduce remove allow ' +
    'require prefer spend sell grow measure weigh question questions claim claims going season seasons year years month ' +
    'months week weeks today tomorrow soon'
  ).split(/\s+/),
);

/** The words that carry meaning, in order of first appearance, without repeats. */
export function salientWords(text: string, limit = 6): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of text.toLowerCase().match(/[a-z][a-z0-9'-]*[a-z0-9]/g) ?? []) {
    const w = raw.replace(/'s$/, '');
    if (w.length < 4 || STOP.has(w) || seen.has(w)) continue;
    seen.add(w);
    out.push(w);
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * The terms that carry a topic, in order of first appearance: each run of meaningful words between stop words
 * and punctuation, kept as its last two words ("our town library switch from paper cards to online loans" →
 * "town library", "paper cards", "online loans") — compound nouns keep their head at the end.
 */
export function keyTerms(text: string, limit = 6): string[] {
  const out: string[] = [];
  for (const clause of text.toLowerCase().split(/[.,;:!?()"\n]+/)) {
    let run: string[] = [];
    const flush = () => {
      const term = run.slice(-2).join(' ');
      if (term && !out.includes(term)) out.push(term);
      run = [];
    };
    for (const raw of clause.match(/[a-z][a-z0-9'-]*[a-z0-9]/g) ?? []) {
      const w = raw.replace(/'s$/, '');
      if (w.length < 4 || STOP.has(w)) flush();
      else run.push(w);
    }
    flush();
  }
  return out.slice(0, limit);
}

/** The topic as a short noun phrase for sentences like "on <topic>". */
export function shortTopic(topic: string, maxWords = 10): string {
  const first = topic.trim().split(/(?<=[.!?])\s+/)[0] ?? topic;
  const words = first
    .replace(/[.!?:;]+$/, '')
    .split(/\s+/)
    .filter(Boolean);
  const cut = words.slice(0, maxWords).join(' ');
  return words.length > maxWords ? `${cut}…` : cut || 'the question at hand';
}

/** Joins two or three words as "a", "a and b", "a, b and c". */
export function listPhrase(words: string[]): string {
  if (words.length <= 1) return words[0] ?? '';
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/** Whole sentences up to `maxWords`; a single over-long sentence is cut at a word and closed. */
export function fitWords(sentences: string[], maxWords: number): string {
  const out: string[] = [];
  let used = 0;
  for (const s of sentences) {
    const n = s.split(/\s+/).filter(Boolean).length;
    if (used + n <= maxWords) {
      out.push(s);
      used += n;
      continue;
    }
    if (!out.length)
      out.push(
        `${s
          .split(/\s+/)
          .slice(0, Math.max(1, maxWords))
          .join(' ')
          .replace(/[,;:—–-]+$/, '')}.`,
      );
    break;
  }
  return out.join(out.some((s) => s.startsWith('- ')) ? '\n' : ' ');
}

export const capitalize = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);
