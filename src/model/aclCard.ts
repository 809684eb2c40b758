// A turn's ACL message as a card a person reads (the hybrid panel's Structured and Hybrid modes): the
// performative as a word ('Proposes', 'Rejects', 'Asks'), sender → receivers, what it says, what it answers, and
// the stance and confidence it states. Built from the turn's joined extras, never from raw markup. Pure.
import type { FeedItem } from './feed';
import { stanceWords, type TurnExtra } from './turnExtras';

export interface AclCard {
  verb: string;
  from: string;
  to: string;
  content: string;
  /** The turn it answers: its speaker and first words; null when it opens the exchange. */
  answers: { sender: string; excerpt: string } | null;
  stance: string | null;
  confidence: number | null;
}

const VERBS: Record<string, string> = {
  propose: 'Proposes',
  inform: 'Informs',
  'inform-if': 'Informs',
  request: 'Requests',
  'query-if': 'Asks',
  'query-ref': 'Asks',
  cfp: 'Calls for proposals',
  'accept-proposal': 'Accepts',
  'reject-proposal': 'Rejects',
  agree: 'Agrees',
  refuse: 'Refuses',
  confirm: 'Confirms',
  disconfirm: 'Disputes',
  'not-understood': 'Asks to clarify',
};

/** A performative as one capitalised word or two; an unknown one in plain words. */
export function performativeVerb(p: string | null): string {
  const key = (p ?? 'inform').toLowerCase();
  if (VERBS[key]) return VERBS[key];
  const words = key.replace(/[-_]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : 'Informs';
}

const obj = (v: unknown): Record<string, unknown> | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** The words an ACL message says: its stated claim, its natural-language form, else the turn's own text. */
function wordsOf(source: Record<string, unknown> | null, fallback: string): string {
  const content = source?.content;
  const claim = obj(content)?.claim;
  if (typeof claim === 'string' && claim.trim()) return claim.trim();
  if (typeof content === 'string' && content.trim() && !/^\s*[<({[]/.test(content)) return content.trim();
  const nl = source?.natural_language;
  if (typeof nl === 'string' && nl.trim()) return nl.trim();
  return fallback;
}

function replyOf(source: Record<string, unknown> | null): AclCard['answers'] {
  const r = obj(source?.reply_to);
  return r && typeof r.sender === 'string' && typeof r.excerpt === 'string'
    ? { sender: r.sender, excerpt: r.excerpt }
    : null;
}

/** The card of a turn that carries an ACL message; null when it carries none (or is still being written). */
export function aclCardOf(item: Pick<FeedItem, 'extras' | 'agentName' | 'content' | 'streaming'>): AclCard | null {
  if (item.streaming) return null;
  const acl = (item.extras ?? []).find((e: TurnExtra) => e.kind === 'acl');
  if (!acl) return null;
  const source = obj(acl.source);
  const receiver = acl.receiver && acl.receiver.toLowerCase() !== 'all' ? acl.receiver : 'everyone';
  return {
    verb: performativeVerb(acl.performative),
    from: (typeof source?.sender === 'string' && source.sender) || item.agentName || 'Agent',
    to: receiver,
    content: wordsOf(source, item.content),
    answers: replyOf(source),
    stance: acl.stance ? stanceWords(acl.stance) : null,
    confidence: acl.confidence,
  };
}
