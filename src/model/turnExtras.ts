// What the protocol adds to an agent's turn, joined to it by the feed model (feed.ts): its ACL message, a request
// it made, a delegation it handed over. The bubble shows them in plain words, collapsed beneath the text
// ('proposes to Ada', 'asks Bo whether…'), never as protocol badges. Pure.

export interface TurnExtra {
  /** frameKey of the frame it came from (acl_message, request), or the delegation's own key. */
  key: string;
  kind: 'acl' | 'request' | 'delegation';
  performative: string | null;
  /** Who it is addressed to; null or 'all' for everyone. */
  receiver: string | null;
  /** The stance and confidence an ACL message's content states, when it does. */
  stance: string | null;
  confidence: number | null;
  /** A delegation's task or reason; a request's own words when they differ from the turn's. */
  note: string | null;
  /** The frame, for the JSON export and anyone who wants the exact words. */
  source: unknown;
}

const everyone = (r: string | null) => r === null || r === '' || r.toLowerCase() === 'all';

/** A performative as a short phrase in the reader's words: 'proposes to Ada', 'asks Bo whether…'. */
export function performativePhrase(performative: string | null, receiver: string | null): string {
  const to = everyone(receiver) ? null : receiver;
  const toAll = to ?? 'everyone';
  switch ((performative ?? 'inform').toLowerCase()) {
    case 'propose':
      return `proposes to ${toAll}`;
    case 'inform':
      return to ? `tells ${to}` : 'shares a view';
    case 'inform-if':
      return `tells ${toAll} whether…`;
    case 'request':
      return `asks ${toAll} to act`;
    case 'query-if':
      return `asks ${toAll} whether…`;
    case 'query-ref':
      return `asks ${toAll} about…`;
    case 'cfp':
      return `asks ${toAll} for proposals`;
    case 'accept-proposal':
      return to ? `accepts ${to}'s proposal` : 'accepts the proposal';
    case 'reject-proposal':
      return to ? `rejects ${to}'s proposal` : 'rejects the proposal';
    case 'agree':
      return to ? `agrees with ${to}` : 'agrees';
    case 'refuse':
      return to ? `declines ${to}'s request` : 'declines';
    case 'confirm':
      return to ? `confirms ${to}'s point` : 'confirms';
    case 'disconfirm':
      return to ? `disputes ${to}'s point` : 'disputes the point';
    case 'not-understood':
      return to ? `asks ${to} to clarify` : 'asks for clarification';
    default:
      return `${performative!.replace(/[-_]/g, ' ')}${to ? ` (to ${to})` : ''}`;
  }
}

/** One line for an extra: 'proposes to Ada', 'hands over to Bo: check the costs'. */
export function describeExtra(e: TurnExtra): string {
  if (e.kind === 'delegation') return `hands over to ${e.receiver ?? 'someone'}${e.note ? `: ${e.note}` : ''}`;
  return performativePhrase(e.performative, e.receiver);
}

/** The phrases of a turn's extras, each once (an ACL message and its request say the same thing). */
export function extraPhrases(extras: readonly TurnExtra[] | undefined): string[] {
  return [...new Set((extras ?? []).map(describeExtra))];
}

const STANCE_WORDS: Record<string, string> = {
  support: 'in favour',
  supports: 'in favour',
  agree: 'in favour',
  oppose: 'against',
  opposes: 'against',
  against: 'against',
  neutral: 'undecided',
  undecided: 'undecided',
  mixed: 'undecided',
};
/** A stated stance in the reader's words ('support' → 'in favour'); an unknown word as it came. */
export const stanceWords = (stance: string): string => STANCE_WORDS[stance.toLowerCase()] ?? stance.replace(/_/g, ' ');

/** The stance and confidence the turn's ACL message stated, when one did. */
export function statedPosition(extras: readonly TurnExtra[] | undefined): {
  stance: string | null;
  confidence: number | null;
} {
  for (const e of extras ?? [])
    if (e.stance !== null || e.confidence !== null) return { stance: e.stance, confidence: e.confidence };
  return { stance: null, confidence: null };
}
