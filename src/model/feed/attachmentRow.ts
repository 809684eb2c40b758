import { stringify } from './keys';
import type { AttachmentEntry, FeedItem } from './types';

/**
 * The light row of an attachment that no turn took (the discussion ended first): made only then, from the frame
 * the entry keeps, since nearly every attachment joins a turn and making a row for each was wasted work.
 */
export function attachmentRow({ key, frame }: Pick<AttachmentEntry, 'key' | 'frame'>): FeedItem {
  // Every field is set (no undefined to drop, as items.ts `item` would).
  const row = (kind: 'acl' | 'delegation', agentName: string | null, content: string): FeedItem => ({
    id: key,
    kind,
    agentId: null,
    agentName,
    content,
    timestamp: frame.timestamp ?? null,
    source: frame,
  });
  if (frame.type === 'acl_message')
    return row('acl', frame.sender, frame.natural_language ?? `${frame.performative}: ${stringify(frame.content)}`);
  if (frame.type === 'request')
    return row('acl', frame.from_agent, frame.content ?? `${frame.from_agent} → ${frame.to_agent}: ${frame.action}`);
  const d = frame.delegation;
  const from = d.from_agent ?? d.from ?? null;
  const to = d.to_agent ?? d.to ?? null;
  const why = d.task ?? d.reason;
  return row('delegation', from, `${from ?? '?'} → ${to ?? '?'}${why ? `: ${why}` : ''}`);
}
