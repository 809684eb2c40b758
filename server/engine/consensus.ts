import type { z } from 'zod';
import type { stance as stanceSchema } from './turnAnswer';

export type Stance = z.infer<typeof stanceSchema>;

/** One agent's latest position: the option it holds (positions/options.ts) and how sure it is. */
export interface Position {
  agentId: string;
  agentName: string;
  stance: Stance;
  /** 0–1, already reduced when the agent gave no evidence where evidence was required. */
  confidence: number;
  /** What the agent last said, the fallback of a dissenting opinion's words. */
  content: string;
  /** The option the agent holds; null (or absent) when it holds none yet. */
  optionId?: string | null;
  /** Whether the agent has spoken after hearing at least one other agent (sticky once true). */
  informed?: boolean;
  /** Its confidence counts half: evidence was required and its last answer gave none. */
  unevidenced?: boolean;
}

export interface ConsensusMeasure {
  /** The confidence-weighted share of the leading option over all participants, 0–1 (see `measureConsensus`). */
  score: number;
  /** Share of the participants (by head count) holding the leading option, 0–1. */
  supportLevel: number;
  /** Mean confidence of the leading option's holders, 0 when nobody holds one. */
  confidence: number;
  /** The leading option's id, null when nobody holds an option. */
  leader: string | null;
  /** How many participants hold the leading option. */
  holders: number;
  /** "Name: option" for every agent that holds another option than the leading one (holding none is not dissent). */
  dissent: string[];
  /** The same, as data: the agent's name and its option's label. */
  dissenters: { agent_name: string; label: string }[];
  /** True when every participant has taken a position; a score over part of the table is not consensus. */
  complete: boolean;
  /** True when every participant has spoken after hearing at least one other agent. */
  informed: boolean;
  /** How many of the leading option's holders count at half confidence (no evidence where it was required). */
  halved: number;
}

const clamp = (x: number) => Math.min(1, Math.max(0, Number.isFinite(x) ? x : 0));
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * The one consensus figure of a discussion (panels, Analytics, the summary prompt, PDF/JSON, History and
 * `consensus_reached` all read it from here):
 *
 *     leader = the option with the greatest Σ cᵢ over its holders (ties: more holders, then the older option)
 *     score  = Σ cᵢ·[optionᵢ = leader] / N          N = every participant, spoken or not
 *
 * So two agents on one option at 0.49 and 0.66 score 0.575, three agents on three options score at most 1/3, and a
 * table where everyone is unsure never scores high. The score does not depend on the order the positions come in.
 * `labelOf` names an option in the dissenting opinions (the agent's own words otherwise).
 */
export function measureConsensus(
  positions: readonly Position[],
  participants: number,
  labelOf: (optionId: string) => string | undefined = () => undefined,
): ConsensusMeasure {
  const weight = new Map<string, { sum: number; holders: number }>();
  for (const p of positions) {
    if (!p.optionId) continue;
    const w = weight.get(p.optionId) ?? { sum: 0, holders: 0 };
    w.sum += clamp(p.confidence);
    w.holders += 1;
    weight.set(p.optionId, w);
  }
  let leader: string | null = null;
  for (const [id, w] of weight) {
    const best = leader === null ? null : weight.get(leader)!;
    if (
      !best ||
      w.sum > best.sum ||
      (w.sum === best.sum &&
        (w.holders > best.holders ||
          (w.holders === best.holders && id.localeCompare(leader!, 'en', { numeric: true }) < 0)))
    )
      leader = id;
  }
  const n = Math.max(participants, positions.length);
  const lead = leader === null ? null : weight.get(leader)!;
  const dissenters = positions
    .filter((p) => p.optionId && p.optionId !== leader)
    .map((p) => ({ agent_name: p.agentName, label: labelOf(p.optionId!) ?? p.content }));
  return {
    score: n > 0 && lead ? round3(clamp(lead.sum / n)) : 0,
    supportLevel: n > 0 && lead ? round3(lead.holders / n) : 0,
    confidence: lead && lead.holders ? round3(lead.sum / lead.holders) : 0,
    leader,
    holders: lead?.holders ?? 0,
    dissent: dissenters.map((d) => `${d.agent_name}: ${d.label}`),
    dissenters,
    complete: participants > 0 && positions.length >= participants,
    informed: participants > 0 && positions.filter((p) => p.informed).length >= participants,
    halved: leader === null ? 0 : positions.filter((p) => p.optionId === leader && p.unevidenced).length,
  };
}

/**
 * Has the table agreed at `threshold`? Only a complete table can, and only once every agent has spoken after
 * hearing at least one other: a row of independent first answers is a vote, not a discussion's agreement.
 */
export const hasConverged = (m: ConsensusMeasure, threshold: number) =>
  m.complete && m.informed && m.score >= threshold;
