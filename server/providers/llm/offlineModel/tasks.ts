import type { TurnAnswer, TurnContext } from '../../../engine/turnAnswer';
import type { Rng } from './seeded';
import { nounPhrases, questionClause, refer } from './phrases';
import { fitWords, listPhrase, shortTopic } from './words';

// The two non-turn tasks the engine may ask of a model: who speaks next, and a summary.

const base = () => ({
  reasoning: [] as string[],
  evidence: [] as string[],
  addressed_to: null,
  delegate_to: null,
  delegation_task: null,
});

/** Prefers the agent the last turn named; otherwise whoever has waited longest; never the last speaker. */
export function pickNextSpeaker(ctx: TurnContext, rng: Rng): TurnAnswer {
  const everyone = [ctx.agent, ...ctx.others].filter((a, i, all) => all.findIndex((b) => b.name === a.name) === i);
  const last = ctx.history[ctx.history.length - 1];
  const candidates = everyone.filter((a) => a.name !== last?.speaker);
  const pool = candidates.length ? candidates : everyone;
  const named = last ? pool.find((a) => new RegExp(`\\b${escape(a.name)}\\b`, 'i').test(last.content)) : undefined;
  const waited = (name: string) => {
    for (let i = ctx.history.length - 1; i >= 0; i--)
      if (ctx.history[i].speaker === name) return ctx.history.length - i;
    return ctx.history.length + 1;
  };
  const longest = Math.max(...pool.map((a) => waited(a.name)));
  const choice = named ?? rng.pick(pool.filter((a) => waited(a.name) === longest));
  const why = named
    ? `${last!.speaker} addressed ${choice.name} directly`
    : `${choice.name} has waited longest to speak`;
  return {
    ...base(),
    content: `${choice.name} should speak next: ${why}.`,
    stance: 'neutral',
    confidence: named ? 0.8 : 0.6,
    argument_type: 'question',
    performative: 'inform',
    reasoning: [why],
    next_speaker: choice.name,
  };
}

/** What the figure means, from where the speakers stand: a low figure with nobody opposed is not disagreement. */
function agreementNote(agreement: number, counts: { support: number; oppose: number; neutral: number }): string {
  if (agreement >= 0.7) return ', a working consensus';
  if (counts.oppose) return ', with open disagreement';
  if (counts.neutral) return ', with some still undecided';
  if (counts.support) return ', short of a working consensus: everyone leans the same way, but not surely enough';
  return '';
}

/** Latest position of each speaker, then what the discussion circled around. */
export function summarize(ctx: TurnContext, maxWords: number): TurnAnswer {
  const latest = new Map<string, { stance?: string; confidence?: number }>();
  for (const h of ctx.history) if (!h.human) latest.set(h.speaker, { stance: h.stance, confidence: h.confidence });
  const speakers = [...latest.keys()];
  const counts = { support: 0, oppose: 0, neutral: 0 };
  let weighted = 0;
  let total = 0;
  for (const p of latest.values()) {
    const s = (p.stance ?? 'neutral') as keyof typeof counts;
    counts[s in counts ? s : 'neutral']++;
    const c = p.confidence ?? 0.5;
    total += c;
    if (p.stance === 'support') weighted += c;
  }
  // The engine's one consensus figure when it gives it (the share of the leading option over everyone); the
  // weighted share of support otherwise (a summary asked for outside a discussion).
  const agreement = ctx.consensus ?? (total ? weighted / total : 0);
  // Themes: the topic's noun phrases the discussion used most, plus what people (not agents) brought in.
  const said = ctx.history.map((h) => h.content.toLowerCase()).join(' ');
  const used = (w: string) => said.split(w.toLowerCase()).length - 1;
  const names = new Set([ctx.agent, ...ctx.others].map((a) => a.name.toLowerCase()).concat('human'));
  const themes = [
    ...nounPhrases(ctx.topic, names)
      .filter((p) => used(p.text) > 0)
      .sort((x, y) => used(y.text) - used(x.text)),
    ...ctx.history.filter((h) => h.human).flatMap((h) => nounPhrases(h.content, names).slice(0, 1)),
  ]
    .map(refer)
    .filter((w, i, all) => all.indexOf(w) === i)
    .slice(0, 4);
  const clause = questionClause(ctx.topic);
  // Turns are the agents' messages, as the message count has them: a person's message is not a turn. The engine
  // says how many were said in all (history is only the recent window); without it, the history's own are counted.
  const turns = ctx.agentTurns ?? ctx.history.filter((h) => !h.human).length;
  const positions = speakers.map((s) => {
    const p = latest.get(s)!;
    return `${s} ${p.stance === 'support' ? 'supports' : p.stance === 'oppose' ? 'opposes' : 'is undecided'}${p.confidence !== undefined ? ` (${Math.round(p.confidence * 100)}%)` : ''}`;
  });
  const sentences = [
    `Summary of ${turns} turn${turns === 1 ? '' : 's'} on ${clause ?? `"${shortTopic(ctx.topic)}"`}${speakers.length ? `, by ${listPhrase(speakers)}` : ''}.`,
    positions.length ? `Latest positions: ${positions.join('; ')}.` : 'No positions were stated yet.',
    themes.length ? `The discussion centred on ${listPhrase(themes)}.` : '',
    `${ctx.consensus !== undefined ? 'Agreement' : 'Confidence-weighted support'} stands at ${Math.round(agreement * 100)}%${agreementNote(agreement, counts)}.`,
  ].filter(Boolean);
  const stance =
    counts.support >= counts.oppose && counts.support >= counts.neutral
      ? 'support'
      : counts.oppose > counts.neutral
        ? 'oppose'
        : 'neutral';
  return {
    ...base(),
    content: fitWords(sentences, maxWords),
    stance,
    confidence: Math.round(agreement * 100) / 100,
    argument_type: 'synthesis',
    performative: 'inform',
    reasoning: positions,
    next_speaker: null,
  };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
