import type { FormatDefinition } from './definition';
import { ORDER_REASONS, orderedSpeaker } from './floor';

// The round table: the agents speak by the discussion's own order (delegation, address, mode) over its rounds and
// stages; an @mention gives the named agent the next turn. Sent with no format, a discussion is this without floor
// frames until the person @mentions an agent (steps.ts, noteHumanMessage).

export interface RoundTablePlan {
  kind: 'round_table';
}

declare module './formatPlan' {
  interface FormatPlans {
    round_table: RoundTablePlan;
  }
}

export const roundTable: FormatDefinition<RoundTablePlan> = {
  kind: 'round_table',
  plan: () => ({ kind: 'round_table' }),
  problem: () => null,
  endsItself: false,
  speakers: (_plan, agents) => [...agents],
  script: () => [],
  order(c) {
    const { agent, reason } = orderedSpeaker(c);
    return {
      kind: 'turn',
      slot: { agentId: agent.id, task: 'speak', stage: null },
      by: 'order',
      reason: ORDER_REASONS[reason],
      fromScript: false,
      speakerReason: reason,
    };
  },
  givenFloorKeepsStage: false,
  mentionsHandOver: true,
  stages: {},
  hearing: 'canvas',
  answersAtOnce: false,
  personJudges: () => false,
  personGivesFloor: () => false,
};
