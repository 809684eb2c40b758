import type { TurnContext } from '../../../engine/turnAnswer';
import type { Rng } from './seeded';

// The offline model's answers to a format's constrained questions, seeded like its turns: a moderator's pick with a
// reason, an anonymous ranking with a line per answer, a judge's vote. Each is the JSON the format's schema asks for.

/** The moderator gives the floor to whoever has waited longest (the seed breaks ties); after a while it closes. */
function pick(ctx: TurnContext, rng: Rng) {
  const names = (ctx.choices ?? []).filter((c) => c !== 'ask' && c !== 'close');
  const spoken = ctx.history.filter((h) => !h.human);
  if (!names.length || spoken.length >= names.length * 3)
    return { next_speaker: 'close', content: 'Every voice has been heard several times; time to sum up.' };
  const last = spoken[spoken.length - 1]?.speaker;
  const waited = (name: string) => {
    for (let i = spoken.length - 1; i >= 0; i--) if (spoken[i].speaker === name) return spoken.length - i;
    return spoken.length + 1;
  };
  const pool = names.filter((n) => n !== last);
  const longest = Math.max(...pool.map(waited));
  const choice = rng.pick(pool.filter((n) => waited(n) === longest));
  const why =
    waited(choice) > spoken.length ? `${choice} has not spoken yet` : `${choice} has waited longest since speaking`;
  return { next_speaker: choice, content: `${why}.` };
}

/** Longer, more specific answers rank higher (a crude but stable reading); the seed breaks ties. */
function rank(ctx: TurnContext, rng: Rng) {
  const scored = (ctx.answers ?? []).map((a) => ({
    ...a,
    score: new Set(a.text.toLowerCase().match(/\p{L}{4,}/gu) ?? []).size + rng.next(),
  }));
  scored.sort((x, y) => y.score - x.score);
  const ranking = scored.map((a, i) => ({
    answer: a.label,
    reason:
      i === 0
        ? 'the most concrete and complete answer'
        : i === scored.length - 1
          ? 'the thinnest of the answers'
          : 'sound, but less specific than the one above',
  }));
  return { ranking, content: scored.length ? `Answer ${scored[0].label} is the most useful.` : 'Nothing to rank.' };
}

/** Before: a seeded lean. After: the side whose speakers sounded more sure, by the stances they took. */
function vote(ctx: TurnContext, rng: Rng) {
  if (!ctx.history.length) {
    const side = rng.next() < 0.5 ? 'for' : 'against';
    return {
      side,
      confidence: Math.round((0.5 + rng.next() * 0.2) * 100) / 100,
      content: 'A first impression of the motion, before hearing either side.',
    };
  }
  let pro = 0;
  let con = 0;
  for (const h of ctx.history) {
    if (h.stance === 'support') pro += h.confidence ?? 0.5;
    if (h.stance === 'oppose') con += h.confidence ?? 0.5;
  }
  const side = pro === con ? (rng.next() < 0.5 ? 'for' : 'against') : pro > con ? 'for' : 'against';
  const margin = Math.abs(pro - con) / Math.max(1, pro + con);
  return {
    side,
    confidence: Math.round(Math.min(0.95, 0.55 + margin) * 100) / 100,
    content: `${side === 'for' ? 'For' : 'Against'} argued with more confidence across the phases.`,
  };
}

/** The answer for a format's task, or null when the task is not one of them. */
export function formatAnswer(ctx: TurnContext, rng: Rng): Record<string, unknown> | null {
  switch (ctx.task) {
    case 'moderate':
      return pick(ctx, rng);
    case 'rank':
      return rank(ctx, rng);
    case 'vote':
      return vote(ctx, rng);
    default:
      return null;
  }
}

/** A debater argues its side: its stance follows the side it was given. */
export const sideStance = (ctx: TurnContext): 'support' | 'oppose' | null =>
  ctx.side === 'for' ? 'support' : ctx.side === 'against' ? 'oppose' : null;
