import { item, once, putItem } from './items';
import { frameKey, pct } from './keys';
import { feedWith, type F, type Feed } from './types';

// A format's frames as feed rows (docs/protocol.md#formats): who was given the floor when it was not simply the
// next in order, a council's stages and ranking, a debate's phases, votes and result. Each row keeps its frame
// (`source`) for the views that draw it as a table or a card.

export type FormatFrame =
  | F<'floor'>
  | F<'floor_queue'>
  | F<'vote'>
  | F<'format_stage'>
  | F<'ranking'>
  | F<'debate_result'>
  | F<'format_note'>;

const sideName = (side: 'for' | 'against') => (side === 'for' ? 'For' : 'Against');

/** The row's words; null for a frame that shows no row (the floor going to the next in order). */
export function formatRowText(frame: FormatFrame): string | null {
  switch (frame.type) {
    case 'floor': {
      const who = frame.agent_name ?? frame.agent_id;
      if (frame.by === 'order') return null;
      if (frame.by === 'moderator') return `Moderator gives the floor to ${who}: ${frame.reason}`;
      return `${who} has the floor: ${frame.reason}`;
    }
    case 'vote': {
      // A vote without a reason (the person's buttons send none) ends at the vote.
      const why = frame.reason.trim();
      // The person's vote; in a room the judge's seat may be someone else's, named by the server.
      const self = frame.voter_id === 'human' && (!frame.voter_name || frame.voter_name === 'You');
      return `${self ? 'You vote' : `${frame.voter_name ?? frame.voter_id} votes`} ${sideName(frame.side)} (${pct(frame.confidence)}) ${frame.phase === 'before' ? 'before the debate' : 'after the debate'}${why ? `: ${why}` : '.'}`;
    }
    case 'format_stage':
      return frame.description ? `${frame.title} — ${frame.description}` : frame.title;
    case 'ranking':
      return `Ranking: ${frame.rows.map((r, i) => `${i + 1}. Answer ${r.label} (${r.agent_name})${r.mean_rank !== null ? `, mean rank ${r.mean_rank.toFixed(2)}` : ''}`).join('; ')}`;
    case 'floor_queue':
      // The queue itself is drawn by the format controls; the feed says only that an @mention overrode it.
      return frame.change === 'overridden' ? frame.text : null;
    case 'debate_result':
    case 'format_note':
      return frame.text;
  }
}

/** The floor queue after a frame: set when the person's floor is queued, empty once that agent's turn begins. */
function withFloorQueue(feed: Feed, frame: FormatFrame): Feed {
  if (frame.type === 'floor_queue') {
    const next =
      frame.change === 'queued' && frame.agent_id
        ? { agentId: frame.agent_id, agentName: frame.agent_name ?? frame.agent_id }
        : null;
    return feedWith(feed, { floorQueue: next });
  }
  if (frame.type === 'floor' && feed.floorQueue?.agentId === frame.agent_id)
    return feedWith(feed, { floorQueue: null });
  return feed;
}

export function onFormatFrame(before: Feed, frame: FormatFrame): Feed {
  const feed = withFloorQueue(before, frame);
  const content = formatRowText(frame);
  if (content === null) return feed;
  const key = frameKey(frame);
  const agentId = frame.type === 'floor' ? frame.agent_id : frame.type === 'vote' ? frame.voter_id : null;
  const agentName =
    frame.type === 'floor' ? (frame.agent_name ?? null) : frame.type === 'vote' ? (frame.voter_name ?? null) : null;
  return once(feed, key, (f) =>
    putItem(
      f,
      item({
        id: key,
        kind: frame.type === 'format_stage' ? 'stage' : 'system',
        agentId,
        agentName,
        content,
        timestamp: frame.timestamp ?? null,
        source: frame,
      }),
    ),
  );
}
