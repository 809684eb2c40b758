import type { Consensus } from '../schemas/discussion';
import type { Vote } from '../schemas/positions';

// The outcome of a discussion in words, written once: the feed's closing row, Analytics, History's replay, the PDF
// and the JSON export all call this (docs/discussions.md#the-outcome-row). It reads only what the server computed
// (server/engine/consensus.ts): the leading option, how many hold it, their mean confidence, how many of them the
// evidence rule counted at half weight, and who holds another option. Agreement (who holds what) and strength
// (how sure the holders are) are separate words, so a table that all holds one option at low confidence reads
// 'Agreed, not yet sure', never 'Not agreed yet'.

/** The evidence rule as both panels' settings name it (settings: requireEvidence, evidence_required). */
export const EVIDENCE_RULE = {
  label: 'Count answers without evidence at half weight',
  hint: 'An answer that cites no evidence counts at half its confidence in the agreement’s strength.',
} as const;

export interface DissentFact {
  agent: string;
  option: string;
}

export interface OutcomeFacts {
  /** The leading option; null when nobody holds one. */
  leader: { label: string; holders: number; of: number } | null;
  /** Mean confidence of the leader's holders, 0–1 (after the evidence rule). */
  strength: number;
  /** Holders the evidence rule counted at half weight. */
  halved: number;
  /** The server's verdict: the table converged at the discussion's threshold. */
  reached: boolean;
  /** Only those who hold another option, each with that option. */
  dissent: readonly DissentFact[];
  /** What the discussion did to the first vote, in one sentence (no full stop). */
  firstVote?: string;
  /**
   * A frame from before positions were data names no option: its share of the table then (support_level). Its
   * solution text is never said: it is a turn's own words, and the row would print that turn a second time.
   */
  legacyShare?: number;
}

export interface OutcomeWords {
  /** 'Agreed (82 %)', 'Agreed, not yet sure (28 %)', 'Not agreed yet', 'One voice (70 %)', 'No position yet'. */
  headline: string;
  /** '2 of 3 hold "…" · strength 62 %. Dissent: Tomas holds "…".' */
  body: string;
  /** The first-vote sentence with its full stop, or null. */
  firstVote: string | null;
  /** headline, body and first-vote sentence as one paragraph (PDF, JSON). */
  text: string;
}

export const percent = (x: number) => `${Math.round(Math.min(1, Math.max(0, x)) * 100)} %`;

/** '2 answers without evidence counted at half weight', or null when the evidence rule did not apply. */
export function evidenceNote(halved: number | null | undefined): string | null {
  if (!halved || halved < 1) return null;
  return `${halved} answer${halved === 1 ? '' : 's'} without evidence counted at half weight`;
}

function holdersPhrase(l: NonNullable<OutcomeFacts['leader']>): string {
  const option = `"${l.label}"`;
  if (l.of <= 1) return `The only participant holds ${option}`;
  if (l.holders >= l.of) return `${l.of === 2 ? 'Both' : `All ${l.of}`} hold ${option}`;
  return `${l.holders} of ${l.of} hold${l.holders === 1 ? 's' : ''} ${option}`;
}

export function outcomeWords(f: OutcomeFacts): OutcomeWords {
  const firstVote = f.firstVote ? `${f.firstVote.replace(/\.$/, '')}.` : null;
  const l = f.leader;
  let headline: string;
  let body: string;
  if (!l || l.holders < 1) {
    const legacy = f.legacyShare !== undefined;
    headline = legacy ? (f.reached ? 'Agreed' : 'Not agreed yet') : 'No position yet';
    body = legacy
      ? `Support ${percent(f.legacyShare!)} · strength ${percent(f.strength)}.`
      : 'Nobody holds an option yet.';
  } else {
    const strength = percent(f.strength);
    headline =
      l.of <= 1
        ? `One voice (${strength})`
        : f.reached
          ? `Agreed (${strength})`
          : l.holders >= l.of
            ? `Agreed, not yet sure (${strength})`
            : 'Not agreed yet';
    const note = evidenceNote(f.halved);
    body = `${holdersPhrase(l)} · strength ${strength}${note ? `, ${note}` : ''}.`;
    const others = f.dissent.filter((d) => d.option !== l.label);
    if (others.length) body += ` Dissent: ${others.map((d) => `${d.agent} holds "${d.option}"`).join('; ')}.`;
  }
  return { headline, body, firstVote, text: [`${headline}.`, body, firstVote].filter(Boolean).join(' ') };
}

/** What a consensus_reached frame (or its stored copy) says, as facts for `outcomeWords`. */
export interface OutcomeCarrier {
  consensus: Consensus;
  score: number;
  reached: boolean;
  consensus_halved?: number;
  final_vote?: Vote | null;
  outcome?: string;
  dissent?: readonly { agent_name: string; label: string }[];
}

/**
 * The facts of a closing frame. A frame stored before the server sent `dissent` names dissent as 'Name: words';
 * only those whose words are another known option count (`optionLabels`), since those frames also listed agents
 * that held no option, and the leading option's own holders by their turn's words.
 */
export function outcomeFactsOf(c: OutcomeCarrier, optionLabels: readonly string[] = []): OutcomeFacts {
  const leader = c.final_vote
    ? { label: c.final_vote.label, holders: c.final_vote.holders, of: c.final_vote.of }
    : null;
  const known = new Set(optionLabels);
  const dissent: DissentFact[] = c.dissent
    ? c.dissent.map((d) => ({ agent: d.agent_name, option: d.label }))
    : c.consensus.dissenting_opinions.flatMap((d) => {
        const m = /^([^:]{1,80}):\s*([\s\S]+)$/.exec(d);
        return m && known.has(m[2].trim()) ? [{ agent: m[1], option: m[2].trim() }] : [];
      });
  return {
    leader,
    strength: c.consensus.confidence,
    halved: c.consensus_halved ?? 0,
    reached: c.reached,
    dissent,
    ...(c.outcome ? { firstVote: c.outcome } : {}),
    ...(leader || typeof c.consensus.support_level !== 'number' ? {} : { legacyShare: c.consensus.support_level }),
  };
}
