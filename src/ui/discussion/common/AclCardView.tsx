// A turn's ACL message as a card (the hybrid panel's Structured and Hybrid modes): the performative as a word,
// sender → receivers, what it says, what it answers, the stance and confidence it states. Plain text only.
import type { AclCard } from '../../../model/aclCard';

export function AclCardView({ card }: { card: AclCard }) {
  const stated = [card.stance, card.confidence != null ? `${Math.round(card.confidence * 100)} % sure` : null].filter(
    Boolean,
  );
  return (
    <div className="acl-card" role="group" aria-label={`${card.verb}: ${card.from} to ${card.to}`}>
      <p className="acl-card__head">
        <span className="acl-card__verb">{card.verb}</span>
        <span className="acl-card__route">
          {card.from} <span aria-hidden="true">→</span>
          <span className="visually-hidden"> to </span> {card.to}
        </span>
        {stated.length > 0 && <span className="acl-card__stated">{stated.join(' · ')}</span>}
      </p>
      <p className="acl-card__content">{card.content}</p>
      {card.answers && (
        <p className="acl-card__answers">
          In reply to {card.answers.sender}: <q>{card.answers.excerpt}</q>
        </p>
      )}
    </div>
  );
}
