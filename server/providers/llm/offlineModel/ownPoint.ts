import { agree, be, refer } from './phrases';
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
      `I'd say yes on ${clause}, if we start with ${A}.`,
    ])!;
  }
  if (clause) return fresh(tu, [`On ${clause}, I'd start with ${A}.`, `As ${role}, I see ${A} as the way into ${clause}.`])!;
  return fresh(tu, [`Let me start with ${A}.`, `As ${role}, I'd open with a concrete proposal on ${A}.`, `My first proposal centres on ${A}.`])!;
}

/** When its stance moved since its last turn, the agent says so (and why: the latest voice on its new side). */
export function shift(tu: Turn): string | null {
  const { mine, pos, a } = tu;
  if (!mine?.stance || mine.stance === pos.stance) return null;
  const A = refer(a);
  // Who moved it: the latest voice (a person or an agent) heard on the side it moved to.
  const mover = [...tu.ctx.history].reverse().find((h) => h.speaker !== tu.ctx.agent.name && (h.human || h.stance === pos.stance));
  const by = !mover ? 'this discussion' : mover.human ? 'what you said' : `${mover.speaker}'s argument`;
  if (pos.stance === 'support') {
    return mine.stance === 'oppose'
      ? fresh(tu, [`I was sceptical earlier, but ${by} has brought me round on ${A}.`, `I've changed my mind on ${A} since my last turn.`])
      : fresh(tu, [`I was undecided before; I'm now in favour of ${A}.`, `I've made up my mind: I back ${A}.`]);
  }
  if (pos.stance === 'oppose') {
    return mine.stance === 'support'
      ? fresh(tu, [`I backed ${A} earlier, but ${by} makes me doubt ${agree(a, 'them', 'it')} now.`, `I've grown more cautious about ${A} since I last spoke.`])
      : fresh(tu, [`I was undecided before; ${by} has turned me against ${A}.`, `I've come down against ${A} since my last turn.`]);
  }
  return fresh(tu, [`I was firmer on ${A} before; now I'm less sure.`, `My view of ${A} has softened since my last turn.`]);
}

export function body(tu: Turn): string {
  const { pos, ctx, a, b, role } = tu;
  const A = refer(a);
  const B = refer(b);
  const stage = ctx.stage ?? (ctx.history.length > 6 ? 'synthesis' : ctx.history.length ? 'analysis' : 'brainstorming');
  if (pos.stance === 'oppose') {
    return fresh(tu, [
      `My worry is that ${A} ${agree(a, 'cost', 'costs')} more than ${agree(a, 'they return', 'it returns')} unless ${B} ${be(b)} dealt with first.`,
      `I'd rather start with ${B}; ${A} can wait until we know more.`,
      `Nobody has shown yet how ${A} ${agree(a, 'affect', 'affects')} ${B}, and that's where this could go wrong.`,
      `As ${role}, I see a real risk in ${A} that we haven't priced in.`,
      `Before we commit to ${A}, someone should check what ${agree(a, 'they do', 'it does')} to ${B}.`,
    ])!;
  }
  if (pos.stance === 'neutral') {
    return fresh(tu, [
      `What would tell us that ${A} actually ${agree(a, 'help', 'helps')} with ${B}?`,
      `I'd want real numbers on ${A} before deciding anything about ${B}.`,
      `As ${role}, I can see arguments both ways on ${A}.`,
      `Could we test ${A} on a small scale first and see what happens to ${B}?`,
    ])!;
  }
  const byStage: Record<string, string[]> = {
    brainstorming: [
      `One option is to pair ${A} with ${B} and compare the results.`,
      `As ${role}, I'd explore ${A} first and keep an eye on ${B}.`,
      `A small trial of ${A} would quickly show whether ${B} ${agree(b, 'improve', 'improves')}.`,
    ],
    analysis: [
      `The trade-off is between ${A} and ${B}, and as ${role} I'd weight ${A} higher.`,
      `${capitalize(A)} ${agree(a, 'drive', 'drives')} most of the outcome here, with ${B} second.`,
      `From where I sit as ${role}, ${A} and ${B} go together: changing one without the other wastes effort.`,
    ],
    critique: [
      `The weak spot is ${B}; we should test ${agree(b, 'them', 'it')} before relying on ${A}.`,
      `I'd stress-test ${A} against the worst case for ${B}.`,
      `If ${A} ${agree(a, 'fail', 'fails')}, ${B} ${be(b)} where we'll feel it first.`,
    ],
    synthesis: [
      `Putting it together: ${A} first, then ${B}, reviewed as we go.`,
      `A plan built on ${A}, with checks on ${B}, covers most of what we've heard.`,
      `I think the pieces fit: ${A} as the core and ${B} as the safeguard.`,
    ],
    consensus: [
      `I can support a plan built on ${A}, as long as ${B} ${be(b)} checked along the way.`,
      `I'm ready to agree on ${A}, with clear checks on ${B}.`,
      `Count me in on ${A}; ${B} is the part I'd keep watching.`,
    ],
    implementation: [
      `First step: pilot ${A}, measure ${B}, then scale up.`,
      `Concretely, one person owns ${A} and we review ${B} every week.`,
      `We should set a date to start on ${A} and a budget for ${B}.`,
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
  const ask = other ? `${other.name}, how does this look from your side as ${roleName(other.role).replace(/^(a|an) /, 'the ')}?` : null;
  const pct = Math.round(pos.confidence * 100);
  switch (personality) {
    case 'assertive':
      return pos.stance === 'oppose'
        ? fresh(tu, [`The plan for ${A} needs to change before I sign up.`, `I won't support ${A} as ${agree(tu.a, 'they stand', 'it stands')}.`])
        : pos.stance === 'neutral'
          ? fresh(tu, [`I need a straight answer on ${A} before I commit.`, `Convince me on ${A} and I'll back it.`])
          : fresh(tu, [`Let's decide on ${A} and move.`, `I see no reason to wait on ${A}.`, `We've talked enough about ${A}; let's act.`]);
    case 'patient':
      return fresh(tu, [other && rng.next() < 0.6 ? ask : null, `There's room to refine ${A} together.`, null]);
    case 'reactive':
      return last && !last.human ? fresh(tu, [`${last.speaker}, what would change your mind?`, `${last.speaker}, does that answer your concern?`, null]) : fresh(tu, [ask, null]);
    case 'analytical':
      return fresh(tu, [`I'd put my confidence at about ${pct}%.`, `I'm roughly ${pct}% sure of this.`, `Call it ${pct}% confidence on my side.`]);
    default:
      return rng.next() < 0.45 ? null : fresh(tu, [ask, `I'm open to being persuaded otherwise on ${A}.`, null]);
  }
}
