import type { PositionOption, Vote } from '../../../src/schemas/positions';
import type { ConsensusMeasure } from '../consensus';

// A vote is the consensus measure's leader put in words; the first one is taken once every agent has answered
// once (with 'Independent first answers', before anyone heard anyone), the final one at the end.

export function voteOf(m: ConsensusMeasure, options: readonly PositionOption[], participants: number): Vote | null {
  if (!m.leader) return null;
  const label = options.find((o) => o.id === m.leader)?.label ?? m.leader;
  return { option_id: m.leader, label, holders: m.holders, of: participants, score: m.score };
}

/** What the discussion did to the first vote, in one sentence. */
export function outcomeSentence(first: Vote | null | undefined, final: Vote | null | undefined): string | undefined {
  if (!first || !final) return undefined;
  if (first.option_id === final.option_id && first.holders === final.holders)
    return 'The discussion did not change the first vote';
  return `Moved by the discussion: from "${first.label}" (${first.holders} of ${first.of}) to "${final.label}" (${final.holders} of ${final.of})`;
}
