import type { DiscussionFormat } from '../../../src/schemas/format';
import type { ChatMessage } from '../../providers/types';
import { say, type EngineContext, type Step } from '../context';
import type { EngineFrame } from '../frames';
import { readVote, voteSchema } from './answers';
import type { FormatDefinition } from './definition';
import { scriptedOrder } from './floor';
import { heardInFormat } from './hearing';
import { ctxBase, persona, repairNote, request } from './prompts';
import type { FormatState, Slot, Vote } from './state';
import { nameOf, withState } from './steps';

// Debate: two sides, For and Against, argue the motion in an opening, a rebuttal and a closing (one of each side in
// turn); a judge — the person or an agent who does not argue — votes For or Against with a confidence before and
// after, and the result is how far the judge's support moved. A debater hears the whole debate, whatever the canvas.

export interface DebatePlan {
  kind: 'debate';
  /** 'human' or an agent id. */
  judge: string;
  sides: { for: string[]; against: string[] };
}

declare module './formatPlan' {
  interface FormatPlans {
    debate: DebatePlan;
  }
}

const PHASE_WORDS: Record<string, string> = {
  opening: 'state your case',
  rebuttal: 'answer the other side',
  closing: 'sum up your case',
};

export const debate: FormatDefinition<DebatePlan> = {
  kind: 'debate',
  plan: (format, agentIds) => ({
    kind: 'debate',
    judge: format.judge ?? 'human',
    sides: debateSides(format, agentIds),
  }),
  problem(format, agentIds) {
    const inTable = new Set(agentIds);
    const sides = debateSides(format, agentIds);
    for (const side of ['for', 'against'] as const) {
      const ids = format.sides?.[side];
      if (ids)
        for (const id of ids)
          if (!inTable.has(id))
            return `format.sides.${side} names "${id.slice(0, 60)}", which is not an agent of this discussion`;
      if (!sides[side].length) return `the debate's '${side === 'for' ? 'For' : 'Against'}' side has no agent`;
    }
    const both = sides.for.find((id) => sides.against.includes(id));
    if (both) return `agent "${both.slice(0, 60)}" is on both sides of the debate`;
    const debaters = new Set([...sides.for, ...sides.against]);
    if (format.judge && debaters.has(format.judge)) return 'the judge is also a debater; a judge must not argue a side';
    if (format.chair && debaters.has(format.chair)) return 'the chair is also a debater';
    return null;
  },
  endsItself: true,
  speakers: (plan, agents) => agents.filter((a) => plan.sides.for.includes(a.id) || plan.sides.against.includes(a.id)),
  script(f) {
    const pro = f.sides.for;
    const con = f.sides.against;
    const phase = (stage: string) =>
      Array.from({ length: Math.max(pro.length, con.length) }, (_, i) => [pro[i], con[i]])
        .flat()
        .filter((id): id is string => Boolean(id))
        .map((agentId): Slot => ({ agentId, task: 'speak', stage }));
    const judge = f.judge ?? 'human';
    const vote = (phase: 'before' | 'after'): Slot => ({
      agentId: judge,
      task: 'vote',
      stage: phase === 'before' ? 'vote_before' : 'vote_after',
      phase,
    });
    return [vote('before'), ...phase('opening'), ...phase('rebuttal'), ...phase('closing'), vote('after')];
  },
  order: (_c, _plan, script, step) => scriptedOrder(script, step),
  givenFloorKeepsStage: true,
  mentionsHandOver: false,
  stages: {
    vote_before: { title: 'The judge votes before the debate', description: 'For or Against, with a confidence.' },
    opening: { title: 'Opening statements', description: 'Each side states its case.' },
    rebuttal: { title: 'Rebuttals', description: 'Each side answers the other.' },
    closing: { title: 'Closing statements', description: 'Each side sums up.' },
    vote_after: { title: 'The judge votes after the debate', description: 'For or Against, with a confidence.' },
  },
  waitStage: (s) => (s.step === 0 ? 'vote_before' : 'vote_after'),
  hearing: 'everyone',
  answersAtOnce: false,
  sideOf: (f, agentId) =>
    f.sides.for.includes(agentId) ? 'for' : f.sides.against.includes(agentId) ? 'against' : null,
  speakNote(f, agentId, stage) {
    const side = debate.sideOf!(f, agentId);
    if (!side || !stage) return '';
    return `\nThis is a debate. You argue ${side === 'for' ? 'FOR' : 'AGAINST'} the motion. Phase: ${stage} (${PHASE_WORDS[stage] ?? PHASE_WORDS.closing}).`;
  },
  personJudges: (f) => f.judge === 'human',
  personGivesFloor: () => false,

  prompt(c, s, cur, agent) {
    const { plan } = c;
    const f = plan.format as DebatePlan;
    const heard = cur.phase === 'after' ? heardInFormat(plan, c.record, s, agent.id) : [];
    const messages: ChatMessage[] = [
      {
        role: 'system',
        content: `${persona(agent)}\nYou judge a debate on a motion. Vote For or Against it with a confidence from 0 to 1 and one line of reason. Answer with one JSON object: side (for or against), confidence, content.`,
      },
      {
        role: 'user',
        content: `Motion: ${plan.topic}\n\n${cur.phase === 'after' ? `The debate:\n${heard.map((t) => `${t.human ? 'Human participant' : `${t.speaker} (${debate.sideOf!(f, t.speakerId ?? '') === 'for' ? 'For' : 'Against'})`}: ${t.content}`).join('\n')}\n\nYour vote after the debate?` : 'The debate has not started. Your vote before it?'}`,
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
  },

  /** An agent judge's vote; unreadable twice, no vote is counted. */
  recordChoice(c, cur, { raw, agent, retry, done, problem }) {
    const read = readVote(raw);
    if (!read.ok) {
      const again = retry(read.why);
      if (again) return again;
      return done({}, problem(read.why, 'no vote is counted'));
    }
    return castVote(c, { voterId: agent.id, phase: cur.phase ?? 'before', ...read.value }, done);
  },

  /** A human judge votes (before the opening or after the closing). */
  personVote(c, { side, confidence, reason, voterName }) {
    const s = c.format!;
    const phase = s.votes.some((v) => v.phase === 'before') ? 'after' : 'before';
    const done: Done = (patch, ...frames) => ({
      patch: withState(c, { step: s.step + 1, ...patch }),
      frames: say(...frames),
    });
    // No reason given is an empty reason: the row then says the vote alone (no placeholder words).
    return castVote(c, { voterId: 'human', side, confidence, phase, reason: reason?.trim() ?? '' }, done, voterName);
  },
};

type Done = (patch: Partial<FormatState>, ...frames: EngineFrame[]) => Step;

function castVote(c: EngineContext, vote: Vote, done: Done, voterName = nameOf(c, vote.voterId)): Step {
  const votes = [...c.format!.votes, vote];
  const frames: EngineFrame[] = [
    {
      type: 'vote',
      voter_id: vote.voterId,
      voter_name: voterName,
      side: vote.side,
      confidence: vote.confidence,
      phase: vote.phase,
      reason: vote.reason,
    },
  ];
  if (vote.phase === 'after') frames.push(debateResult(votes));
  return done({ votes }, ...frames);
}

/** Support for 'For' (0–1) a vote expresses. */
const forSupport = (v: Vote) => (v.side === 'for' ? v.confidence : 1 - v.confidence);

export function debateResult(votes: Vote[]): EngineFrame {
  const mean = (vs: Vote[]) => (vs.length ? vs.reduce((t, v) => t + forSupport(v), 0) / vs.length : 0.5);
  const before = Math.round(mean(votes.filter((v) => v.phase === 'before')) * 100);
  const after = Math.round(mean(votes.filter((v) => v.phase === 'after')) * 100);
  const change = after - before;
  const side = change > 0 ? 'for' : change < 0 ? 'against' : null;
  const text = side
    ? `${side === 'for' ? 'For' : 'Against'} gained ${Math.abs(change)} points of the judge's support (For ${before} % before, ${after} % after).`
    : `The judge's support did not move (For ${before} % before and after).`;
  return { type: 'debate_result', side, change, for_before: before, for_after: after, text };
}

/** The debate's sides: as sent, else the agents other than the judge split in two (the first half argues for). */
export function debateSides(
  format: DiscussionFormat,
  agentIds: readonly string[],
): { for: string[]; against: string[] } {
  if (format.sides) return { for: [...new Set(format.sides.for)], against: [...new Set(format.sides.against)] };
  const debaters = agentIds.filter((id) => id !== format.judge && id !== format.chair);
  const half = Math.ceil(debaters.length / 2);
  return { for: debaters.slice(0, half), against: debaters.slice(half) };
}
