// One agent turn, one bubble (as LobeHub, Open WebUI and assistant-ui draw a message): the speaker's
// avatar and colour, name and role, the text with its caret while it streams, and beneath it, collapsed, what
// the protocol added (TurnDetails). The human's own messages are bubbles too, on the right. Receives its item,
// never the feed, so a streamed delta redraws only this row.
import { memo } from 'react';
import { aclCardOf } from '../../../model/aclCard';
import { humanAuthorOf, type FeedItem } from '../../../model/feed';
import { AclCardView } from './AclCardView';
import { DEMO_MODEL_NAME } from '../../../model/modelName';
import type { AgentLook } from './agentLook';
import { TurnCitations } from '../sources/TurnCitations';
import { ClipProgress } from './MessageAudio';
import { TurnDetails } from './TurnDetails';
import type { ToolCallEntry } from '../../../model/feed/types';
import { CANVAS_MESSAGES } from '../../../schemas/messages';
import { ToolCallRows, type ToolAnswer } from './ToolCallRows';

export function timeOf(ts: string | null) {
  if (!ts) return null;
  const d = new Date(ts);
  return Number.isNaN(d.getTime()) ? null : d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

export const TurnBubble = memo(function TurnBubble({
  item,
  look,
  nowPlaying,
  mode,
  calls,
  onToolAnswer,
  withoutTools,
}: {
  item: FeedItem;
  look: AgentLook;
  nowPlaying?: boolean;
  /** The tools this turn called (rows under its text); `onToolAnswer` only where the person can still answer. */
  calls?: readonly ToolCallEntry[];
  onToolAnswer?: ToolAnswer;
  /** The turn's model could not call the tools its agent was given: the header says it ran without them. */
  withoutTools?: boolean;
  /** The hybrid panel's mode: Structured draws the turn as its message card, Hybrid the prose and the card. */
  mode?: string | null;
}) {
  const human = item.kind === 'human';
  // A person's message: the reader's own says so; in a room another's shows its author's name and colour.
  const author = human ? humanAuthorOf(item) : null;
  const name = author
    ? author.mine
      ? author.name
        ? `${author.name} (you)`
        : 'You'
      : (author.name ?? 'Someone')
    : (item.agentName ?? 'Agent');
  const colour = author?.colour ?? look.color;
  const time = timeOf(item.timestamp);
  // Every turn of an agent names its role: multi-round arguments and a stopped turn carry none in their frames.
  const role = item.agentRole || look.role || null;
  // Natural (and the standard panel) keep the prose alone, the ACL message folded in the details.
  const card = !human && (mode === 'structured' || mode === 'hybrid') ? aclCardOf(item) : null;
  const cls = [
    'message-card',
    'turn',
    `message-card--${item.kind}`,
    author?.mine ? 'turn--human' : '',
    author && !author.mine ? 'turn--person' : '',
    author?.colour ? 'turn--coloured' : '',
    item.streaming ? 'message-card--streaming' : '',
    nowPlaying ? 'message-card--playing' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <article
      className={cls}
      aria-busy={item.streaming || undefined}
      aria-label={author?.mine ? 'You' : name}
      style={{ ['--agent-color' as string]: colour }}
    >
      {!human && (
        <span className="turn__avatar" aria-hidden="true">
          {look.avatar}
        </span>
      )}
      <div className="turn__body">
        <header className="turn__head">
          <strong className="message-card__who">{name}</strong>
          {!human && role && <span className="turn__role">{role}</span>}
          {!human && look.demo && <span className="turn__model">{DEMO_MODEL_NAME}</span>}
          {nowPlaying && <span className="turn__speaking">speaking</span>}
          {time && (
            <time className="turn__time" dateTime={item.timestamp ?? undefined}>
              {time}
            </time>
          )}
        </header>
        {withoutTools && <p className="turn__note turn__note--tools">{CANVAS_MESSAGES.toolsUnsupported}</p>}
        {!card || mode !== 'structured' ? (
          <p className="message-card__text">
            {item.content}
            {item.streaming && <span className="typing-caret" aria-hidden="true" />}
          </p>
        ) : null}
        {card && <AclCardView card={card} />}
        {calls && calls.length > 0 && <ToolCallRows calls={calls} onAnswer={onToolAnswer} />}
        {!human && !item.streaming && <TurnCitations item={item} />}
        {item.streaming && <span className="visually-hidden">(still writing)</span>}
        {item.interrupted && <p className="turn__note">Stopped while writing.</p>}
        {item.audioUrl && <ClipProgress url={item.audioUrl} speaker={item.agentName} />}
        {!human && !item.streaming && <TurnDetails item={item} withoutAcl={!!card} />}
      </div>
    </article>
  );
});
