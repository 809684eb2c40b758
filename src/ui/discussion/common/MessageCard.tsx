// One feed item, styled by its kind (part 2 §2 'Message cards are styled by type'). It receives the item, never
// the feed, so a new message redraws only its own row.
import { memo } from 'react';
import type { FeedItem } from '../../../model/feed';
import { CONFIDENCE_GREEN_ABOVE } from '../../../schemas/constants';
import { ReasoningChain } from './ReasoningChain';
import { MessageAudio } from './MessageAudio';

const KIND_LABELS: Record<FeedItem['kind'], string> = {
  stage: 'Stage',
  argument: 'Argument',
  acl: 'ACL',
  research: 'Research',
  consensus: 'Consensus',
  human: 'You',
  hybrid: 'Hybrid',
  summary: 'Summary',
  text: 'Message',
  delegation: 'Delegation',
  system: 'System',
  error: 'Error',
  round: 'Round',
};

function timeOf(ts: string | null) {
  if (!ts) return null;
  const d = new Date(ts);
  return Number.isNaN(d.getTime()) ? null : d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function Confidence({ value }: { value: number | undefined }) {
  if (value === undefined) return null;
  const green = value > CONFIDENCE_GREEN_ABOVE;
  return (
    <span className={`confidence${green ? ' confidence--high' : ''}`} title="Confidence">
      {Math.round(value * 100)}%
    </span>
  );
}

/** A formal message's content in words: a string as it is; an object as its claim, then its other fields. */
function describeContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (typeof content !== 'object' || content === null) return String(content ?? '');
  const { claim, topic: _topic, ...rest } = content as Record<string, unknown>;
  const parts = Object.entries(rest)
    .filter(([, v]) => v !== null && v !== undefined && typeof v !== 'object')
    .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${typeof v === 'number' && v > 0 && v <= 1 && k.includes('confidence') ? `${Math.round(v * 100)}%` : String(v)}`);
  return [typeof claim === 'string' ? claim : null, parts.join(' · ')].filter(Boolean).join(' — ');
}

function sourceField<T>(item: FeedItem, key: string): T | undefined {
  const s = item.source as Record<string, unknown> | undefined;
  return s && typeof s === 'object' ? (s[key] as T | undefined) : undefined;
}

export const MessageCard = memo(function MessageCard({ item, nowPlaying }: { item: FeedItem; nowPlaying?: boolean }) {
  const time = timeOf(item.timestamp);
  // An agent message names its own type (hybrid, structured, …); other kinds use their label.
  const messageType = item.kind === 'hybrid' ? sourceField<string>(item, 'message_type') : undefined;
  const label = messageType ? `${messageType.charAt(0).toUpperCase()}${messageType.slice(1).replace(/_/g, ' ')}` : KIND_LABELS[item.kind];
  if (item.kind === 'stage' || item.kind === 'round') {
    return (
      <div className="stage-divider" role="separator" aria-label={item.content}>
        <span>{item.content}</span>
      </div>
    );
  }
  const formal = sourceField<{ performative: string; receiver?: string; content: unknown }[]>(item, 'formal_communications') ?? [];
  const chain = sourceField<unknown>(item, 'reasoning_chain');
  const reasoning = sourceField<string | null>(item, 'reasoning');
  return (
    <article aria-busy={item.streaming || undefined} className={`message-card message-card--${item.kind}${item.streaming ? ' message-card--streaming' : ''}${nowPlaying ? ' message-card--playing' : ''}`} aria-label={`${label}${item.agentName ? ` from ${item.agentName}` : ''}`}>
      <header className="message-card__head">
        <span className={`kind-tag kind-tag--${item.kind}`}>{label}</span>
        {item.agentName && <strong className="message-card__who">{item.agentName}</strong>}
        {item.agentRole && <span className="message-card__role">{item.agentRole}</span>}
        <span className="message-card__meta">
          <Confidence value={item.confidence} />
          {time && <time dateTime={item.timestamp ?? undefined}>{time}</time>}
        </span>
      </header>
      <p className="message-card__text">
        {item.content}
        {item.streaming && <span className="typing-caret" aria-hidden="true" />}
      </p>
      {item.streaming && <span className="visually-hidden">(still writing)</span>}
      {item.interrupted && <p className="message-card__note">Stopped while writing.</p>}
      {reasoning && (
        <details className="message-card__details">
          <summary>Reasoning</summary>
          <p>{reasoning}</p>
        </details>
      )}
      {chain !== undefined && chain !== null && <ReasoningChain chain={chain} />}
      {formal.length > 0 && (
        <ul className="formal-list" aria-label="Formal communications">
          {formal.map((f, i) => (
            <li key={i}>
              <code className="performative">{f.performative}</code>
              {f.receiver && <span> → {f.receiver}</span>}
              <span className="formal-list__content">{describeContent(f.content)}</span>
            </li>
          ))}
        </ul>
      )}
      {item.audioUrl && (
        <MessageAudio url={item.audioUrl} speaker={item.agentName} />
      )}
    </article>
  );
});
