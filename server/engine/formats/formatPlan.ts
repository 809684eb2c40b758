import type { AgentRef } from '../agentRef';
import type { CouncilPlan } from './council';
import type { DebatePlan } from './debate';
import type { ModeratedPlan } from './moderated';
import { definitionOf } from './registry';
import type { RoundTablePlan } from './roundTable';

// The format as the engine runs it (built by its definition, index.ts): each kind carries only its own roles.

export type FormatPlan = RoundTablePlan | ModeratedPlan | CouncilPlan | DebatePlan;

/** The agents who speak in turn: everyone but an agent moderator or judge (a debate: its two sides). */
export const speakersOf = (f: FormatPlan, agents: readonly AgentRef[]): AgentRef[] =>
  definitionOf(f).speakers(f, agents);

export const sideOf = (f: FormatPlan, agentId: string): 'for' | 'against' | null =>
  definitionOf(f).sideOf?.(f, agentId) ?? null;

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
