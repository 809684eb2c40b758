import type { Plan } from '../plan';
import { heardBy, type DiscussionRecord, type SpokenTurn } from '../record';
import type { FormatState } from './state';

// Who hears what, written once per format (docs/protocol.md#formats):
//   council stage 1 (answers) and 2 (ranking): the question only, and for the ranking the others' answers as
//     Answer A, B, C… (prompts.ts); stage 3 (the chair): the answers and their ranking;
//   debate: a debater and the judge after the closing hear the whole debate; the judge before it, the motion only;
//   round table and moderated: the whole discussion, or only the agents connected on the canvas when
//     'hear only connected agents' is on (the plan's hearing, from the canvas connections).

export function hears(
  plan: Plan,
  record: DiscussionRecord,
  state: FormatState,
  agentId: string,
  limit = 12,
): SpokenTurn[] {
  const task = state.current?.task;
  if (task === 'answer' || task === 'rank' || task === 'synthesis') return [];
  if (task === 'vote' && state.current?.phase === 'before') return [];
  if (plan.format?.kind === 'debate') return record.turns.slice(-limit);
  return heardBy(plan, record, agentId, limit);
}

export const heardInFormat = hears;
