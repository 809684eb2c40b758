import type { ChatMessage } from '../../providers/types';
import { speakerOf, stageOf, type EngineContext, type ThinkInput } from '../context';
import type { AgentRef, Plan } from '../plan';
import { TURN_ANSWER_JSON_SCHEMA, turnRequest, type TurnRequest } from '../prompt';
import { turnsSaid } from '../record';
import type { TurnContext } from '../turnAnswer';
import { pickSchema, rankSchema, voteSchema } from './answers';
import { sideOf } from './formatPlan';
import { heardInFormat } from './hearing';
import { speakersOf } from './formatPlan';
import type { FormatState } from './state';

// The words a model reads for a format's task. Who hears what is decided in hearing.ts; here it is written out:
// a council's first answers hold the question alone, its ranking names no agent, a debater argues its side, a
// moderator chooses among names, a judge votes For or Against.

type Current = NonNullable<FormatState['current']>;

const ctxBase = (plan: Plan, agent: AgentRef, turn: number): Omit<TurnContext, 'history'> => ({
  agent: { id: agent.id, name: agent.name, role: agent.role, prompt: agent.prompt, personality: agent.personality },
  others: plan.agents.filter((a) => a.id !== agent.id).map((a) => ({ id: a.id, name: a.name, role: a.role })),
  topic: plan.topic,
  turn,
  maxWords: plan.maxWords,
});

const request = (
  plan: Plan,
  agent: AgentRef,
  messages: ChatMessage[],
  context: TurnContext,
  jsonSchema: Record<string, unknown>,
  maxTokens?: number,
): TurnRequest => ({
  model: agent.model,
  messages,
  maxTokens: maxTokens ?? plan.model.maxTokens,
  temperature: plan.model.temperature,
  jsonSchema,
  context,
});

/** Said again when a constrained answer could not be read (once). */
const repairNote = (s: FormatState) =>
  s.repair
    ? [
        { role: 'assistant' as const, content: s.repair.bad },
        {
          role: 'user' as const,
          content: `That answer could not be used: ${s.repair.why}. Answer again with exactly the JSON object asked for.`,
        },
      ]
    : [];

const persona = (agent: AgentRef) =>
  [
    `You are ${agent.name}, ${agent.role}.`,
    agent.prompt,
    agent.personality ? `Your temperament: ${agent.personality}.` : '',
  ]
    .filter(Boolean)
    .join('\n');

/** Every agent's name replaced, so a ranking prompt names nobody even when an answer quoted a name. */
export function withoutNames(text: string, agents: readonly AgentRef[]): string {
  let out = text;
  for (const a of [...agents].sort((x, y) => y.name.length - x.name.length)) {
    out = out.replace(
      new RegExp(`@?"?\\b${a.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b"?`, 'gi'),
      'another panellist',
    );
  }
  return out;
}

/** The answers agent `rankerId` ranks (not its own), labelled A, B, C… in an order that differs per ranker. */
export function ballotFor(
  s: FormatState,
  plan: Plan,
  rankerId: string,
): Array<{ local: string; label: string; text: string }> {
  const others = s.answers.filter((a) => a.agentId !== rankerId);
  const shift =
    Math.max(
      0,
      plan.agents.findIndex((a) => a.id === rankerId),
    ) % Math.max(1, others.length);
  const rotated = [...others.slice(shift), ...others.slice(0, shift)];
  return rotated.map((a, i) => ({
    local: String.fromCharCode(65 + (i % 26)),
    label: a.label,
    text: withoutNames(a.text, plan.agents),
  }));
}

export function formatThinkInput(c: EngineContext): ThinkInput {
  const s = c.format!;
  const cur = s.current!;
  const agent = speakerOf(c);
  return { request: formatRequest(c, s, cur, agent), stage: cur.task === 'synthesis' ? 'synthesis' : stageOf(c) };
}

