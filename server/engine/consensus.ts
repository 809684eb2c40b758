import type { z } from 'zod';
import type { stance as stanceSchema } from './turnAnswer';

export type Stance = z.infer<typeof stanceSchema>;

/** One agent's latest position on the proposal under discussion. */
export interface Position {
  agentId: string;
  agentName: string;
  stance: Stance;
  /** 0–1, already reduced when the agent gave no evidence where evidence was required. */
  confidence: number;
  /** What the agent last said, quoted in dissenting opinions. */
  content: string;
}

export interface ConsensusMeasure {
  /** Confidence-weighted support, 0–1 (see `measureConsensus`). */
  score: number;
  /** Share of the participants (by head count) whose latest stance is support, 0–1. */
  supportLevel: number;
  /** Mean confidence of the supporters, 0 when nobody supports. */
  confidence: number;
  /** "Name: what they said" for every agent whose latest stance is oppose. */
  dissent: string[];
  /** True when every participant has taken a position; a score over part of the table is not consensus. */
  complete: boolean;
}

/** Weight of each stance in the score. Neutral counts as not (yet) agreeing: abstaining never makes consensus. */
export const STANCE_WEIGHT: Record<Stance, number> = { support: 1, neutral: 0, oppose: 0 };

/**
 * The consensus score of a discussion is the confidence-weighted support over each participant's latest stance:
 *
 *     score = Σ cᵢ·sᵢ / Σ cᵢ      with sᵢ = 1 (support), 0 (neutral), 0 (oppose)
 *
 * over the agents that have taken a position; 0 when nobody has (or every confidence is 0). A sure opponent pulls
 * the score down more than a hesitant one, a sure supporter pulls it up more. The score decides early stopping
 * (multi-round: score ≥ convergenceThreshold), auto-stop (hybrid: score ≥ consensus_threshold) and adaptive mode,
 * and only once `complete` (everyone has spoken), so one eager agent can never declare consensus alone.
 */
export function measureConsensus(positions: readonly Position[], participants: number): ConsensusMeasure {
  const clamp = (x: number) => Math.min(1, Math.max(0, Number.isFinite(x) ? x : 0));
  let weighted = 0;
  let total = 0;
  const supporters: Position[] = [];
  for (const p of positions) {
    const c = clamp(p.confidence);
    weighted += c * STANCE_WEIGHT[p.stance];
    total += c;
    if (p.stance === 'support') supporters.push(p);
  }
  const score = total > 0 ? clamp(weighted / total) : 0;
  return {
    score: round3(score),
    supportLevel: participants > 0 ? round3(supporters.length / participants) : 0,
    confidence: supporters.length ? round3(supporters.reduce((s, p) => s + clamp(p.confidence), 0) / supporters.length) : 0,
    dissent: positions.filter((p) => p.stance === 'oppose').map((p) => `${p.agentName}: ${p.content}`),
    complete: participants > 0 && positions.length >= participants,
  };
}

/** Has the table agreed at `threshold`? Only a complete table can. */
export const hasConverged = (m: ConsensusMeasure, threshold: number) => m.complete && m.score >= threshold;

const round3 = (x: number) => Math.round(x * 1000) / 1000;
