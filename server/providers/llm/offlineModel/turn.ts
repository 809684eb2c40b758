import type { TurnContext } from '../../../engine/turnAnswer';
import type { PersonMessage } from './person';
import type { MessageTake, NounPhrase } from './phrases';
import type { Rng } from './seeded';
import type { Position, Temperament } from './stance';

// One turn being composed: what the agent knows (its temperament, position, the topic's noun phrases, what was
// just said) and the helpers every part of the turn uses to stay fresh (a sentence is never said twice).

export type Heard = TurnContext['history'][number];

export interface Turn {
  ctx: TurnContext;
  t: Temperament;
  rng: Rng;
  pos: Position;
  personality: string;
  /** The last thing this agent heard from someone else. */
  last: Heard | undefined;
  /** This agent's own previous turn, if it spoke before. */
  mine: Heard | undefined;
  /** The topic's noun phrases (never empty: a neutral fallback stands in). */
  nps: NounPhrase[];
  /** This turn's subject and the phrase it is weighed against. */
  a: NounPhrase;
  b: NounPhrase;
  /** The topic question as a clause ("whether …", "how …"), when it is one. */
  clause: string | null;
  /** The latest person's message this agent has not answered yet. */
  human: { said: Heard; take: MessageTake; person: PersonMessage } | null;
  role: string;
  /** Everything said in the discussion so far: a sentence in it is not said again. */
  said: string;
}

export const np = (text: string, plural = false, mass = false): NounPhrase => ({
  text,
  head: text.split(' ').pop()!,
  plural,
  proper: false,
  mass,
});
export const FALLBACK = [np('costs', true), np('risks', true), np('first step')];

/** Leads that make a sentence said before new again (tried in order). */
export const REPHRASE = [
  'Still,',
  'Once more,',
  'To be clear,',
  'Put differently,',
  'All the same,',
  'As I see it,',
  'In short,',
];

/** One of the options not yet said in this discussion; when all were, one of them with a lead in front. */
export function fresh(tu: Turn, options: ReadonlyArray<string | null | false | undefined>): string | null {
  const real = options.filter((o): o is string | null => o !== false && o !== undefined);
  if (!real.length) return null;
  const unused = real.filter((o) => o === null || !tu.said.includes(o));
  if (unused.length) return tu.rng.pick(unused);
  const base = tu.rng.pick(real);
  if (base === null) return null;
  // A name or "I" keeps its capital; any other first word goes lower case after the lead.
  const first = base.split(/[\s,':]/)[0];
  const keep =
    first === 'I' ||
    /^I'/.test(first) ||
    [tu.ctx.agent, ...tu.ctx.others].some((p) => p.name === first) ||
    /^"/.test(base);
  const lowered = !keep && /^[A-Z][a-z]/.test(base) ? base[0].toLowerCase() + base.slice(1) : base;
  return REPHRASE.map((lead) => `${lead} ${lowered}`).find((v) => !tu.said.includes(v)) ?? base;
}

export const sameHead = (x: NounPhrase, y: NounPhrase) => x.head === y.head || x.text === y.text;

/** The topic phrase another turn talked about: the first of the topic's phrases its text mentions. */
export function pointOf(content: string, nps: NounPhrase[]): NounPhrase | null {
  const lower = content.toLowerCase();
  let best: { at: number; p: NounPhrase } | null = null;
  for (const p of nps) {
    const at = lower.indexOf(p.text.toLowerCase());
    const headAt =
      at >= 0 ? at : (new RegExp(`\\b${p.head.replace(/[^a-z0-9-]/gi, '')}\\b`, 'i').exec(lower)?.index ?? -1);
    if (headAt >= 0 && (!best || headAt < best.at)) best = { at: headAt, p };
  }
  return best?.p ?? null;
}

/** "Data scientist" → "a data scientist"; acronyms and "the …" roles stay as written. */
export function roleName(role: string): string {
  const r = role.trim() || 'participant';
  if (/^(the|a|an)\s/i.test(r)) return r;
  const lower = /^[A-Z][a-z]/.test(r) ? r[0].toLowerCase() + r.slice(1) : r;
  return `${/^[aeiou]/i.test(lower) ? 'an' : 'a'} ${lower}`;
}
