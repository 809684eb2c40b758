import type { DiscussionFormat } from '../../../src/schemas/format';

// What zod cannot see in the first frame's `format`: whether the agents it names are in the discussion and whether
// the roles fit together. A problem is one plain sentence; the discussion does not start.

export function formatProblem(format: DiscussionFormat | undefined, agentIds: readonly string[]): string | null {
  if (!format) return null;
  const inTable = new Set(agentIds);
  const outside = (id: string | undefined, what: string) =>
    id !== undefined && id !== 'human' && !inTable.has(id)
      ? `format.${what} "${id.slice(0, 60)}" is not an agent of this discussion`
      : null;
  const problem =
    outside(format.moderator, 'moderator') ?? outside(format.judge, 'judge') ?? outside(format.chair, 'chair');
  if (problem) return problem;
  if (format.kind !== 'debate') return null;
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
