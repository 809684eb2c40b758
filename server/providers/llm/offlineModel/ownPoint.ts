import { be, refer } from './phrases';
import { capitalize } from './words';
import { fresh, roleName, type Turn } from './turn';

// The agent's own point about the topic's noun phrases: an opening, a change of view said as such, the body at
// the discussion's stage, and a closing that fits the temperament.

export function opening(tu: Turn): string {
  const { clause, a, role } = tu;
  const A = refer(a);
  if (clause && /^whether /.test(clause)) {
    return fresh(tu, [
      `On ${clause}, my answer is yes, with conditions.`,
      `As ${role}, I lean towards yes on ${clause}.`,
      `I'd say yes on ${clause}, with a trial first.`,
    ])!;
  }
  if (clause)
    return fresh(tu, [`On ${clause}, I'd start with ${A}.`, `As ${role}, I'd look at ${A} first on ${clause}.`])!;
  return fresh(tu, [
    `Let me start with ${A}.`,
    `As ${role}, I'd open with a concrete proposal on ${A}.`,
    `My first proposal centres on ${A}.`,
  ])!;
}

/** When its stance moved since its last turn, the agent says so (and why: the latest voice on its new side). */
export function shift(tu: Turn): string | null {
  const { mine, pos, a } = tu;
  if (!mine?.stance || mine.stance === pos.stance) return null;
  const A = refer(a);
  // Who moved it: the latest voice (a person or an agent) heard on the side it moved to.
  const mover = [...tu.ctx.history]
    .reverse()
    .find((h) => h.speaker !== tu.ctx.agent.name && (h.human || h.stance === pos.stance));
  const by = !mover ? 'this discussion' : mover.human ? 'what you said' : `${mover.speaker}'s argument`;
  if (pos.stance === 'support') {
    return mine.stance === 'oppose'
      ? fresh(tu, [
          `I was sceptical earlier, but ${by} has brought me round on ${A}.`,
          `${capitalize(by)} has changed my mind on ${A} since my last turn.`,
        ])
      : fresh(tu, [
          `I was undecided before; after ${by}, I'm now in favour of the proposal on ${A}.`,
          `${capitalize(by)} has made up my mind: I back this proposal.`,
        ]);
  }
  if (pos.stance === 'oppose') {
    return mine.stance === 'support'
      ? fresh(tu, [
          `I backed the proposal on ${A} earlier, but ${by} makes me doubt it now.`,
          `I've grown more cautious about ${A} since I last spoke, because of ${by}.`,
        ])
      : fresh(tu, [
          `I was undecided before; ${by} has turned me against this proposal.`,
          `After ${by}, I've come down against the proposal on ${A}.`,
        ]);
  }
  return fresh(tu, [
    `I was firmer on ${A} before; ${by} has shaken my confidence.`,
    `After ${by}, my view of ${A} has softened.`,
  ]);
}

/**
 * The agent's own point. It speaks of the proposal as one thing ("this", "it") and of the topic's phrase as what
 * the proposal touches: two phrases of the topic are never set against each other as if they were options.
 */
export function body(tu: Turn): string {
  const { pos, ctx, a, role } = tu;
  const A = refer(a);
  const stage = ctx.stage ?? (ctx.history.length > 6 ? 'synthesis' : ctx.history.length ? 'analysis' : 'brainstorming');
  if (pos.stance === 'oppose') {
    return fresh(tu, [
      `My worry is that this costs more than it returns, and ${A} would carry the cost.`,
      `I'd rather wait until we know more about what it does to ${A}.`,
      `Nobody has shown yet what this does to ${A}, and that's where it could go wrong.`,
      `As ${role}, I see a real risk here that we haven't priced in.`,
      `Before we commit, someone should check who pays for it.`,
    ])!;
  }
  if (pos.stance === 'neutral') {
    return fresh(tu, [
      `What would tell us that this actually works?`,
      `I'd want real numbers on ${A} before deciding.`,
      `As ${role}, I can see arguments both ways.`,
      `Could we test it on a small scale first and see what happens to ${A}?`,
    ])!;
  }
  const byStage: Record<string, string[]> = {
    brainstorming: [
      `As ${role}, I'd try it on a small scale first and watch what happens to ${A}.`,
      `A small trial would show quickly whether this works for ${A}.`,
      `I'd start by asking who gains most here, and what it means for ${A}.`,
    ],
    analysis: [
      `As ${role}, I think the gains outweigh the costs, and ${A} ${be(a)} where they would show first.`,
      `What matters most to me is who pays and who gains, and on balance I think the gains win.`,
      `The numbers I'd want first are what this costs and what it saves.`,
    ],
    critique: [
      `The weak spot is the worst case: what happens to ${A} in a bad year.`,
      `I'd stress-test this against a bad year before relying on it.`,
      `If this fails, ${A} ${be(a)} where we'll feel it first.`,
    ],
    synthesis: [
      `Putting it together: start small, measure what happens to ${A}, and review as we go.`,
      `A plan that starts with a trial and checks ${A} along the way covers most of what we've heard.`,
      `I think the pieces fit: a trial first, with clear checks on ${A}.`,
    ],
    consensus: [
      `I can support this, as long as ${A} ${be(a)} checked along the way.`,
      `I'm ready to agree, with clear checks on ${A}.`,
      `Count me in; ${A} ${be(a)} the part I'd keep watching.`,
    ],
    implementation: [
      `First step: a pilot, measured on ${A}, then scale up.`,
      `Concretely, one person owns the pilot and we review ${A} every week.`,
      `We should set a start date and a budget, and report on ${A} every month.`,
    ],
  };
  return fresh(tu, byStage[stage] ?? byStage.analysis)!;
}

export function closing(tu: Turn): string | null {
  const { rng, pos, personality, ctx, last } = tu;
  const A = refer(tu.a);
  const recent = new Set(ctx.history.slice(-2).map((h) => h.speaker));
  const waiting = ctx.others.filter((o) => !recent.has(o.name));
  const other = waiting.length ? rng.pick(waiting) : ctx.others.length ? rng.pick(ctx.others) : null;
  const ask = other
    ? `${other.name}, how does this look from your side as ${roleName(other.role).replace(/^(a|an) /, 'the ')}?`
    : null;
  const pct = Math.round(pos.confidence * 100);
  switch (personality) {
    case 'assertive':
      return pos.stance === 'oppose'
        ? fresh(tu, [
            `The plan for ${A} needs to change before I sign up.`,
            `I won't support the proposal on ${A} as it stands.`,
          ])
        : pos.stance === 'neutral'
          ? fresh(tu, [`I need a straight answer on ${A} before I commit.`, `Convince me on ${A} and I'll back it.`])
          : fresh(tu, [
              `Let's decide on ${A} and move.`,
              `I see no reason to wait on ${A}.`,
              `We've talked enough about ${A}; let's act.`,
            ]);
    case 'patient':
      return fresh(tu, [other && rng.next() < 0.6 ? ask : null, `There's room to refine this together.`, null]);
    case 'reactive':
      return last && !last.human
        ? fresh(tu, [
            `${last.speaker}, what would change your mind?`,
            `${last.speaker}, does that answer your concern?`,
            null,
          ])
        : fresh(tu, [ask, null]);
    case 'analytical':
      return fresh(tu, [
        `I'd put my confidence at about ${pct}%.`,
        `I'm roughly ${pct}% sure of this.`,
        `Call it ${pct}% confidence on my side.`,
      ]);
    default:
      return rng.next() < 0.45 ? null : fresh(tu, [ask, `I'm open to being persuaded otherwise on ${A}.`, null]);
  }
}
