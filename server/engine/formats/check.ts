import type { DiscussionFormat } from '../../../src/schemas/format';

// What every format checks in the first frame's `format` that zod cannot see: the moderator, judge or chair it
// names is an agent of this discussion (or the person). A format's own checks are in its definition (problem).

export function rolesOutside(format: DiscussionFormat, agentIds: readonly string[]): string | null {
  const inTable = new Set(agentIds);
  const outside = (id: string | undefined, what: string) =>
    id !== undefined && id !== 'human' && !inTable.has(id)
      ? `format.${what} "${id.slice(0, 60)}" is not an agent of this discussion`
      : null;
  return outside(format.moderator, 'moderator') ?? outside(format.judge, 'judge') ?? outside(format.chair, 'chair');
}
