import type { TurnAnswer, TurnContext } from '../../../engine/turnAnswer';
import { nounPhrases, questionClause, questionSubject, readMessage, refer } from './phrases';
import type { Rng } from './seeded';
import { holdPosition, takePosition, temperamentOf, type Position } from './stance';
import { readPerson } from './person';
import { capitalize, fitWords } from './words';
import { roleName, sameHead, FALLBACK, type Turn } from './turn';
import { answerAsk, answerHuman, answerSpeaker } from './answer';
import type { Ask } from './person';
import type { Heard } from './turn';
import { body, closing, opening, shift } from './ownPoint';

// Composes one agent's turn the way a participant speaks: first it takes up what was just said (a person's
// message by its content — agreeing or pushing back — or the previous speaker's point, by name), then it adds its
// own point about the topic's real noun phrases, from its role and at the stage the discussion is in, and it says
// so when its view has moved. Every sentence is built from whole noun phrases (phrases.ts) placed where a noun
// phrase is grammatical, with an article where a singular count noun needs one.

/** A citation sentence and its reference note (kept for the end of the turn). */
function cite(tu: Turn): { sentence: string | null; note: string | null; evidence: string[] } {
  const { ctx, t, rng } = tu;
  const passage = ctx.passages?.[0];
  if (passage) {
    // Given the person's documents, it quotes one sentence of the best passage and cites it by its label.
    const quote = quotableSentence(passage.text);
    return {
      sentence: `${passage.where} says: "${quote}" [${passage.label}].`,
      note: null,
      evidence: [`[${passage.label}] ${passage.where}`],
    };
  }
  const titles = (ctx.evidence ?? []).filter(Boolean);
  if (titles.length && (t.citesEvidence || rng.next() < 0.35)) {
    const title = rng.pick(titles);
    const style = ctx.citationStyle ?? 'academic';
    const claim =
      tu.pos.stance === 'support'
        ? 'The evidence points the same way'
        : tu.pos.stance === 'oppose'
          ? 'The evidence calls for caution here'
          : 'The evidence is mixed so far';
    if (style === 'inline') return { sentence: `${claim} (see "${title}").`, note: null, evidence: [title] };
    if (style === 'footnote') return { sentence: `${claim}.[^1]`, note: `[^1]: ${title}`, evidence: [title] };
    return { sentence: `${claim} [1].`, note: `[1] ${title}`, evidence: [title] };
  }
  if (t.citesEvidence && tu.last && !tu.last.human) {
    return {
      sentence: null,
      note: null,
      evidence: [`${tu.last.speaker}: "${tu.last.content.split(/\s+/).slice(0, 12).join(' ')}…"`],
    };
  }
  return { sentence: null, note: null, evidence: [] };
}

