import type { DiscussionFormat, FormatKind } from '../../../src/schemas/format';
import type { AgentRef } from '../agentRef';
import { debateSides } from './check';

// The format as the engine runs it: every default decided once (a moderated discussion without a moderator is
// moderated by the person, a council's chair is the first agent, a debate's judge is the person).

export interface FormatPlan {
  kind: FormatKind;
  /** 'human' or an agent id (moderated). */
  moderator: string | null;
  /** The agent who writes the council's final answer. */
  chair: string | null;
  /** 'human' or an agent id (debate). */
  judge: string | null;
  sides: { for: string[]; against: string[] } | null;
}

export function formatPlanOf(format: DiscussionFormat | undefined, agents: readonly AgentRef[]): FormatPlan | null {
  if (!format) return null;
  const ids = agents.map((a) => a.id);
  switch (format.kind) {
    case 'round_table':
      return { kind: 'round_table', moderator: null, chair: null, judge: null, sides: null };
    case 'moderated':
      return { kind: 'moderated', moderator: format.moderator ?? 'human', chair: null, judge: null, sides: null };
    case 'council':
      return { kind: 'council', moderator: null, chair: format.chair ?? ids[0], judge: null, sides: null };
    case 'debate':
      return {
        kind: 'debate',
        moderator: null,
        chair: null,
        judge: format.judge ?? 'human',
        sides: debateSides(format, ids),
      };
  }
}

/** The agents who speak in turn: everyone but an agent moderator or judge (a debate: its two sides). */
export function speakersOf(f: FormatPlan, agents: readonly AgentRef[]): AgentRef[] {
  if (f.kind === 'debate' && f.sides)
    return agents.filter((a) => f.sides!.for.includes(a.id) || f.sides!.against.includes(a.id));
  return agents.filter((a) => a.id !== f.moderator);
}

export const sideOf = (f: FormatPlan, agentId: string): 'for' | 'against' | null =>
  f.sides?.for.includes(agentId) ? 'for' : f.sides?.against.includes(agentId) ? 'against' : null;

/**
 * A plan with its format. A format other than the round table runs one round of one stage: it decides itself
 * when the discussion ends (its script is done, the moderator closes, the person ends it). That one stage keeps the
 * plan's whole turn budget (a moderated hybrid discussion of 10 rounds of 3 turns may take up to 30 turns).
 */
export function withFormat<P extends { rounds: number; stages: unknown[]; turnsPerStage: number }>(
  plan: P,
  format: FormatPlan | null,
): P & { format: FormatPlan | null } {
  if (!format || format.kind === 'round_table') return { ...plan, format };
  const turnsPerStage = plan.rounds * plan.stages.length * plan.turnsPerStage;
  return { ...plan, rounds: 1, stages: [null], turnsPerStage, format };
}
