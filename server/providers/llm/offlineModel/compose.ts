import type { TurnAnswer, TurnContext } from '../../../engine/turnAnswer';
import { agree, be, nounPhrases, questionClause, questionSubject, readMessage, refer, type MessageTake, type NounPhrase } from './phrases';
import type { Rng } from './seeded';
import { takePosition, temperamentOf, type Position, type Temperament } from './stance';
import { capitalize, fitWords } from './words';

// Composes one agent's turn the way a participant speaks: first it takes up what was just said (a person's
// message by its content — agreeing or pushing back — or the previous speaker's point, by name), then it adds its
// own point about the topic's real noun phrases, from its role and at the stage the discussion is in, and it says
// so when its view has moved. Every sentence is built from whole noun phrases (phrases.ts) placed where a noun
// phrase is grammatical, with an article where a singular count noun needs one.

type Heard = TurnContext['history'][number];

interface Turn {
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
  human: { said: Heard; take: MessageTake } | null;
  role: string;
  /** Everything said in the discussion so far: a sentence in it is not said again. */
  said: string;
}

const np = (text: string, plural = false, mass = false): NounPhrase => ({ text, head: text.split(' ').pop()!, plural, proper: false, mass });
const FALLBACK = [np('costs', true), np('risks', true), np('first step')];

/** Leads that make a sentence said before new again (tried in order). */
const REPHRASE = ['Still,', 'Once more,', 'To be clear,', 'Put differently,', 'All the same,', 'As I see it,', 'In short,'];

