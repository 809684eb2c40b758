import { agree, be, refer } from './phrases';
import { capitalize } from './words';
import type { Ask } from './person';
import { fresh, pointOf, sameHead, type Turn } from './turn';

// The first part of a turn: taking up what was just said — a person's message by its content, agreeing or
// pushing back, or the previous speaker's point, by name.

export function answerHuman(tu: Turn): string[] {
  const { take, person } = tu.human!;
  const { a, b, pos } = tu;
  const me = tu.ctx.agent.name;
  const out: Array<string | null> = [];
  const mine = person.asks.find((q) => q.to?.toLowerCase() === me.toLowerCase());
  if (mine) out.push(...answerAsk(tu, mine));
  // A question put to everyone is taken up by the message's kind below; a fact then only when it has a figure.
  const open = !mine && person.asks.some((q) => !q.to);
  const stated =
    take.kind === 'suggestion' || open
      ? person.facts.filter((f) => person.figures.some((x) => f.includes(x)))
      : person.facts;
  const fact = stated.find((f) => person.figures.some((x) => f.includes(x))) ?? stated[0];
  if (fact) out.push(...weighFact(tu, fact, person.figures[0] ?? null, !mine));
  const theirs = person.asks.find((q) => q.to && q.to.toLowerCase() !== me.toLowerCase());
  if (theirs && !mine)
    out.push(
      fresh(tu, [
        `${theirs.to}, the question about that is yours to answer.`,
        `I'll leave your question to ${theirs.to}.`,
      ]),
    );
  if (!open && (mine || fact || theirs)) return out.filter((s): s is string => !!s);
  // No fact and no question put to anyone by name: the message is taken up by its kind.
  const h = take.nps.find((p) => !sameHead(p, a) && !sameHead(p, b)) ?? take.nps.find((p) => !sameHead(p, a)) ?? null;
  const agrees = pos.stance !== 'oppose';
  const A = refer(a);
  switch (take.kind) {
    case 'question':
      out.push(
        fresh(tu, [
          `You asked "${take.quote}?" Fair question.`,
          `To your question, "${take.quote}?": let me answer it directly.`,
          `"${take.quote}?" is the right thing to ask.`,
        ]),
      );
      break;
    case 'suggestion':
      out.push(
        agrees
          ? fresh(tu, [
              `You suggest we ${take.clause}, and I agree: I'd do it first.`,
              `Your suggestion to ${take.clause} is a good one.`,
            ])
          : fresh(tu, [
              `I'm wary of your suggestion to ${take.clause}; it could pull attention away from ${A}.`,
              `You suggest we ${take.clause}, but I'd do it only later.`,
            ]),
      );
      break;
    default:
      out.push(
        fresh(tu, [
          `You wrote "${take.quote}", and I want to take that seriously.`,
          `Thanks for adding "${take.quote}".`,
        ]),
      );
  }
  if (h && take.kind !== 'other') {
    const H = refer(h);
    out.push(
      agrees
        ? fresh(tu, [
            `${capitalize(H)} ${agree(h, 'belong', 'belongs')} in the plan for ${A}.`,
            `We should look at ${H} before we decide.`,
          ])
        : fresh(tu, [
            `${capitalize(H)} ${agree(h, 'matter', 'matters')}, but less than ${A}.`,
            `I wouldn't let ${H} decide this on ${agree(h, 'their', 'its')} own.`,
          ]),
    );
  }
  return out.filter((s): s is string => !!s);
}

/**
 * A question put to this agent by name, answered in its own words and from its position; `by` names the agent
 * that asked it (a person is 'you').
 */
export function answerAsk(tu: Turn, ask: Ask, by: string | null = null): string[] {
  const q = `"${ask.text}"`;
  const heard = by
    ? fresh(tu, [`${by}, you asked me ${q}`, `To your question, ${by}, ${q}`, `${by} put it to me: ${q}`])!
    : fresh(tu, [`You asked me ${q}`, `To your question, ${q}`, `You put it to me: ${q}`])!;
  const { stance } = tu.pos;
  const answer = !ask.yesNo
    ? fresh(tu, [
        `As ${tu.role}, my answer is to try it on a small scale first and review what we learn.`,
        `I'd try it on a small scale first, check the results, and then decide.`,
      ])
    : stance === 'oppose'
      ? fresh(tu, [
          `My honest answer is yes, and that is part of why I'm against this.`,
          `Yes, I think so, and that worries me.`,
        ])
      : stance === 'support'
        ? fresh(tu, [
            `For a while, perhaps, but that can be planned for, and it's no reason to stop.`,
            `My answer is no, not if we plan for it, and I'd still go ahead.`,
          ])
        : fresh(tu, [
            `I don't know yet; I'd want to count it for a month before I answer.`,
            `Honestly, I can't say yet without real numbers.`,
          ]);
  return [heard, answer].filter((s): s is string => !!s);
}

/** A fact the person stated, quoted as written, and what this agent makes of its figure. */
function weighFact(tu: Turn, fact: string, figure: string | null, quote: boolean): string[] {
  const { stance } = tu.pos;
  const q = `"${fact}"`;
  const heard = quote ? fresh(tu, [`You wrote, ${q}`, `Thank you for the numbers: ${q}`, `You point out: ${q}`]) : null;
  if (!figure) {
    const verdict =
      stance === 'oppose'
        ? `That adds to my doubts.`
        : stance === 'support'
          ? `That supports the case, as I see it.`
          : `That is worth weighing before we decide.`;
    return [heard, fresh(tu, [verdict])].filter((s): s is string => !!s);
  }
  const money = /[$€£]|euro|dollar|pound|franc|kronor|yen/i.test(figure);
  const verdict =
    stance === 'oppose'
      ? fresh(
          tu,
          money
            ? [
                `Someone has to find ${figure}, and nobody has said where from yet.`,
                `That's real money, ${figure}, and I don't see where it comes from.`,
              ]
            : [`What worries me is ${figure}.`, `With ${figure} on the table, I'd slow down.`],
        )
      : stance === 'support'
        ? fresh(
            tu,
            money
              ? [
                  `That's a real cost at ${figure}, and I still think we should pay it.`,
                  `Even at ${figure}, I'd go ahead.`,
                ]
              : [
                  `I'd plan around ${figure}; it's not a reason to stop.`,
                  `I'd keep ${figure} in front of us as we plan.`,
                ],
          )
        : fresh(tu, [
            `I'd check ${figure} against our own situation first.`,
            `I'd want to know what ${figure} would look like here.`,
          ]);
  return [heard, verdict].filter((s): s is string => !!s);
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
