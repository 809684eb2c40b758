// The socket side of a discussion run, the same for both panels: the commands they send their socketSession child, and what its notices change in their context. Written once so the two panels cannot
// drift apart on how a run connects, resumes and stops. Pure.
import { NOTICE_ABOUTS } from '../schemas/discussionFrames';
import { CLOSE_NORMAL } from '../schemas/constants';
import { DISCUSSION_MESSAGES } from '../schemas/messages';
import { applyFrame, toolCallState, type Feed, type FeedInput } from './feed';
import { kvGet } from './keyedVec';
import { humanCard } from './storedReplay';
import { noteForReader, roomAfter, type RoomState } from './room';

/** Ask the server to stop the discussion (it answers with discussion_ended, then we close). */
export const STOP_COMMAND = { type: 'socketSession.send', frame: { type: 'stop' } } as const;
/** Our own close: normal, so the socketSession never reconnects after it. */
export const CLOSE_COMMAND = { type: 'socketSession.close', code: CLOSE_NORMAL, reason: 'discussion over' } as const;
export const sendCommand = (frame: Record<string, unknown>) => ({ type: 'socketSession.send' as const, frame });

/** The person's message, both panels: the frame for the socket, and the feed with their card in it at once. */
export function humanMessageOut(feed: Feed, text: string, now: number | null) {
  const timestamp = new Date(now ?? 0).toISOString();
  const said = text.trim();
  return {
    command: sendCommand({ type: 'human_message', text: said, timestamp }),
    feed: applyFrame(feed, humanCard(said, timestamp)),
  };
}

/** Whether a tool call waits for the person's answer (its row shows Run and Refuse). */
export function isToolCallWaiting(feed: Feed, id: string): boolean {
  const call = kvGet(feed.tools, id);
  return !!call?.called && toolCallState(call) === 'waiting';
}

/** The person's answer to a waiting call, both panels: the frame for the socket, and the row says it at once. */
export function toolApprovalOut(feed: Feed, id: string, approve: boolean) {
  return {
    command: sendCommand({ type: 'tool_approval', id, approve }),
    feed: applyFrame(feed, { type: 'tool_approval_local', id, approve }),
  };
}

/** Standard panel: each clip that played to its end is reported as a status. */
export const playedStatus = (item: { audioId: string; messageId?: string | null; agentId: string }) =>
  sendCommand({
    type: 'status',
    status: 'played',
    audio_id: item.audioId,
    agent_id: item.agentId,
    ...(item.messageId ? { message_id: item.messageId } : {}),
  });
/** Hybrid panel: the server paces the turns by real playback, so each clip that played to its end is acknowledged. */
export const audioAcknowledgment = (item: { audioId: string }, timestamp: string) =>
  sendCommand({ type: 'audio_acknowledgment', audio_id: item.audioId, status: 'played', timestamp });

type FrameIn<E> = E extends { type: 'socketSession.frame'; frame: infer F } ? F : never;

/** The server frame a socketSession notice carries; null for every other event. */
export const frameOf = <E extends { type: string }>(event: E): FrameIn<E> | null =>
  event.type === 'socketSession.frame' ? (event as unknown as { frame: FrameIn<E> }).frame : null;

/** The frames a socketSession notice carries: one (`socketSession.frame`), a burst (`.frames`), or none. */
export const framesOf = <E extends { type: string }>(event: E): readonly FrameIn<E>[] => {
  if (event.type === 'socketSession.frames') return (event as unknown as { frames: FrameIn<E>[] }).frames;
  const frame = frameOf(event);
  return frame ? [frame] : [];
};

/** What a frame changes of a run's context: the feed, the banner and the room. */
export interface Incoming {
  feed: Feed;
  error: string | null;
  room: RoomState | null;
}

/**
 * The context after a frame: folded into the feed (keyed by id, so a frame replayed on resume never shows twice),
 * the banner, and the room's people. `joined`: the reader came to this run by an invite.
 */
export const incomingAfter = (state: Incoming, frame: FeedInput, joined = false): Incoming => ({
  // A format's wait is worded for the person it waits for; in a room the others read whom (model/room.ts).
  feed: applyFrame(state.feed, noteForReader(state.room, frame, joined)),
  error: bannerAfter(state.error, frame),
  room: roomAfter(state.room, frame),
});

/**
 * A server `error` frame's message becomes the banner; anything else leaves the banner as it is. A notice is no
 * problem of the run (NOTICE_ABOUTS): a model that cannot call tools (its turn's header says it), the token budget
 * that ended the run (its feed row says it).
 */
export function bannerAfter(error: string | null, frame: FeedInput): string | null {
  return frame.type === 'error' && !NOTICE_ABOUTS.has(frame.about ?? '') ? frame.message : error;
}

/** A drop being retried: the retry banner replaces any socket error that came before the drop (it was part of it). */
export const retryBanner = (event: { attempt: number; maxAttempts: number }) => ({
  error: DISCUSSION_MESSAGES.connectionLostRetrying(event.attempt, event.maxAttempts),
  pendingProblem: null,
});
