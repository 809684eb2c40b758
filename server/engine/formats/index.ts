import type { DiscussionFormat, FormatKind } from '../../../src/schemas/format';
import type { AgentRef } from '../agentRef';
import { rolesOutside } from './check';
import { council } from './council';
import { debate } from './debate';
import type { FormatDefinition } from './definition';
import type { FormatPlan } from './formatPlan';
import { moderated } from './moderated';
import { definitionOf, registerFormat } from './registry';
import { roundTable } from './roundTable';

// The formats a discussion can run, one definition file per kind (docs/protocol.md#formats).
// Building a plan or checking a first frame goes through here, so every format is registered before any is used.

export const FORMATS = {
  round_table: roundTable,
  moderated,
  council,
  debate,
} satisfies { [K in FormatKind]: FormatDefinition<Extract<FormatPlan, { kind: K }>> };

for (const definition of Object.values(FORMATS)) registerFormat(definition);

/** The format as the engine runs it: every default decided once, by its definition. */
export function formatPlanOf(format: DiscussionFormat | undefined, agents: readonly AgentRef[]): FormatPlan | null {
  if (!format) return null;
  return definitionOf(format.kind).plan(
    format,
    agents.map((a) => a.id),
  );
}

/** The person holds a seat (gives the floor, votes as judge): it cannot run with nobody there. */
export function seatsThePerson(format: DiscussionFormat | undefined, agents: readonly AgentRef[]): boolean {
  const plan = formatPlanOf(format, agents);
  if (!plan) return false;
  const definition = definitionOf(plan);
  return definition.personJudges(plan) || definition.personGivesFloor(plan);
}

/**
 * What zod cannot see in the first frame's `format`: whether the agents it names are in the discussion and whether
 * the roles fit together. A problem is one plain sentence; the discussion does not start.
 */
export function formatProblem(format: DiscussionFormat | undefined, agentIds: readonly string[]): string | null {
  if (!format) return null;
  return rolesOutside(format, agentIds) ?? definitionOf(format.kind).problem(format, agentIds);
}

/**
 * A plan with its format. A format that ends itself runs one round of one stage: it decides when the discussion
 * ends (its script is done, the moderator closes, the person ends it). That one stage keeps the plan's whole turn
 * budget (a moderated hybrid discussion of 10 rounds of 3 turns may take up to 30 turns).
 */
export function withFormat<P extends { rounds: number; stages: unknown[]; turnsPerStage: number }>(
  plan: P,
  format: FormatPlan | null,
): P & { format: FormatPlan | null } {
  if (!format || !definitionOf(format).endsItself) return { ...plan, format };
  const turnsPerStage = plan.rounds * plan.stages.length * plan.turnsPerStage;
  return { ...plan, rounds: 1, stages: [null], turnsPerStage, format };
}

export { definitionOf, endsItself, registerFormat } from './registry';
export type { FormatDefinition } from './definition';
export type { FormatPlan } from './formatPlan';
