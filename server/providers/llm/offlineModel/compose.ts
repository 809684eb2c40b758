import type { TurnAnswer, TurnContext } from '../../../engine/turnAnswer';
import type { Rng } from './seeded';
import { takePosition, temperamentOf, type Position, type Temperament } from './stance';
import { capitalize, fitWords, keyTerms, salientWords } from './words';

// Composes one agent's turn from the facts of the turn: who it answers, what it thinks of the
// proposal and why, in a few short sentences that follow its role, personality and the stage.

interface Turn {
  ctx: TurnContext;
  t: Temperament;
  rng: Rng;
  pos: Position;
  last: TurnContext['history'][number] | undefined;
  /** Two subject words: what this turn talks about. */
  a: string;
  b: string;
  /** What the last speaker talked about, when it said something new. */
  focus: string;
  personality: string;
  /** Everything said in the discussion so far: a sentence in it is not said again verbatim. */
  said: string;
}

/** Leads that make a repeated template sentence new again (tried in order). */
const REPHRASE = ['Still,', 'Once more,', 'To be clear,', 'Put differently,', 'All the same,', 'As I see it,', 'In short,'];

/** One of the options not said before in this discussion; if all were, one of them rephrased. */
function fresh(tu: Turn, options: ReadonlyArray<string | null>): string | null {
  const unused = options.filter((o) => o === null || !tu.said.includes(o));
  if (unused.length) return tu.rng.pick(unused);
  const base = tu.rng.pick(options)!;
  // A name or "I" keeps its capital; any other first word goes lower case after the lead.
  const first = base.split(/[\s,':]/)[0];
  const proper = first === 'I' || [tu.ctx.agent, ...tu.ctx.others].some((p) => p.name === first);
  for (const lead of REPHRASE) {
    const v = `${lead} ${!proper && /^[A-Z][a-z]/.test(base) ? base[0].toLowerCase() + base.slice(1) : base}`;
    if (!tu.said.includes(v)) return v;
  }
  return base;
}

/** The first words of what someone said, to quote back: at most eight, without the closing punctuation. */
const quoteOf = (text: string) => text.trim().split(/(?<=[.?!])\s/)[0].split(/\s+/).slice(0, 8).join(' ').replace(/[.?!,;:]+$/, '');

// Words the templates themselves use: never mistaken for the subject of a previous turn.
const TEMPLATE_WORDS = new Set(salientWords(
  'opening proposal concrete start small learn affects explore together trade-off weight higher drives outcome second weak spot test ' +
    'relying stress-test worst case pulling threads plan built checks covers concerns support safeguard ready clear pilot measure scale ' +
    'assign owner track weekly risk costs returns unless address deserves priority tested interacts fail numbers settling improves ' +
    'evidence reasoning argument sound holds check fair right exactly lever matters push back convinced worries understand concern ' +
    'claim follow know sharper answer commit hear weighing interesting mean practice view settle time decide drop part move confidence ' +
    'about useful steer question side point perspective core problem effects combining heard assumptions could speaks next summary ' +
    'position reason detail percent agree build further said going said case speaking here where would',
  500,
));

const who = (tu: Turn) => tu.last?.speaker ?? '';

function opener(tu: Turn): string {
  const { rng, pos, last, personality, a, b, ctx } = tu;
  const role = roleName(ctx.agent.role);
  if (!last) {
    return fresh(tu, [
      `As ${role}, I'd open with a concrete proposal built around ${a} and ${b}.`,
      `Let me put a first proposal on the table: we start from ${a} and shape ${b} around it.`,
      `Speaking as ${role}, I propose we anchor this on ${a}, with ${b} close behind.`,
    ])!;
  }
  const name = who(tu);
  const focus = tu.focus;
  if (last.human) {
    // The human's message is answered first, in their own words.
    const quote = quoteOf(last.content);
    return fresh(tu, [
      `You asked "${quote}" — a fair question, and ${focus} is the heart of it.`,
      `Thank you for that: "${quote}". Let me take up ${focus} directly.`,
      `To the point our human participant just raised, "${quote}": ${focus} deserves an answer first.`,
    ])!;
  }
  const byStance: Record<Position['stance'], Record<string, string[]>> = {
    support: {
      assertive: [`${name} has it right on ${focus}, and I'd go further.`, `Exactly, ${name}: ${focus} is the lever that matters.`],
      patient: [`I think ${name} makes a fair point about ${focus}.`, `${name}, I agree with you on ${focus}, and I'd build on it.`],
      analytical: [`${name}'s argument on ${focus} holds up when I check it.`, `The reasoning ${name} gives on ${focus} is sound.`],
      reactive: [`Yes, ${name} — ${focus} is exactly the point.`, `${name}, you just said what I was about to: ${focus} first.`],
      other: [`I agree with ${name} about ${focus}.`, `${name} is on the right track with ${focus}.`],
    },
    oppose: {
      assertive: [`I disagree with ${name} on ${focus}.`, `${name}, I don't buy the case for ${focus}.`],
      patient: [`${name}, I see ${focus} a little differently.`, `I understand ${name}'s view on ${focus}, but I have a concern.`],
      analytical: [`${name}, the case for ${focus} isn't supported yet.`, `The claim about ${focus} from ${name} doesn't follow from what we know.`],
      reactive: [`Wait, ${name} — I'm not convinced about ${focus}.`, `Hold on, ${name}: ${focus} worries me.`],
      other: [`I'm not sure ${name} is right about ${focus}.`, `${name}, I'd push back on ${focus}.`],
    },
    neutral: {
      assertive: [`${name} raises ${focus}; I want a sharper answer before I commit.`],
      patient: [`${name} raises ${focus}, and I'd like to hear more before deciding.`],
      analytical: [`${name}'s point on ${focus} needs more evidence before I weigh in.`],
      reactive: [`${name}, interesting — but what does ${focus} mean in practice?`],
      other: [`${name} raises ${focus}; I'm still weighing it.`],
    },
  };
  void b;
  void rng;
  const table = byStance[pos.stance];
  return fresh(tu, [...(table[personality] ?? table.other), ...(table[personality] ? table.other : [])])!;
}

function body(tu: Turn): string {
  const { pos, ctx, a, b } = tu;
  const angle = `from ${roleName(ctx.agent.role).replace(/^(a|an) /, 'the ')} side`.replace(/^from the the /, 'from the ');
  const stage = ctx.stage ?? (ctx.history.length ? 'analysis' : 'brainstorming');
  if (!tu.last) {
    return fresh(tu, [`The first step would be a small trial on ${a}, measuring what it does to ${b}.`, `${capitalize(angle)}, ${a} is where the biggest gains are.`])!;
  }
  if (pos.stance === 'oppose') {
    return fresh(tu, [
      `${capitalize(angle)}, the risk is that ${a} costs more than it returns unless we address ${b} first.`,
      `Looking ${angle}, ${b} deserves priority over ${a}.`,
      `We haven't tested how ${a} interacts with ${b}, and that's where it could fail.`,
    ])!;
  }
  if (pos.stance === 'neutral') return fresh(tu, [`What would tell us whether ${a} really improves ${b}?`, `I'd want numbers on ${a} before settling ${b}.`])!;
  const byStage: Record<string, string[]> = {
    brainstorming: [`Another option is to pair ${a} with ${b} and compare.`, `${capitalize(angle)}, I'd explore ${a} together with ${b}.`],
    analysis: [`The trade-off is between ${a} and ${b}; ${angle} I'd weight ${a} higher.`, `Looking ${angle}, ${a} drives most of the outcome, with ${b} second.`],
    critique: [`The weak spot is ${b}; we should test it before relying on ${a}.`, `I'd stress-test ${a} against the worst case for ${b}.`],
    synthesis: [`Pulling the threads together: ${a} first, then ${b}, reviewed as we go.`, `Combining what we've heard, a plan built on ${a} with checks on ${b} covers most concerns.`],
    consensus: [`I can support a plan built on ${a}, with ${b} as the safeguard.`, `I'm ready to agree: ${a} with clear checks on ${b}.`],
    implementation: [`First step: pilot ${a}, measure ${b}, then scale.`, `Concretely, assign an owner for ${a} and track ${b} weekly.`],
  };
  return fresh(tu, byStage[stage] ?? byStage.analysis)!;
}

function closing(tu: Turn): string | null {
  const { rng, pos, personality, ctx } = tu;
  const waiting = ctx.others.filter((o) => o.name !== who(tu) && !ctx.history.slice(-2).some((h) => h.speaker === o.name));
  switch (personality) {
    case 'assertive':
      return pos.stance === 'oppose' ? fresh(tu, ['We should drop that part and move on.', 'That needs to change before I sign up.']) : fresh(tu, ['We should commit to this.', "Let's decide and act.", 'I see no reason to wait.']);
    case 'patient':
      return waiting.length && rng.next() < 0.6 ? fresh(tu, [`I'd like to hear ${rng.pick(waiting).name}'s view before we settle it.`]) : fresh(tu, ["Let's take the time to get this right.", "There's room to refine this together.", null]);
    case 'reactive':
      return who(tu) ? fresh(tu, [`${who(tu)}, what would change your mind?`, `${who(tu)}, does that answer your concern?`, null]) : null;
    case 'analytical':
      return fresh(tu, [`I'd put my confidence at about ${Math.round(pos.confidence * 100)}%.`, `My confidence is around ${Math.round(pos.confidence * 100)}%.`]);
    default:
      return rng.next() < 0.5 ? null : fresh(tu, ['That is my view for now.', 'That is where I stand for now.']);
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

export function composeTurn(ctx: TurnContext, rng: Rng, maxWords: number, temperature?: number): TurnAnswer {
  const personality = (ctx.agent.personality ?? '').trim().toLowerCase() || 'other';
  const t = temperamentOf(personality);
  const heard = ctx.history.filter((h) => h.speaker !== ctx.agent.name);
  const last = heard[heard.length - 1];
  const pos = takePosition(ctx, t, rng, temperature);

  const names = new Set([ctx.agent, ...ctx.others].flatMap((x) => salientWords(`${x.name} ${x.role}`, 8)));
  const own = (term: string) => term.split(' ').every((w) => !names.has(w) && !TEMPLATE_WORDS.has(w));
  const topicWords = keyTerms(ctx.topic, 8).filter(own);
  const roleWords = salientWords(ctx.agent.prompt, 6).filter((w) => own(w) && !topicWords.some((t) => t.split(' ').includes(w)));
  // Longer words are more often the nouns that carry a topic; the seed picks among the strongest.
  const ranked = [...topicWords].sort((x, y) => y.length - x.length).slice(0, 4);
  const a = ranked.length ? rng.pick(ranked) : (roleWords[0] ?? 'the core problem');
  const b = rng.pick([...ranked.filter((w) => w !== a), ...roleWords.slice(0, 2)].filter(Boolean).concat(ranked.length > 1 ? [] : ['its side effects']));
  // What the last speaker talked about: a person's own words, or, for an agent, the topic words it
  // used (its other words may be phrasing, not substance).
  const lastWords = last ? salientWords(last.content, 16).filter(own) : [];
  const lastText = last?.content.toLowerCase() ?? '';
  const onTopic = topicWords.filter((term) => lastText.includes(term));
  const focus = (last?.human ? lastWords[0] : (onTopic.find((w) => w !== a) ?? onTopic[0])) ?? 'that point';
  const said = [...(ctx.earlier ?? []), ...ctx.history.map((h) => h.content)].join('\n');
  const tu: Turn = { ctx, t, rng, pos, last, personality, a, b, focus, said };

  const { sentence: citation, note, evidence } = cite(tu);
  const type = argumentType(tu);
  const sentences = [opener(tu), body(tu), citation, closing(tu)].filter((s): s is string => !!s);

  const delegateTo = ctx.mode === 'smart_delegation' && ctx.others.length && last && rng.next() < 0.25 ? rng.pick(ctx.others) : null;
  const delegationTask = delegateTo ? `check the ${a} assumptions from the ${delegateTo.role.toLowerCase()} point of view` : null;
  if (delegateTo) sentences.push(`${delegateTo.name}, could you ${delegationTask}?`);

  return {
    content: shape(sentences, note, ctx.responseFormat, maxWords, pos),
    stance: pos.stance,
    confidence: pos.confidence,
    argument_type: type,
    reasoning: [
      last ? `Responding to ${last.speaker}${last.stance ? ` (${last.stance})` : ''}.` : 'Opening the discussion with a proposal.',
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

/** "Data scientist" → "a data scientist"; acronyms and "the …" roles stay as written. */
function roleName(role: string): string {
  const r = role.trim() || 'participant';
  if (/^(the|a|an)\s/i.test(r)) return r;
  const lower = /^[A-Z][a-z]/.test(r) ? r[0].toLowerCase() + r.slice(1) : r;
  return `${/^[aeiou]/i.test(lower) ? 'an' : 'a'} ${lower}`;
}
