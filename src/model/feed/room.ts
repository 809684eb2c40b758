// A person's message in a room (room_message, src/schemas/rooms.ts) as a human item of the feed: the author's display
// name and colour. The server sends every member's message to every member, the sender too; the sender's own card is
// already in the feed (shown at once when sent, without a name), so that card takes the name and colour instead of
// a second card appearing. A replayed frame (a reconnect) changes nothing.
import type { z } from 'zod';
import type { roomMessageFrame } from '../../schemas/rooms';
import { kvIndexOf, kvSetAt, vecGet } from '../keyedVec';
import { item, putItem } from './items';
import { feedWith, type Feed, type FeedItem, type HumanMessageLocal } from './types';

export type RoomMessageFrame = z.infer<typeof roomMessageFrame>;

/** How far back the sender's own card is looked for (it was sent moments before its echo). */
const OWN_CARD_LOOKBACK = 50;

export const roomItemId = (messageId: string) => `room-${messageId}`;

const isOwnCard = (i: FeedItem): i is FeedItem & { source: HumanMessageLocal } =>
  i.kind === 'human' && (i.source as { type?: string } | undefined)?.type === 'human_message_local';

export function onRoomMessage(feed: Feed, frame: RoomMessageFrame): Feed {
  if (kvIndexOf(feed.items, roomItemId(frame.message_id)) >= 0) return feed;
  const values = feed.items.values;
  const said = frame.text.trim();
  for (let i = values.length - 1; i >= Math.max(0, values.length - OWN_CARD_LOOKBACK); i--) {
    const it = vecGet(values, i);
    if (!it || !isOwnCard(it)) continue;
    if (it.source.roomMessageId === frame.message_id) return feed;
    if (it.source.roomMessageId === undefined && it.content === said) {
      const source: HumanMessageLocal = {
        ...it.source,
        author: frame.author.display_name,
        colour: frame.author.colour,
        roomMessageId: frame.message_id,
      };
      return feedWith(feed, {
        items: kvSetAt(feed.items, i, { ...it, agentName: frame.author.display_name, source }),
      });
    }
  }
  return putItem(
    feed,
    item({
      id: roomItemId(frame.message_id),
      kind: 'human',
      agentId: null,
      agentName: frame.author.display_name,
      content: frame.text,
      timestamp: frame.at,
      source: frame,
    }),
  );
}

/** Who wrote a human item, as its bubble says it: the author's name and colour, and whether it is the reader's own. */
export function humanAuthorOf(i: FeedItem): { name: string | null; colour: string | null; mine: boolean } {
  const source = i.source as (HumanMessageLocal | RoomMessageFrame) | undefined;
  if (source?.type === 'room_message')
    return { name: source.author.display_name, colour: source.author.colour, mine: false };
  return {
    name: i.agentName,
    colour: source?.type === 'human_message_local' ? (source.colour ?? null) : null,
    mine: true,
  };
}
