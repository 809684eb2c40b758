import { kvAppend, kvIndexOf, kvSetAt, vecGet } from '../keyedVec';
import { addDelegation, delegationExtra, flushPending } from './attachments';
import { item, placeholderKind, putItem, turnNamed, withRound } from './items';
import { frameKey, own } from './keys';
import { feedWith, type AudioRef, type F, type Feed } from './types';

// A turn's frames: the session's start, the streamed placeholder and its deltas, the final message, its audio,
// and the end (a stream whose final frame never came is closed as interrupted).

export function onSessionFrame(feed: Feed, frame: F<'discussion_started'> | F<'discussion_initialized'>): Feed {
  const s = feed.session;
  const endpoint = frame.type === 'discussion_started' ? (frame.endpoint ?? s.endpoint) : s.endpoint;
  const mode = frame.type === 'discussion_initialized' ? (frame.mode ?? s.mode) : s.mode;
  const topic = frame.topic ?? s.topic;
  let out = feed;
  if (frame.session_id !== s.sessionId || endpoint !== s.endpoint || mode !== s.mode || topic !== s.topic) {
    out = feedWith(out, { session: { ...s, sessionId: frame.session_id, endpoint, mode, topic } });
  }
  if (frame.type === 'discussion_initialized') out = withRound(out, null, frame.max_rounds);
  // Merge by id, the frame's last word winning; the same array when nothing differs.
  const merged = new Map(out.participants.map((p) => [p.id, p]));
  for (const p of frame.participants) merged.set(p.id, { id: p.id, name: p.name, role: p.role ?? null });
  const next = [...merged.values()];
  const same =
    next.length === out.participants.length &&
    next.every((p, i) => {
      const q = out.participants[i];
      return q.id === p.id && q.name === p.name && q.role === p.role;
    });
  return same ? out : feedWith(out, { participants: next });
}

export function onFinalMessage(feed: Feed, frame: F<'agent_message'> | F<'text'>): Feed {
  const ts = frame.timestamp ?? null;
  const next =
    frame.type === 'agent_message'
      ? item({
          id: frame.id,
          kind: 'hybrid',
          agentId: frame.agent_id,
          agentName: frame.agent_name,
          agentRole: frame.agent_role ?? null,
          content: frame.content,
          timestamp: ts,
          confidence: frame.confidence,
          round: frame.round,
          audioUrl: frame.audio_url ?? undefined,
          audioId: frame.audio_id ?? undefined,
          interrupted: frame.interrupted || undefined,
          source: frame,
        })
      : item({
          id: frame.id ?? frameKey(frame),
          kind: 'text',
          agentId: frame.from_id,
          agentName: frame.from,
          content: frame.text,
          timestamp: ts,
          interrupted: frame.interrupted || undefined,
          extras: frame.delegation ? [delegationExtra(frame.delegation, frame.delegation)] : undefined,
          source: frame,
        });
  let out = putItem(feed, next);
  if (frame.type === 'text' && frame.delegation) out = addDelegation(out, frame.delegation, ts);
  return out;
}

export function onStart(feed: Feed, frame: F<'agent_message_start'>): Feed {
  const pos = kvIndexOf(feed.items, frame.id);
  if (pos >= 0) {
    const prev = vecGet(feed.items.values, pos)!;
    if (!prev.streaming || prev.agentId !== null || prev.kind === 'summary') return feed; // final already, or a start seen before
    // Deltas came before the summary's start: the draft becomes the summary's light row (nobody's turn).
    if (frame.kind === 'summary')
      return putItem(
        feed,
        item({ ...prev, kind: 'summary', timestamp: prev.timestamp ?? frame.timestamp ?? null, source: frame }),
      );
    const filled = item({
      ...prev,
      agentId: frame.agent_id,
      agentName: frame.agent_name,
      round: frame.round ?? prev.round,
      stage: frame.stage ?? prev.stage,
      timestamp: prev.timestamp ?? frame.timestamp ?? null,
    });
    let out: Feed = feedWith(feed, { items: kvSetAt(feed.items, pos, filled) });
    if (own(out.lastMessageByAgent, frame.agent_id) !== frame.id)
      out = feedWith(out, { lastMessageByAgent: { ...out.lastMessageByAgent, [frame.agent_id]: frame.id } });
    return turnNamed(out, frame.id, frame.agent_name);
  }
  return putItem(
    feed,
    item({
      // The summary is written in an agent's voice but is nobody's turn: its row names no speaker, live or replayed
      // from History (whose stored frames have no stream start), so the label does not change when it completes.
      ...(frame.kind === 'summary'
        ? { kind: 'summary' as const, agentId: null, agentName: null }
        : { kind: placeholderKind(feed), agentId: frame.agent_id, agentName: frame.agent_name }),
      id: frame.id,
      content: '',
      timestamp: frame.timestamp ?? null,
      round: frame.round,
      stage: frame.stage,
      streaming: true,
      source: frame,
    }),
  );
}

