import type { Vote } from '../../../src/schemas/positions';
import type { Plan } from '../plan';
import { consensusOf, type DiscussionRecord } from '../record';
import { changesSentence, noChanges, type ChangeCounts } from './changes';
import { outcomeSentence, voteOf } from './votes';

// What a discussion did to its first vote, as the frames that close it carry it (consensus_reached,
// discussion_summary) and the summary prompt says it.

export interface Outcome {
  first_vote: Vote | null;
  final_vote: Vote | null;
  outcome?: string;
  changes: ChangeCounts;
}

export function outcomeOf(plan: Plan, record: DiscussionRecord): Outcome {
  const final = voteOf(consensusOf(plan, record), record.options?.options ?? [], plan.agents.length);
  const first = record.firstVote ?? null;
  const outcome = outcomeSentence(first, final);
  return {
    first_vote: first,
    final_vote: final,
    ...(outcome ? { outcome } : {}),
    changes: record.changes ?? noChanges(),
  };
}

/** The outcome and the changes of position in two sentences, for the summary prompt. */
export function outcomeText(plan: Plan, record: DiscussionRecord): string {
  const o = outcomeOf(plan, record);
  return [o.outcome ? `${o.outcome}.` : '', changesSentence(o.changes)].filter(Boolean).join(' ');
}