function formatRequest(c: EngineContext, s: FormatState, cur: Current, agent: AgentRef): TurnRequest {
  const { plan } = c;
  const f = plan.format!;
  switch (cur.task) {
    case 'answer': {
      // Stage 1: the question and nothing any other agent wrote.
      const messages: ChatMessage[] = [
        {
          role: 'system',
          content: `${persona(agent)}\nAnswer the question on your own, in at most ${plan.maxWords} words. Answer with one JSON object that follows the given schema.`,
        },
        { role: 'user', content: `Question: ${plan.topic}\n\nGive your own answer.` },
      ];
      return request(
        plan,
        agent,
        messages,
        { ...ctxBase(plan, agent, c.turn), history: [], task: 'turn' },
        TURN_ANSWER_JSON_SCHEMA,
      );
    }
    case 'rank': {
      const ballot = ballotFor(s, plan, agent.id);
      const labels = ballot.map((b) => b.local);
      const messages: ChatMessage[] = [
        {
          role: 'system',
          content: `You are a careful, fair reviewer. You rank answers to a question by how correct, useful and well argued they are. Answer with one JSON object: ranking (every answer once, best first, each with one line of reason) and content (one line on the whole).`,
        },
        {
          role: 'user',
          content: `Question: ${withoutNames(plan.topic, plan.agents)}\n\n${ballot.map((b) => `Answer ${b.local}:\n${b.text}`).join('\n\n')}\n\nRank Answer ${labels.join(', ')} from best to worst.`,
        },
        ...repairNote(s),
      ];
      const context: TurnContext = {
        ...ctxBase(plan, agent, c.turn),
        others: [],
        history: [],
        task: 'rank',
        answers: ballot.map((b) => ({ label: b.local, text: b.text })),
      };
      return request(plan, agent, messages, context, rankSchema(labels), 400);
    }
    case 'synthesis': {
      const means = meanRanks(s);
      const named = (id: string) => plan.agents.find((a) => a.id === id)?.name ?? id;
      const listed = [...s.answers].sort((x, y) => (means[x.label] ?? 99) - (means[y.label] ?? 99));
      const messages: ChatMessage[] = [
        {
          role: 'system',
          content: `${persona(agent)}\nYou chair a council. Write the council's final answer from its members' answers and their ranking, in at most ${plan.maxWords} words. Answer with one JSON object that follows the given schema.`,
        },
        {
          role: 'user',
          content: `Question: ${plan.topic}\n\n${listed.map((a) => `Answer ${a.label} (${named(a.agentId)}, mean rank ${means[a.label]?.toFixed(2) ?? 'unranked'}):\n${a.text}`).join('\n\n')}\n\nWrite the final answer.`,
        },
      ];
      const history = listed.map((a) => ({ speaker: named(a.agentId), content: a.text }));
      return request(
        plan,
        agent,
        messages,
        { ...ctxBase(plan, agent, c.turn), history, stage: 'synthesis', task: 'turn' },
        TURN_ANSWER_JSON_SCHEMA,
      );
    }
    case 'pick': {
      const speakers = speakersOf(f, plan.agents);
      const choices = [...speakers.map((a) => a.name), 'ask', 'close'];
      const heard = heardInFormat(plan, c.record, s, agent.id);
      const messages: ChatMessage[] = [
        {
          role: 'system',
          content: `${persona(agent)}\nYou moderate a discussion among ${speakers.map((a) => `${a.name} (${a.role})`).join(', ')}. After each turn you choose who speaks next, or 'ask' to put a question to the person watching, or 'close' when the discussion has done its work. Answer with one JSON object: next_speaker (one of ${choices.join(', ')}) and content (one line: why; for 'ask', the question).`,
        },
        {
          role: 'user',
          content: `Topic: ${plan.topic}\n\n${heard.length ? `The discussion so far:\n${heard.map((t) => `${t.human ? 'Human participant' : t.speaker}: ${t.content}`).join('\n')}` : 'Nobody has spoken yet.'}\n\nWho speaks next?`,
        },
        ...repairNote(s),
      ];
      const context: TurnContext = {
        ...ctxBase(plan, agent, c.turn),
        others: speakers.map((a) => ({ id: a.id, name: a.name, role: a.role })),
        history: heard.map((t) => ({
          speaker: t.human ? 'Human' : t.speaker,
          content: t.content,
          stance: t.stance,
          confidence: t.confidence,
          human: t.human,
        })),
        task: 'moderate',
        choices,
      };
      return request(plan, agent, messages, context, pickSchema(choices), 200);
    }
    case 'vote': {
      const heard = cur.phase === 'after' ? heardInFormat(plan, c.record, s, agent.id) : [];
      const messages: ChatMessage[] = [
        {
          role: 'system',
          content: `${persona(agent)}\nYou judge a debate on a motion. Vote For or Against it with a confidence from 0 to 1 and one line of reason. Answer with one JSON object: side (for or against), confidence, content.`,
        },
        {
          role: 'user',
          content: `Motion: ${plan.topic}\n\n${cur.phase === 'after' ? `The debate:\n${heard.map((t) => `${t.human ? 'Human participant' : `${t.speaker} (${sideOf(f, t.speakerId ?? '') === 'for' ? 'For' : 'Against'})`}: ${t.content}`).join('\n')}\n\nYour vote after the debate?` : 'The debate has not started. Your vote before it?'}`,
        },
        ...repairNote(s),
      ];
      const history = heard.map((t) => ({
        speaker: t.human ? 'Human' : t.speaker,
        content: t.content,
        stance: t.stance,
        confidence: t.confidence,
        human: t.human,
      }));
      return request(
        plan,
        agent,
        messages,
        { ...ctxBase(plan, agent, c.turn), history, task: 'vote', stage: cur.phase },
        voteSchema,
        200,
      );
    }
    case 'speak': {
      const slot = { turn: c.turn, round: c.round, stage: stageOf(c), delegation: c.answering, mode: c.mode };
      // The hearing rule replaces the canvas one where the format says so (a debater hears the whole debate).
      const hearingPlan = f.kind === 'debate' ? { ...plan, hearing: null } : plan;
      const req = turnRequest(hearingPlan, c.record, agent, slot);
      const side = sideOf(f, agent.id);
      const extraSystem =
        side && cur.stage
          ? `\nThis is a debate. You argue ${side === 'for' ? 'FOR' : 'AGAINST'} the motion. Phase: ${cur.stage} (${cur.stage === 'opening' ? 'state your case' : cur.stage === 'rebuttal' ? 'answer the other side' : 'sum up your case'}).`
          : '';
      const first = cur.message ? `A person asked you directly; answer this first:\n"${cur.message}"\n\n` : '';
      const messages = req.messages.map((m, i) =>
        i === 0
          ? { ...m, content: m.content + extraSystem }
          : m.role === 'user' && i === req.messages.length - 1
            ? { ...m, content: first + m.content }
            : m,
      );
      const context = req.context
        ? {
            ...req.context,
            ...(side ? { side } : {}),
            ...(cur.message
              ? {
                  history: [
                    ...req.context.history.filter((h) => h.content !== cur.message),
                    { speaker: 'Human', content: cur.message, human: true },
                  ],
                }
              : {}),
          }
        : undefined;
      return { ...req, messages, context };
    }
  }
}

/** Mean rank (1 = best) of each answer label over the ballots that ranked it. */
export function meanRanks(s: FormatState): Record<string, number> {
  const sums: Record<string, { total: number; n: number }> = {};
  for (const b of s.ballots) {
    b.order.forEach((label, i) => {
      sums[label] ??= { total: 0, n: 0 };
      sums[label].total += i + 1;
      sums[label].n += 1;
    });
  }
  return Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, v.total / v.n]));
}

export const turnsSoFar = turnsSaid;
