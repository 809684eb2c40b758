import type { TurnContext } from '../../../engine/turnAnswer';
import type { Rng } from './seeded';

// How an offline agent takes a position. The model is simple and documented so discussions reach
// consensus in a believable way:
//
//   maturity m ∈ [0,1] grows with the round, the number of turns heard and the stage
//     m = clamp(0.15·(round−1) + 0.035·turnsHeard + stageBoost)
//     stageBoost: brainstorming 0, analysis .05, critique 0 (critique keeps doubt alive), synthesis .2,
//                 consensus .4, implementation .4
//   social pull s ∈ [−1,1] is the confidence-weighted stance of the last six turns heard
//     (support +1, oppose −1, neutral 0); a reactive agent weighs the last speaker three times
//   P(oppose)  = opposeBias·(1−m)^1.5·(1 − 0.5·conformity·max(s,0)) + 0.25·conformity·max(−s,0)·(1−m)
//   P(support) = clamp(0.12 + 0.8·m + 0.25·conformity·s, 0, 1 − P(oppose))
//   the rest is neutral.
// Confidence follows the stance: support grows more confident as m rises, opposition less so.
// With a mix of personalities the confidence-weighted support climbs over three to five rounds.

export type Stance = 'support' | 'oppose' | 'neutral';

export interface Temperament {
  opposeBias: number;
  conformity: number;
  confidence: number;
  citesEvidence: boolean;
  addressesLastSpeaker: boolean;
}

const TEMPERAMENTS: Record<string, Temperament> = {
  assertive: { opposeBias: 0.7, conformity: 0.3, confidence: 0.74, citesEvidence: false, addressesLastSpeaker: false },
  patient: { opposeBias: 0.25, conformity: 0.75, confidence: 0.6, citesEvidence: false, addressesLastSpeaker: false },
  analytical: { opposeBias: 0.5, conformity: 0.45, confidence: 0.66, citesEvidence: true, addressesLastSpeaker: false },
  reactive: { opposeBias: 0.5, conformity: 0.6, confidence: 0.6, citesEvidence: false, addressesLastSpeaker: true },
};
const DEFAULT_TEMPERAMENT: Temperament = {
  opposeBias: 0.45,
  conformity: 0.5,
  confidence: 0.63,
  citesEvidence: false,
  addressesLastSpeaker: false,
};

export function temperamentOf(personality: string | null | undefined): Temperament {
  return TEMPERAMENTS[(personality ?? '').trim().toLowerCase()] ?? DEFAULT_TEMPERAMENT;
}

const STAGE_BOOST: Record<string, number> = {
  brainstorming: 0,
  analysis: 0.05,
  critique: 0,
  synthesis: 0.2,
  consensus: 0.4,
  implementation: 0.4,
};

const clamp = (x: number, lo = 0, hi = 1) => Math.min(hi, Math.max(lo, x));
const signOf = (stance: string | undefined) => (stance === 'support' ? 1 : stance === 'oppose' ? -1 : 0);

export function maturity(ctx: TurnContext): number {
  const round = Math.max(1, ctx.round ?? 1);
  return clamp(0.15 * (round - 1) + 0.035 * ctx.history.length + (STAGE_BOOST[ctx.stage ?? ''] ?? 0));
}

/** Confidence-weighted stance of what the agent heard recently, in [−1, 1]. */
export function socialPull(ctx: TurnContext, t: Temperament): number {
  const recent = ctx.history.filter((h) => h.speaker !== ctx.agent.name).slice(-6);
  let num = 0;
  let den = 0;
  recent.forEach((h, i) => {
    const w = (h.confidence ?? 0.5) * (t.addressesLastSpeaker && i === recent.length - 1 ? 3 : 1);
    num += w * signOf(h.stance);
    den += w;
  });
  return den ? num / den : 0;
}

export interface Position {
  stance: Stance;
  confidence: number;
  maturity: number;
}

export function takePosition(ctx: TurnContext, t: Temperament, rng: Rng, temperature = 0.7): Position {
  const m = maturity(ctx);
  // The opening turn proposes; a proposer backs its own proposal.
  if (!ctx.history.length)
    return {
      stance: 'support',
      confidence: round2(clamp(t.confidence - 0.08 + rng.jitter(0.04), 0.05, 0.98)),
      maturity: m,
    };
  const s = socialPull(ctx, t);
  const pOppose = clamp(
    t.opposeBias * (1 - m) ** 1.5 * (1 - 0.5 * t.conformity * Math.max(s, 0)) +
      0.25 * t.conformity * Math.max(-s, 0) * (1 - m),
  );
  const pSupport = clamp(0.12 + 0.8 * m + 0.25 * t.conformity * s, 0, 1 - pOppose);
  const draw = rng.next();
  const stance: Stance = draw < pOppose ? 'oppose' : draw < pOppose + pSupport ? 'support' : 'neutral';
  const noise = rng.jitter(0.05 * clamp(temperature / 0.7, 0.3, 2));
  const base =
    stance === 'support'
      ? t.confidence - 0.1 + 0.3 * m
      : stance === 'oppose'
        ? t.confidence - 0.02 - 0.3 * m
        : 0.38 + 0.2 * m;
  return { stance, confidence: round2(clamp(base + noise, 0.05, 0.98)), maturity: m };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * One stated position per agent: a drawn stance that differs from the agent's last one stands only when someone it
 * heard since then moved it (a person, or a voice on the new side; for 'neutral', a voice against its old side).
 * A mature discussion may bring it round to support. Otherwise the agent keeps its last stance, a little surer or less sure as the room leans.
 */
export function holdPosition(
  drawn: Position,
  mine: { stance?: string; confidence?: number } | undefined,
  since: TurnContext['history'],
): Position {
  const before = mine?.stance as Stance | undefined;
  if (!before || before === drawn.stance || !['support', 'oppose', 'neutral'].includes(before)) return drawn;
  const moved = since.some(
    (h) => h.human || (drawn.stance === 'neutral' ? h.stance !== before && !!h.stance : h.stance === drawn.stance),
  );
  // As the discussion matures, coming round to support is its own reason (the agent says the discussion moved it).
  if (moved || (drawn.stance === 'support' && drawn.maturity >= 0.4)) return drawn;
  return {
    stance: before,
    confidence: round2(clamp((mine?.confidence ?? drawn.confidence) + (drawn.confidence - 0.5) * 0.05, 0.05, 0.98)),
    maturity: drawn.maturity,
  };
}