export function onDelta(feed: Feed, frame: F<'agent_message_delta'>): Feed {
  const pos = kvIndexOf(feed.items, frame.id);
  if (pos >= 0) {
    const prev = vecGet(feed.items.values, pos)!;
    if (!prev.streaming || frame.delta === '') return feed; // a late delta after the final frame
    return feedWith(feed, { items: kvSetAt(feed.items, pos, { ...prev, content: prev.content + frame.delta }) });
  }
  return putItem(
    feed,
    item({
      id: frame.id,
      kind: placeholderKind(feed),
      agentId: null,
      agentName: null,
      content: frame.delta,
      timestamp: null,
      streaming: true,
      source: frame,
    }),
  );
}

export function onAudio(feed: Feed, frame: F<'audio'> | F<'audio_message'>): Feed {
  const key = frameKey(frame);
  if (kvIndexOf(feed.audio, key) >= 0) return feed; // a replayed clip: attached when it first came
  const ref: AudioRef = { audioUrl: frame.audio_url, audioId: frame.audio_id ?? null };
  const target = frame.message_id ?? own(feed.lastMessageByAgent, frame.agent_id) ?? null;
  let out: Feed = feedWith(feed, {
    audio: kvAppend(feed.audio, key, {
      ...ref,
      agentId: frame.agent_id,
      messageId: target,
      timestamp: frame.timestamp ?? null,
    }),
  });
  if (target === null) return out; // nobody to take it
  const at = kvIndexOf(out.audioByMessage, target);
  out = feedWith(out, {
    audioByMessage: at < 0 ? kvAppend(out.audioByMessage, target, ref) : kvSetAt(out.audioByMessage, at, ref),
  });
  const pos = kvIndexOf(out.items, target);
  if (pos < 0) return out; // its message has not arrived yet: putItem attaches the clip when it does
  const prev = vecGet(out.items.values, pos)!;
  if (prev.audioUrl === ref.audioUrl && (prev.audioId ?? null) === ref.audioId) return out;
  return feedWith(out, { items: kvSetAt(out.items, pos, { ...prev, audioUrl: ref.audioUrl, audioId: ref.audioId }) });
}

export function onEnded(feed: Feed, frame: F<'discussion_ended'>): Feed {
  if (feed.session.ended) return feed; // the end was applied when it first came (a replay, or a second word on it)
  return flushPending(
    closeOpenStreams(
      feedWith(feed, {
        session: { ...feed.session, ended: { reason: frame.reason ?? null, timestamp: frame.timestamp ?? null } },
        floorQueue: null,
      }),
    ),
  );
}

/**
 * Turns still being written when the discussion is over (it ended, or the client stopped or lost it for good)
 * will get no final frame: they stop streaming and are marked interrupted. The same feed when none is open.
 */
export function closeOpenStreams(feed: Feed): Feed {
  if (feed.streamingIds.length === 0) return feed;
  let items = feed.items;
  for (const id of feed.streamingIds) {
    const pos = kvIndexOf(items, id);
    const prev = vecGet(items.values, pos)!;
    items = kvSetAt(items, pos, { ...prev, streaming: false, interrupted: true });
  }
  return feedWith(feed, { items, streamingIds: [] });
}