/** One of the options not yet said in this discussion; when all were, one of them with a lead in front. */
function fresh(tu: Turn, options: ReadonlyArray<string | null | false | undefined>): string | null {
  const real = options.filter((o): o is string | null => o !== false && o !== undefined);
  if (!real.length) return null;
  const unused = real.filter((o) => o === null || !tu.said.includes(o));
  if (unused.length) return tu.rng.pick(unused);
  const base = tu.rng.pick(real);
  if (base === null) return null;
  // A name or "I" keeps its capital; any other first word goes lower case after the lead.
  const first = base.split(/[\s,':]/)[0];
  const keep = first === 'I' || /^I'/.test(first) || [tu.ctx.agent, ...tu.ctx.others].some((p) => p.name === first) || /^"/.test(base);
  const lowered = !keep && /^[A-Z][a-z]/.test(base) ? base[0].toLowerCase() + base.slice(1) : base;
  return REPHRASE.map((lead) => `${lead} ${lowered}`).find((v) => !tu.said.includes(v)) ?? base;
}

const sameHead = (x: NounPhrase, y: NounPhrase) => x.head === y.head || x.text === y.text;

/** The topic phrase another turn talked about: the first of the topic's phrases its text mentions. */
function pointOf(content: string, nps: NounPhrase[]): NounPhrase | null {
  const lower = content.toLowerCase();
  let best: { at: number; p: NounPhrase } | null = null;
  for (const p of nps) {
    const at = lower.indexOf(p.text.toLowerCase());
    const headAt = at >= 0 ? at : new RegExp(`\\b${p.head.replace(/[^a-z0-9-]/gi, '')}\\b`, 'i').exec(lower)?.index ?? -1;
    if (headAt >= 0 && (!best || headAt < best.at)) best = { at: headAt, p };
  }
  return best?.p ?? null;
}

// ── What was just said ──

function answerHuman(tu: Turn): string[] {
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

function answerSpeaker(tu: Turn): string | null {
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

// ── This agent's own point ──

function opening(tu: Turn): string {
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
function shift(tu: Turn): string | null {
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

function body(tu: Turn): string {
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

function closing(tu: Turn): string | null {
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

/** A citation sentence and its reference note (kept for the end of the turn). */
function cite(tu: Turn): { sentence: string | null; note: string | null; evidence: string[] } {
  const { ctx, t, rng } = tu;
  const titles = (ctx.evidence ?? []).filter(Boolean);
  if (titles.length && (t.citesEvidence || rng.next() < 0.35)) {
    const title = rng.pick(titles);
    const style = ctx.citationStyle ?? 'academic';
    const claim = tu.pos.stance === 'support' ? 'The evidence points the same way' : tu.pos.stance === 'oppose' ? 'The evidence calls for caution here' : 'The evidence is mixed so far';
    if (style === 'inline') return { sentence: `${claim} (see "${title}").`, note: null, evidence: [title] };
    if (style === 'footnote') return { sentence: `${claim}.[^1]`, note: `[^1]: ${title}`, evidence: [title] };
    return { sentence: `${claim} [1].`, note: `[1] ${title}`, evidence: [title] };
  }
  if (t.citesEvidence && tu.last && !tu.last.human) {
    return { sentence: null, note: null, evidence: [`${tu.last.speaker}: "${tu.last.content.split(/\s+/).slice(0, 12).join(' ')}…"`] };
  }
  return { sentence: null, note: null, evidence: [] };
}

function argumentType(tu: Turn): TurnAnswer['argument_type'] {
  if (!tu.last) return 'proposal';
  if (tu.pos.stance === 'oppose') return 'counter';
  if (tu.pos.stance === 'neutral') return 'question';
  if (tu.ctx.stage === 'synthesis' || tu.ctx.stage === 'consensus') return 'synthesis';
  return 'support';
}

function performative(type: TurnAnswer['argument_type'], stance: Position['stance'], delegating: boolean): string {
  if (delegating) return 'request';
  if (type === 'proposal') return 'propose';
  if (type === 'question') return 'query-if';
  if (stance === 'oppose') return 'reject-proposal';
  if (type === 'synthesis') return 'agree';
  return 'accept-proposal';
}

function shape(sentences: string[], note: string | null, format: string | undefined, maxWords: number, pos: Position): string {
  let text: string;
  if (format === 'bullet') text = fitWords(sentences.map((s) => `- ${s}`), maxWords);
  else if (format === 'structured') {
    const [first, ...rest] = sentences;
    text = fitWords([`Position: ${pos.stance} (${Math.round(pos.confidence * 100)}%).`, `Reason: ${first}`, ...rest.map((s, i) => (i === 0 ? `Detail: ${s}` : s))], maxWords);
  } else text = fitWords(sentences, maxWords);
  return note && text.includes(note.slice(0, note.indexOf(']') + 1)) ? `${text}\n${note}` : text;
}

/** The names in the room, in lower case: a person's name is never taken for the topic's subject. */
function namesOf(ctx: TurnContext): Set<string> {
  return new Set([ctx.agent, ...ctx.others].flatMap((x) => x.name.toLowerCase().split(/\s+/)).concat(['human']));
}

export function composeTurn(ctx: TurnContext, rng: Rng, maxWords: number, temperature?: number): TurnAnswer {
  const personality = (ctx.agent.personality ?? '').trim().toLowerCase() || 'other';
  const t = temperamentOf(personality);
  const heard = ctx.history.filter((h) => h.speaker !== ctx.agent.name);
  const last = heard[heard.length - 1];
  const mineAt = ctx.history.map((h) => h.speaker).lastIndexOf(ctx.agent.name);
  const mine = mineAt >= 0 ? ctx.history[mineAt] : undefined;
  const pos = takePosition(ctx, t, rng, temperature);

  const names = namesOf(ctx);
  // Names (a town, a firm) are who acts, not what is discussed: they stay out when there is enough else.
  // So is the question's subject ("a small bakery" in "How can a small bakery cut food waste?").
  const subject = questionSubject(ctx.topic);
  const found = nounPhrases(ctx.topic, names);
  const things = found.filter((p) => !p.proper && !(subject && subject.endsWith(p.text.toLowerCase())));
  const topicNps = things.length >= 2 ? things : found.filter((p) => !p.proper).length >= 2 ? found.filter((p) => !p.proper) : found;
  const nps = topicNps.length ? topicNps : nounPhrases(ctx.agent.prompt, names).slice(0, 3).concat(FALLBACK);
  // The person's latest message this agent has not answered yet (said after its own last turn).
  const humanAt = ctx.history.map((h) => !!h.human).lastIndexOf(true);
  const said = ctx.history[humanAt];
  const human = humanAt > mineAt && said ? { said, take: readMessage(said.content, names) } : null;

  // The subject: the agent's own angle on the topic, so different agents lean on different phrases; the phrase
  // it is weighed against can come from what a person brought in.
  const a = nps[(hashOf(ctx.agent.name) + Math.floor(ctx.turn / 3)) % nps.length] ?? nps[0];
  const pool = [...nps.filter((p) => !sameHead(p, a)), ...(human?.take.nps.filter((p) => !sameHead(p, a)).slice(0, 1) ?? [])];
  const b = pool.length ? rng.pick(pool) : FALLBACK.find((p) => !sameHead(p, a))!;
  const tu: Turn = {
    ctx, t, rng, pos, personality, last, mine, nps, a, b, clause: questionClause(ctx.topic), human, role: roleName(ctx.agent.role),
    said: [...(ctx.earlier ?? []), ...ctx.history.map((h) => h.content)].join('\n'),
  };

  const { sentence: citation, note, evidence } = cite(tu);
  const type = argumentType(tu);
  const lead = !last ? [opening(tu)] : last.human && human ? answerHuman(tu) : [answerSpeaker(tu)];
  // A person's message answered after someone else spoke in between is still taken up, after the speaker.
  const lateHuman = human && last && !last.human ? answerHuman(tu).slice(0, 1) : [];
  const sentences = onceAsRole([...lead, ...lateHuman, shift(tu), body(tu), citation, closing(tu)].filter((s): s is string => !!s), tu.role);

  const delegateTo = ctx.mode === 'smart_delegation' && ctx.others.length && last && rng.next() < 0.25 ? rng.pick(ctx.others) : null;
  const delegationTask = delegateTo ? `check the assumptions behind ${refer(a)} from the ${delegateTo.role.toLowerCase()} point of view` : null;
  if (delegateTo) sentences.push(`${delegateTo.name}, could you ${delegationTask}?`);

  return {
    content: shape(sentences, note, ctx.responseFormat, maxWords, pos),
    stance: pos.stance,
    confidence: pos.confidence,
    argument_type: type,
    reasoning: [
      last ? `Responding to ${last.human ? 'the human participant' : last.speaker}${last.stance ? ` (${last.stance})` : ''}.` : 'Opening the discussion with a proposal.',
      `${capitalize(personality === 'other' ? 'balanced' : personality)} stance${ctx.stage ? ` in the ${ctx.stage} stage` : ''}: ${pos.stance}, ${Math.round(pos.confidence * 100)}% sure.`,
    ],
    evidence,
    addressed_to: last?.speaker ?? null,
    performative: performative(type, pos.stance, !!delegateTo),
    delegate_to: delegateTo?.name ?? null,
    delegation_task: delegationTask,
    next_speaker: null,
  };
}

/** "As an economist, …" once a turn: a second one loses the phrase. */
function onceAsRole(sentences: string[], role: string): string[] {
  const lead = `As ${role}, `;
  let seen = false;
  return sentences.map((s) => {
    if (!s.startsWith(lead)) return s;
    if (seen) return capitalize(s.slice(lead.length));
    seen = true;
    return s;
  });
}

const hashOf = (s: string) => [...s].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);

/** "Data scientist" → "a data scientist"; acronyms and "the …" roles stay as written. */
function roleName(role: string): string {
  const r = role.trim() || 'participant';
  if (/^(the|a|an)\s/i.test(r)) return r;
  const lower = /^[A-Z][a-z]/.test(r) ? r[0].toLowerCase() + r.slice(1) : r;
  return `${/^[aeiou]/i.test(lower) ? 'an' : 'a'} ${lower}`;
}
