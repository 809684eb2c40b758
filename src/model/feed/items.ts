import { kvAppend, kvGet, kvIndexOf, kvSetAt, vecGet } from '../keyedVec';
import { isMessageKind } from '../../shared/messageCount';
import type { TurnExtra } from '../turnExtras';
import { attachmentRow } from './attachmentRow';
import { deepEqual, own } from './keys';
import { feedWith, type AttachmentEntry, type Feed, type FeedItem, type FeedItemKind } from './types';

// Putting an item into the list: append or replace in place, keep the message count, the streaming ids and the
// index of each agent's newest turn (where audio and extras go) in step.

export const ITEM_FIELDS = [
  'kind',
  'agentId',
  'agentName',
  'agentRole',
  'content',
  'timestamp',
  'confidence',
  'stage',
  'round',
  'audioUrl',
  'audioId',
  'streaming',
  'interrupted',
  'extras',
] as const;

export function sameItem(a: FeedItem, b: FeedItem): boolean {
  for (const f of ITEM_FIELDS) if (a[f] !== b[f]) return false;
  return deepEqual(a.source, b.source);
}

/** Drops undefined fields so items compare and serialise the same however they were built. */
export function item(fields: FeedItem): FeedItem {
  const out = {} as Record<string, unknown>;
  for (const k in fields) {
    const v = (fields as unknown as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = v;
  }
  return out as unknown as FeedItem;
}

export const SPEECH_KINDS: ReadonlySet<FeedItemKind> = new Set(['hybrid', 'text', 'argument']);

/**
 * Appends a new item, or replaces the one with its id (unless it is the same frame again). A clip an audio frame
 * brought for this id wins over the frame's own audio_url (audio frames come after their message); without one,
 * a new version of a message without audio keeps the audio of the version it replaces.
 */
export function putItem(feed: Feed, next: FeedItem): Feed {
  return placeItem(feed, next);
}

function placeItem(feed: Feed, next: FeedItem): Feed {
  const pos = kvIndexOf(feed.items, next.id);
  const prev = pos >= 0 ? vecGet(feed.items.values, pos)! : undefined;
  // The same frame again (a replay): it was applied when it first came. Only a different frame for a known id
  // (the final frame of a streamed turn, an argument's new votes, a corrected message) replaces the item.
  if (prev && deepEqual(prev.source, next.source)) return feed;
  const clip = kvGet(feed.audioByMessage, next.id);
  if (clip) next = { ...next, audioUrl: clip.audioUrl, audioId: clip.audioId };
  else if (prev && next.audioUrl == null && prev.audioUrl != null)
    next = { ...next, audioUrl: prev.audioUrl, audioId: prev.audioId ?? null };
  if (prev?.extras) next = { ...next, extras: mergeExtras(prev.extras, next.extras) };
  if (prev) {
    if (sameItem(prev, next)) return feed;
    let out: Feed = feedWith(feed, { items: kvSetAt(feed.items, pos, next) });
    if (prev.streaming && !next.streaming)
      out = feedWith(out, { streamingIds: out.streamingIds.filter((id) => id !== next.id) });
    const counted = (isMessageKind(next.kind) ? 1 : 0) - (isMessageKind(prev.kind) ? 1 : 0);
    if (counted !== 0) out = feedWith(out, { messageCount: out.messageCount + counted });
    if (prev.agentId === null && next.agentId && SPEECH_KINDS.has(next.kind)) {
      out = feedWith(out, { lastMessageByAgent: { ...out.lastMessageByAgent, [next.agentId]: next.id } });
    }
    if (prev.agentName === null && next.agentName && SPEECH_KINDS.has(next.kind))
      out = turnNamed(out, next.id, next.agentName);
    return out;
  }
  const agentMoves =
    next.agentId !== null && SPEECH_KINDS.has(next.kind) && own(feed.lastMessageByAgent, next.agentId) !== next.id;
  const out = feedWith(feed, {
    items: kvAppend(feed.items, next.id, next),
    lastMessageByAgent: agentMoves ? { ...feed.lastMessageByAgent, [next.agentId!]: next.id } : feed.lastMessageByAgent,
    streamingIds: next.streaming ? [...feed.streamingIds, next.id] : feed.streamingIds,
    messageCount: isMessageKind(next.kind) ? feed.messageCount + 1 : feed.messageCount,
  });
  return next.agentName && SPEECH_KINDS.has(next.kind) ? turnNamed(out, next.id, next.agentName) : out;
}

/** The extras of a turn's earlier version first, then the new version's own ones not already there. */
export function mergeExtras(prev: readonly TurnExtra[], next: readonly TurnExtra[] | undefined): readonly TurnExtra[] {
  if (!next || next.length === 0) return prev;
  const have = new Set(prev.map((e) => e.key));
  const added = next.filter((e) => !have.has(e.key));
  return added.length === 0 ? prev : [...prev, ...added];
}

/** A turn now known to be `name`'s: it is that agent's newest turn, and takes what waited for it. */
export function turnNamed(feed: Feed, id: string, name: string): Feed {
  let out = feed;
  if (own(out.lastTurnByName, name) !== id)
    out = feedWith(out, { lastTurnByName: { ...out.lastTurnByName, [name]: id } });
  if (out.lastAgentTurnId !== id) out = feedWith(out, { lastAgentTurnId: id });
  const waiting = own(out.pendingBySender, name);
  if (!waiting) return out;
  const { [name]: _taken, ...rest } = out.pendingBySender as Record<string, readonly string[]>;
  out = feedWith(out, { pendingBySender: rest });
  for (const key of waiting) out = placeAttachment(out, key, id);
  return out;
}

/** Adds an extra to a turn (once per key). */
export function joinTurn(feed: Feed, turnId: string, extra: TurnExtra): Feed {
  const pos = kvIndexOf(feed.items, turnId);
  if (pos < 0) return feed;
  const prev = vecGet(feed.items.values, pos)!;
  if (prev.extras?.some((e) => e.key === extra.key)) return feed;
  return feedWith(feed, { items: kvSetAt(feed.items, pos, { ...prev, extras: [...(prev.extras ?? []), extra] }) });
}

/** Records where a logged attachment went: a turn (by id) or, with null, a row of its own. */
export function placeAttachment(feed: Feed, key: string, turnId: string | null): Feed {
  const at = kvIndexOf(feed.attachments, key);
  const entry = vecGet(feed.attachments.values, at)!;
  const placed: AttachmentEntry = { ...entry, turnId, placed: turnId === null ? 'row' : 'turn' };
  const out: Feed = feedWith(feed, { attachments: kvSetAt(feed.attachments, at, placed) });
  return turnId === null ? putItem(out, attachmentRow(entry)) : joinTurn(out, turnId, entry.extra);
}

/** For frames without an id: nothing happens when the key is known (a replay); otherwise `then` runs. */
export function once(feed: Feed, key: string, then: (feed: Feed) => Feed): Feed {
  return kvIndexOf(feed.items, key) >= 0 ? feed : then(feed);
}

export function withRound(feed: Feed, round: number | undefined | null, max?: number | null): Feed {
  const r = feed.round;
  const current = round != null && (r.current === null || round > r.current) ? round : r.current;
  const nextMax = max != null ? max : r.max;
  if (current === r.current && nextMax === r.max) return feed;
  return feedWith(feed, { round: { ...r, current, max: nextMax } });
}

export const placeholderKind = (feed: Feed): FeedItemKind => (feed.session.endpoint === 'basic' ? 'text' : 'hybrid');