/** The passage's first sentence of a readable length (its first 25 words when it has none). */
function quotableSentence(text: string): string {
  const sentences = text.split(/(?<=[.!?])\s+/).map((x) => x.trim());
  const fit = sentences.find((x) => {
    const n = x.split(/\s+/).length;
    return n >= 4 && n <= 30;
  });
  return (fit ?? text.split(/\s+/).slice(0, 25).join(' ')).replace(/[.!?]+$/, '').replace(/"/g, "'");
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

function shape(
  sentences: string[],
  note: string | null,
  format: string | undefined,
  maxWords: number,
  pos: Position,
): string {
  let text: string;
  if (format === 'bullet')
    text = fitWords(
      sentences.map((s) => `- ${s}`),
      maxWords,
    );
  else if (format === 'structured') {
    const [first, ...rest] = sentences;
    text = fitWords(
      [
        `Position: ${pos.stance} (${Math.round(pos.confidence * 100)}%).`,
        `Reason: ${first}`,
        ...rest.map((s, i) => (i === 0 ? `Detail: ${s}` : s)),
      ],
      maxWords,
    );
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
  const since = ctx.history.slice(mineAt + 1).filter((h) => h.speaker !== ctx.agent.name);
  const pos = holdPosition(takePosition(ctx, t, rng, temperature), mine, since);

  const names = namesOf(ctx);
  // Names (a town, a firm) are who acts, not what is discussed: they stay out when there is enough else.
  // So is the question's subject ("a small bakery" in "How can a small bakery cut food waste?").
  const subject = questionSubject(ctx.topic);
  const found = nounPhrases(ctx.topic, names);
  const things = found.filter((p) => !p.proper && !(subject && subject.endsWith(p.text.toLowerCase())));
  const topicNps = things.length
    ? things
    : found.filter((p) => !p.proper).length >= 2
      ? found.filter((p) => !p.proper)
      : found;
  const nps = topicNps.length ? topicNps : nounPhrases(ctx.agent.prompt, names).slice(0, 3).concat(FALLBACK);
  // The person's latest message this agent has not answered yet (said after its own last turn).
  const humanAt = ctx.history.map((h) => !!h.human).lastIndexOf(true);
  const agentNames = [ctx.agent, ...ctx.others].map((x) => x.name);
  // A question put to this agent by name and not taken up yet: answered now, even when the agent spoke after it
  // (its turn was being written when the question came) or another agent asked it.
  const asked = unansweredAsk(ctx.history, ctx.agent.name, agentNames);
  const humanFrom = asked?.said.human ? ctx.history.indexOf(asked.said) : humanAt > mineAt ? humanAt : -1;
  const said = ctx.history[humanFrom];
  const human = said
    ? { said, take: readMessage(said.content, names), person: readPerson(said.content, agentNames) }
    : null;
  const agentAsk = asked && !asked.said.human ? asked : null;

  // The subject: the agent's own angle on the topic, so different agents lean on different phrases; the phrase
  // it is weighed against can come from what a person brought in.
  const a = nps[(hashOf(ctx.agent.name) + Math.floor(ctx.turn / 3)) % nps.length] ?? nps[0];
  const pool = [
    ...nps.filter((p) => !sameHead(p, a)),
    ...(human?.take.nps.filter((p) => !sameHead(p, a)).slice(0, 1) ?? []),
  ];
  const b = pool.length ? rng.pick(pool) : FALLBACK.find((p) => !sameHead(p, a))!;
  const tu: Turn = {
    ctx,
    t,
    rng,
    pos,
    personality,
    last,
    mine,
    nps,
    a,
    b,
    clause: questionClause(ctx.topic),
    human,
    role: roleName(ctx.agent.role),
    said: [...(ctx.earlier ?? []), ...ctx.history.map((h) => h.content)].join('\n'),
  };

  const { sentence: citation, note, evidence } = cite(tu);
  const type = argumentType(tu);
  const lead = !last ? [opening(tu)] : last.human && human ? answerHuman(tu) : [answerSpeaker(tu)];
  // A person's message answered after someone else spoke in between is still taken up, after the speaker.
  // A question put to this agent by name is answered whole and first, whoever spoke since.
  const askedMe = !!human?.person.asks.some((q) => q.to === ctx.agent.name);
  const lateHuman = human && last && !last.human ? answerHuman(tu).slice(0, askedMe ? 4 : 1) : [];
  const byAgent = agentAsk ? answerAsk(tu, agentAsk.ask, agentAsk.said.speaker) : [];
  const sentences = onceAsRole(
    [
      ...byAgent,
      ...(askedMe ? [...lateHuman, ...lead] : [...lead, ...lateHuman]),
      // A passage quoted comes early, so a short word limit keeps it and its label.
      ctx.passages?.length ? citation : null,
      shift(tu),
      body(tu),
      ctx.passages?.length ? null : citation,
      closing(tu),
    ].filter((s): s is string => !!s),
    tu.role,
  );

  const delegateTo =
    ctx.mode === 'smart_delegation' && ctx.others.length && last && rng.next() < 0.25 ? rng.pick(ctx.others) : null;
  const delegationTask = delegateTo
    ? `check the assumptions behind ${refer(a)} from the ${delegateTo.role.toLowerCase()} point of view`
    : null;
  if (delegateTo) sentences.push(`${delegateTo.name}, could you ${delegationTask}?`);

  return {
    content: shape(sentences, note, ctx.responseFormat, maxWords, pos),
    stance: pos.stance,
    confidence: pos.confidence,
    argument_type: type,
    reasoning: [
      last
        ? `Responding to ${last.human ? 'the human participant' : last.speaker}${last.stance ? ` (${last.stance})` : ''}.`
        : 'Opening the discussion with a proposal.',
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

/**
 * The latest question put to `me` by name (by a person or another agent) that none of my turns since has taken
 * up: an answer quotes the question, so a later turn of mine that quotes it answered it.
 */
function unansweredAsk(
  history: readonly Heard[],
  me: string,
  agentNames: readonly string[],
): { said: Heard; ask: Ask } | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const said = history[i];
    if (said.speaker === me) continue;
    const ask = readPerson(said.content, agentNames).asks.find((q) => q.to?.toLowerCase() === me.toLowerCase());
    if (!ask) continue;
    const answered = history.slice(i + 1).some((h) => h.speaker === me && h.content.includes(ask.text));
    return answered ? null : { said, ask };
  }
  return null;
}

const hashOf = (s: string) => [...s].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
