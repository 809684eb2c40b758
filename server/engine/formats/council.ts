import type { ChatMessage } from '../../providers/types';
import type { EngineContext } from '../context';
import type { EngineFrame } from '../frames';
import type { Plan } from '../plan';
import { TURN_ANSWER_JSON_SCHEMA } from '../prompt';
import type { TurnContext } from '../turnAnswer';
import { rankSchema, readRanking } from './answers';
import type { FormatDefinition } from './definition';
import { scriptedOrder } from './floor';
import { ctxBase, persona, repairNote, request, withoutNames } from './prompts';
import { labelOf, type FormatState, type Slot } from './state';
import { nameOf } from './steps';

// Council: every agent answers the question on its own (asked for at once where speech is off, lanes.ts), each
// ranks the others' answers shown only as Answer A, B, C…, then the chair writes the council's answer from the
// answers and their ranking. The chair's answer is the discussion's summary.

export interface CouncilPlan {
  kind: 'council';
  /** The agent who writes the council's final answer (the first agent unless the frame names one). */
  chair: string;
}

declare module './formatPlan' {
  interface FormatPlans {
    council: CouncilPlan;
  }
}

export const council: FormatDefinition<CouncilPlan> = {
  kind: 'council',
  plan: (format, agentIds) => ({ kind: 'council', chair: format.chair ?? agentIds[0] }),
  problem: () => null,
  endsItself: true,
  speakers: (_plan, agents) => [...agents],
  script: (f, plan) => [
    ...plan.agents.map((a): Slot => ({ agentId: a.id, task: 'answer', stage: 'answers' })),
    ...plan.agents.map((a): Slot => ({ agentId: a.id, task: 'rank', stage: 'ranking' })),
    { agentId: f.chair ?? plan.agents[0].id, task: 'synthesis', stage: 'synthesis' },
  ],
  order: (_c, _plan, script, step) => scriptedOrder(script, step),
  givenFloorKeepsStage: false,
  mentionsHandOver: false,
  stages: {
    answers: {
      title: 'Stage 1: independent answers',
      description: 'Every agent answers the question on its own, hearing nobody else.',
    },
    ranking: {
      title: 'Stage 2: anonymous ranking',
      description: 'Each agent ranks the others’ answers, shown only as Answer A, B, C…',
    },
    synthesis: {
      title: 'Stage 3: the chair’s answer',
      description: 'The chair writes the final answer from the answers and their ranking.',
    },
  },
  beforeStage: (c, stage) => (stage === 'synthesis' ? [rankingFrame(c)] : []),
  hearing: 'canvas',
  answersAtOnce: true,
  personJudges: () => false,
  personGivesFloor: () => false,

  afterTurn(s, cur, agent, content) {
    if (cur.task === 'answer')
      return { answers: [...s.answers, { label: labelOf(s.answers.length), agentId: agent.id, text: content }] };
    // The chair's answer is the council's answer, and it is in the feed already: the summary points to it rather
    // than printing it a second time word for word.
    if (cur.task === 'synthesis') return { summary: councilSummary(agent.name, s.answers.length) };
    return {};
  },

  prompt(c, s, cur, agent) {
    const { plan } = c;
    if (cur.task === 'rank') {
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
    if (cur.task === 'synthesis') {
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
  },

  /** A ranking, its local labels read back to the answers' own; unreadable twice, it is left out. */
  recordChoice(c, _cur, { raw, agent, retry, done, problem }) {
    const s = c.format!;
    const ballot = ballotFor(s, c.plan, agent.id);
    const read = readRanking(
      raw,
      ballot.map((b) => b.local),
    );
    if (!read.ok) {
      const again = retry(read.why);
      if (again) return again;
      return done({}, problem(read.why, 'its ranking is left out'));
    }
    const global = (local: string) => ballot.find((b) => b.local === local)!.label;
    const reasons = Object.fromEntries(Object.entries(read.value.reasons).map(([k, v]) => [global(k), v]));
    return done({ ballots: [...s.ballots, { voterId: agent.id, order: read.value.order.map(global), reasons }] });
  },
};

/** A council's summary: who gave the answer, from how many, where to read it. */
export const councilSummary = (chair: string, answers: number) =>
  `${chair}, as chair, weighed the council's ${answers} answer${answers === 1 ? '' : 's'} and their ranking and gave the council's answer above.`;

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

/** The ranking so far: each answer, its agent and its mean rank, best first. */
export function rankingFrame(c: EngineContext): EngineFrame {
  const s = c.format!;
  const means = meanRanks(s);
  const rows = s.answers
    .map((a) => ({
      label: a.label,
      agent_id: a.agentId,
      agent_name: nameOf(c, a.agentId),
      mean_rank: means[a.label] ?? null,
      ballots: s.ballots.filter((b) => b.order.includes(a.label)).length,
    }))
    .sort((x, y) => (x.mean_rank ?? 99) - (y.mean_rank ?? 99));
  return {
    type: 'ranking',
    rows,
    ballots: s.ballots.map((b) => ({ voter_id: b.voterId, order: b.order, reasons: b.reasons })),
  };
}
