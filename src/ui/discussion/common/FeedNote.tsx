// A row of the feed that is not anyone's turn: a round or stage boundary as a thin divider; consensus,
// summary, research, notices and problems as light rows with a word that says what they are. An ACL message or
// hand-over that no turn took (feed.ts) is a light row too, in plain words.
import { memo } from 'react';
import type { FeedItem } from '../../../model/feed';
import { performativePhrase } from '../../../model/turnExtras';
import { outcomeFactsOf, outcomeWords, type OutcomeCarrier } from '../../../model/outcomeWords';

const LABELS: Partial<Record<FeedItem['kind'], string>> = {
  consensus: 'Consensus',
  summary: 'Summary',
  research: 'Research',
  system: 'Notice',
  error: 'Problem',
  acl: 'Note',
  delegation: 'Hand-over',
};

function lead(item: FeedItem): string {
  const s = item.source as
    | { type?: string; performative?: string; receiver?: string; action?: string; to_agent?: string; reached?: boolean }
    | undefined;
  if (item.kind === 'consensus') return consensusHeadline(item);
  if (item.kind === 'acl' && s?.type === 'acl_message')
    return `${item.agentName ?? 'Someone'} ${performativePhrase(s.performative ?? null, s.receiver ?? null)}`;
  if (item.kind === 'acl' && s?.type === 'request')
    return `${item.agentName ?? 'Someone'} ${performativePhrase(s.action ?? null, s.to_agent ?? null)}`;
  const label = LABELS[item.kind] ?? 'Note';
  return item.agentName && item.kind !== 'delegation' ? `${label} · ${item.agentName}` : label;
}

/** The outcome row's verdict ('Agreed, not yet sure (28 %)'); its words are the item's text (feed/records.ts). */
function consensusHeadline(item: FeedItem): string {
  const s = item.source as Partial<OutcomeCarrier> | undefined;
  return s?.consensus ? outcomeWords(outcomeFactsOf(s as OutcomeCarrier)).headline : 'Consensus';
}

export const FeedNote = memo(function FeedNote({ item }: { item: FeedItem }) {
  if (item.kind === 'stage' || item.kind === 'round') {
    return (
      <div className="stage-divider" role="separator" aria-label={item.content}>
        <span>{item.content}</span>
      </div>
    );
  }
  const label = lead(item);
  return (
    <div
      className={`message-card feed-note feed-note--${item.kind}${label === 'Not agreed yet' ? ' feed-note--open' : ''}`}
      role="note"
      aria-label={label}
    >
      <span className="feed-note__label">{label}</span>
      <span className="feed-note__text">{item.content}</span>
    </div>
  );
});
