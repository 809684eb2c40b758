// What a person's message gives an agent to answer: the sentences that state a fact (quoted whole, as written,
// so names and figures stay exactly right), the figures themselves ("38 million euros a year"), and the questions
// in it with the agent each is put to ("Tomas, would free fares overcrowd your route 12?").

export interface Ask {
  /** The agent the question is put to by name, or null when it is put to everyone. */
  to: string | null;
  /** The question as written, without the name that addresses it, capitalised: "Would free fares …?". */
  text: string;
  /** Whether it asks for yes or no (it opens with a modal or auxiliary verb). */
  yesNo: boolean;
}

export interface PersonMessage {
  /** Sentences that state something, label ("Data point for you all:") removed, as written. */
  facts: string[];
  /** Figures with their unit or magnitude, as written: "38 million euros a year", "40%", "€2,000". */
  figures: string[];
  asks: Ask[];
}

const UNIT =
  '(?:euros?|dollars?|pounds?|francs?|kronor|yen|hours?|minutes?|days?|weeks?|months?|years?|people|passengers|riders|trips|' +
  'journeys|jobs|km|kilometres|kilometers|miles|tonnes|tons|cars|buses|seats|students|pupils|patients|customers|residents|' +
  'visitors|users|beds|nurses|teachers|homes|households|percent|per cent)';
const FIGURE = new RegExp(
  `(?:[$€£]\\s?\\d[\\d,.]*(?:\\s(?:thousand|million|billion|bn|m|k)\\b)?|\\d[\\d,.]*(?:\\s?%|\\s(?:thousand|million|billion)` +
    `(?:\\s${UNIT})?|\\s${UNIT}))(?:\\s(?:a|per|each|every)\\s(?:year|month|week|day|head|person))?`,
  'gi',
);
const OPENERS = /^(would|will|could|can|should|do|does|did|is|are|was|were|has|have|had|may|might|must|shall)\b/i;

/** A person's message read for the agent `self` among `names` (the agents in the room). */
export function readPerson(text: string, names: readonly string[]): PersonMessage {
  const sentences = text
    .replace(/\s+/g, ' ')
    .trim()
    .split(/(?<=[.?!])\s+(?=["'A-Z0-9€$£])/)
    .filter(Boolean);
  const facts: string[] = [];
  const asks: Ask[] = [];
  for (const raw of sentences) {
    const s = unlabel(raw.trim());
    if (s.endsWith('?')) {
      const named = addressee(s, names);
      const body = named ? named.rest : s;
      asks.push({ to: named?.name ?? null, text: body[0].toUpperCase() + body.slice(1), yesNo: OPENERS.test(body) });
    } else if (/[A-Za-z]/.test(s) && s.split(/\s+/).length >= 3) facts.push(/[.!]$/.test(s) ? s : `${s}.`);
  }
  const figures = [...new Set(facts.flatMap((f) => f.match(FIGURE) ?? []).map((f) => f.trim().replace(/[.,]$/, '')))];
  return { facts, figures, asks };
}

/** "Data point for you all: Tallinn made …" → "Tallinn made …": a lead-in without a verb before a colon goes. */
function unlabel(s: string): string {
  const at = s.indexOf(':');
  if (at < 0 || at > 40) return s;
  const label = s.slice(0, at);
  const rest = s.slice(at + 1).trim();
  return rest && label.split(/\s+/).length <= 6 && !/\b(is|are|was|were|has|have|had|did|does|do)\b/i.test(label)
    ? rest
    : s;
}

/** "Tomas, would …?" or "Would …, Tomas?": the name and the question without it. */
function addressee(s: string, names: readonly string[]): { name: string; rest: string } | null {
  for (const name of names) {
    const esc = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const front = new RegExp(`^(?:and |so |ok,? |okay,? )?${esc},\\s*`, 'i').exec(s);
    if (front) return { name, rest: s.slice(front[0].length) };
    const back = new RegExp(`,\\s*${esc}\\s*\\?$`, 'i').exec(s);
    if (back) return { name, rest: `${s.slice(0, back.index)}?` };
  }
  return null;
}
