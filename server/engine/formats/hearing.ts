import type { Plan } from '../plan';
import { heardBy, type DiscussionRecord, type SpokenTurn } from '../record';
import { definitionOf } from './registry';
import type { FormatState } from './state';

// Who hears what (docs/protocol.md#formats): a council's answers and ranking hear the question only (its ranking
// the others' answers as Answer A, B, C…, council.ts), the chair the answers and their ranking; a judge before the
// debate hears the motion only. A speaking turn hears what its format's `hearing` says: the whole discussion
// (a debate), or the canvas's rule — everyone, or only the agents connected on the canvas when 'hear only connected
// agents' is on (the plan's hearing).

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
  if (plan.format && definitionOf(plan.format).hearing === 'everyone') return record.turns.slice(-limit);
  return heardBy(plan, record, agentId, limit);
}

export const heardInFormat = hears;
