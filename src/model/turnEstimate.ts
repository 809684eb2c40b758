import { HYBRID_FALLBACK_MAX_ROUNDS, type EndpointKey } from '../schemas/constants';
import type { StandardPanelSettings } from '../schemas/settings';
import { formatOption } from './formats';

// How many turns a Start will plan, said before Start: the server's plan (server/engine/plan.ts) multiplies the
// same numbers. Multi-round reasoning with its defaults is 5 rounds × 5 stages × one turn per agent: 75 turns for
// three agents, which a person should know before pressing Start.

export interface TurnEstimate {
  turns: number;
  /** How the number comes about, in words: '5 rounds × 5 stages × 3 agents'. */
  how: string;
}

const n = (k: number, word: string) => `${k} ${word}${k === 1 ? '' : 's'}`;

export function plannedTurns(key: EndpointKey, s: StandardPanelSettings, agents: number): TurnEstimate {
  const a = Math.max(agents, 2);
  switch (key) {
    case 'multi_round': {
      const stages = new Set(s.reasoning.stages);
      if (s.reasoning.enableImplementation) stages.add('implementation');
      const turns = s.reasoning.maxRounds * stages.size * a;
      return { turns, how: `${n(s.reasoning.maxRounds, 'round')} × ${n(stages.size, 'stage')} × ${n(a, 'agent')}` };
    }
    case 'hybrid':
      return {
        turns: HYBRID_FALLBACK_MAX_ROUNDS * a,
        how: `${n(HYBRID_FALLBACK_MAX_ROUNDS, 'round')} × ${n(a, 'agent')}`,
      };
    default:
      return { turns: s.basic.turns, how: n(s.basic.turns, 'turn') };
  }
}

/**
 * One sentence for under Start where the Format line's count needs its breakdown: 'Plans up to 75 messages (5 rounds ×
 * 5 stages × 3 agents); it stops early on consensus.' Plain turns need none (the Format line says their number), and
 * the other formats count their own messages. 'Messages', as the panel's counter says: each turn is one message.
 */
export function turnEstimateLine(key: EndpointKey, s: StandardPanelSettings, agents: number): string | null {
  if (key === 'basic' || key === 'enhanced' || formatOption(s.format.kind).endsItself) return null;
  const e = plannedTurns(key, s, agents);
  return `Plans up to ${e.turns} messages (${e.how}); it stops early on consensus.`;
}
