// A row of the feed that is not anyone's turn: a round or stage boundary as a thin divider; consensus,
// summary, research, notices and problems as light rows with a word that says what they are. An ACL message or
// hand-over that no turn took (feed.ts) is a light row too, in plain words.
import { memo } from 'react';
import type { FeedItem } from '../../../model/feed';
import { performativePhrase } from '../../../model/turnExtras';
import { halvedNote } from '../../../model/consensusNote';

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
  if (item.kind === 'consensus') return s?.reached === false ? 'Not agreed yet' : 'Consensus';
  if (item.kind === 'acl' && s?.type === 'acl_message')
    return `${item.agentName ?? 'Someone'} ${performativePhrase(s.performative ?? null, s.receiver ?? null)}`;
  if (item.kind === 'acl' && s?.type === 'request')
    return `${item.agentName ?? 'Someone'} ${performativePhrase(s.action ?? null, s.to_agent ?? null)}`;
  const label = LABELS[item.kind] ?? 'Note';
  return item.agentName && item.kind !== 'delegation' ? `${label} · ${item.agentName}` : label;
}

/** '57% agreement', and why it is lower when the evidence rule halved some holders' confidence. */
function consensusMeta(s: { score: number; consensus_halved?: number }) {
  const note = halvedNote(s.consensus_halved);
  return `${Math.round(s.score * 100)}% agreement${note ? ` — ${note}` : ''}`;
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
      className={`message-card feed-note feed-note--${item.kind}${(item.source as { reached?: boolean } | undefined)?.reached === false ? ' feed-note--open' : ''}`}
      role="note"
      aria-label={label}
    >
      <span className="feed-note__label">{label}</span>
      {item.kind === 'consensus' && typeof (item.source as { score?: unknown } | undefined)?.score === 'number' && (
        <span className="feed-note__meta">
          {consensusMeta(item.source as { score: number; consensus_halved?: number })}
        </span>
      )}
      <span className="feed-note__text">{item.content}</span>
    </div>
  );
});
