import { agree, be, refer } from './phrases';
import { capitalize } from './words';
import { fresh, pointOf, sameHead, type Turn } from './turn';

// The first part of a turn: taking up what was just said — a person's message by its content, agreeing or
// pushing back, or the previous speaker's point, by name.

export function answerHuman(tu: Turn): string[] {
  const { take } = tu.human!;
  const { a, b, pos } = tu;
  const h = take.nps.find((p) => !sameHead(p, a) && !sameHead(p, b)) ?? take.nps.find((p) => !sameHead(p, a)) ?? null;
  // An agent that backs the proposal reads the person's point as support; one against it pushes back.
  const agrees = pos.stance !== 'oppose';
  const A = refer(a);
  const topicRef = tu.clause ?? A;
  const out: Array<string | null> = [];
  switch (take.kind) {
    case 'claim':
      out.push(pos.stance === 'neutral'
        ? fresh(tu, [
            `That's a useful fact to have on the table: ${take.clause}.`,
            `You point out that ${take.clause}; I'd like to see what that means for ${A}.`,
          ])
        : agrees
        ? fresh(tu, [
            `You point out that ${take.clause}, and that changes how I see ${A}.`,
            `If ${take.clause}, then ${A} ${agree(a, 'look', 'looks')} even more worth doing.`,
            `I'm glad you said that ${take.clause}; it supports ${A}.`,
          ])
        : fresh(tu, [
            `You say ${take.clause}, but that alone doesn't settle ${topicRef}.`,
            `Even if ${take.clause}, I'm not sure it changes much for ${A}.`,
            `I hear you that ${take.clause}; my worry is what it means for ${A}.`,
          ]));
      break;
    case 'question':
      out.push(fresh(tu, [`You asked "${take.quote}?" Fair question.`, `To your question, "${take.quote}?": let me answer it directly.`, `"${take.quote}?" is the right thing to ask.`]));
      break;
    case 'suggestion':
      out.push(agrees
        ? fresh(tu, [`You suggest we ${take.clause}, and I agree: I'd do it before ${A}.`, `Your suggestion to ${take.clause} is a good one.`])
        : fresh(tu, [`I'm wary of your suggestion to ${take.clause}; it could pull attention away from ${A}.`, `You suggest we ${take.clause}, but I'd do it only after ${A}.`]));
      break;
    default:
      out.push(fresh(tu, [`You wrote "${take.quote}", and I want to take that seriously.`, `Thanks for adding "${take.quote}".`]));
  }
  if (h) {
    const H = refer(h);
    out.push(agrees
      ? fresh(tu, [
          `${capitalize(H)} ${agree(h, 'belong', 'belongs')} in the plan for ${A}.`,
          !sameHead(h, b) && `${capitalize(H)} ${agree(h, 'are', 'is')} exactly what we should weigh against ${refer(b)}.`,
          `We should put ${H} next to ${A} when we decide.`,
        ])
      : fresh(tu, [
          `${capitalize(H)} ${agree(h, 'matter', 'matters')}, but less than ${A}.`,
          `I wouldn't let ${H} decide this on ${agree(h, 'their', 'its')} own.`,
        ]));
  }
  return out.filter((s): s is string => !!s);
}

export function answerSpeaker(tu: Turn): string | null {
  const { last, pos, nps, a } = tu;
  if (!last) return null;
  const N = last.speaker;
  const p = pointOf(last.content, nps) ?? a;
  const P = refer(p);
  const theyFor = last.stance !== 'oppose';
  if (pos.stance === 'neutral') {
    return fresh(tu, [
      `${N} makes a fair point about ${P}, but I'm not settled yet.`,
      `I'm still weighing what ${N} said about ${P}.`,
      `${N}'s point about ${P} deserves a closer look before I decide.`,
      `${N}, I follow your reasoning on ${P}, though I have questions.`,
    ]);
  }
  const withThem = (pos.stance === 'support') === theyFor;
  if (withThem) {
    return fresh(tu, [
      `${N} is right about ${P}.`,
      `I'm with ${N} on ${P}.`,
      `${N}, you've put your finger on it: ${P} ${be(p)} the crux.`,
      `I'd build on ${N}'s point about ${P}.`,
      `Good point from ${N} on ${P}, and I'd take it further.`,
      `${N} and I are on the same page about ${P}.`,
    ]);
  }
  // Words that name the other's side only when the other took one (an undecided speaker is neither).
  const sided = last.stance === 'support' || last.stance === 'oppose';
  return fresh(tu, [
    `I see ${P} differently from ${N}.`,
    sided && (theyFor ? `${N}, I'm not convinced by the case for ${P}.` : `${N}, I think you're too hard on ${P}.`),
    `I'd push back on ${N} here.`,
    `With respect, ${N}, ${P} ${be(p)} not the whole story.`,
    sided && (theyFor ? `${N} is more confident about ${P} than I am.` : `${N} is more worried about ${P} than I am.`),
  ]);
}
