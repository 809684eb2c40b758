import type { FormatOption } from './types';
import { messages } from './types';

// Debate: For and Against argue, a judge votes before and after. An agent judges only with three or more taking
// part (two must argue); otherwise the person judges.

/** The debate's sides as the server will split them: the agents other than the judge, the first half For. */
export function debateSplit(agentIds: readonly string[], judge: string): { for: string[]; against: string[] } {
  const debaters = agentIds.filter((id) => id !== judge);
  const half = Math.ceil(debaters.length / 2);
  return { for: debaters.slice(0, half), against: debaters.slice(half) };
}

/** The judge the first frame will name: an agent taking part when three or more do, else the person. */
export const debateJudge = (judge: string, agentIds: readonly string[]) =>
  judge !== 'human' && agentIds.includes(judge) && agentIds.length >= 3 ? judge : 'human';

export const debate = {
  kind: 'debate',
  label: 'Debate',
  start: 'Start debate',
  line: (c) =>
    `Two sides, For and Against, argue in an opening, a rebuttal and a closing; a judge votes before and after: ${messages(3 * c.debaters)} and two votes.`,
  roles: [{ role: 'judge', label: 'Judge', person: true }],
  note(value, agents) {
    const names = Object.fromEntries(agents.map((a) => [a.id, a.name]));
    const ids = agents.map((a) => a.id);
    const split = debateSplit(ids, debateJudge(value.judge, ids));
    const list = (side: string[]) => side.map((id) => names[id]).join(', ') || 'nobody yet';
    return `For: ${list(split.for)} · Against: ${list(split.against)}`;
  },
  hearsCanvas: false,
  endsItself: true,
  stages: 'opening, rebuttal, closing',
  send: (f, agentIds) => {
    const judge = debateJudge(f.judge, agentIds);
    return { kind: 'debate', judge, sides: debateSplit(agentIds, judge) };
  },
} satisfies FormatOption;
