// The discussion feed: every frame a discussion socket sends, folded into what the panels show. Pure and immutable: applyFrame returns a new Feed that shares everything it did not change, and
// the very same Feed when a frame changes nothing (a replayed frame, an agent_status, a late delta).
//
// Decisions (the contract the discussion machine and the views rely on):
//
// - Items are keyed by id, so a frame the server replays after a reconnect (byte-identical) never shows twice.
//   Messages (agent_message, text, agent_message_start/delta, human_message_local) and arguments use their own
//   id; every other frame uses a key derived from the frame itself: `type:length:hash` of its JSON (53-bit hash).
//   Nothing is left out of that hash: the server stamps each frame once when it is made and replays the stored
//   bytes, so a replay hashes the same and two real events differ at least by their timestamp.
// - A frame already seen changes nothing (the state it set was set when it first arrived; replays are in-order
//   repeats). A message or argument frame with a known id and *different* content replaces the item in place:
//   that is how a streamed turn's final frame lands, and how an argument's votes are updated. An item is a
//   function of its frame alone (its round is the frame's own, never 'the current round'), so replaying a suffix
//   of the discussion always ends in the same list (the property tests check this).
// - Streaming (agent_message_start → agent_message_delta… → agent_message/text with the same id): the start
//   makes a placeholder (streaming: true, empty content) of kind 'text' on the Basic endpoint and 'hybrid'
//   elsewhere (the kinds of those endpoints' final frames); each delta appends; a delta for an unknown id starts
//   a placeholder (agent unknown until the start or the final frame); the final frame replaces the content,
//   clears `streaming`, sets `interrupted` when the server says so, and keeps the position. A start or delta for
//   a message that is already final is ignored (a replayed start must not wipe a finished turn). When the
//   discussion ends, a placeholder whose final frame never came is closed as interrupted.
// - Audio (`audio`, `audio_message`) is attached to the message named by message_id; if that message has not
//   arrived yet the clip waits for it (`audioByMessage`), and a clip wins over the message frame's own audio_url. Without message_id it goes to the last message of that agent;
//   audio naming nobody attaches nowhere. Each clip is applied once (keyed by its content, logged in `audio`), so
//   a replayed clip without message_id cannot land on a later message. It never makes an item of its own.
// - A failed search (research_results with `unavailable` and no results; on the hybrid socket a system frame about
//   'research_unavailable') is not a row of the discussion: it is `researchNotice`, the Research tab's one quiet
//   notice (the latest failure's words).
// - Errors: a non-fatal error frame (an agent could not answer, a bad client frame) happened at a point of the
//   discussion and stays in its record, so it is an 'error' item (and exported). A fatal error (refused
//   configuration, the discussion cannot go on) is not an item: the machine shows it in the banner; it is kept in
//   `session.fatalError`. tts_error is a 'system' item (shown as a system message).
// - Not items: agent_status (the machine relays it to the canvas), tts_streaming_start/end (audio queue),
//   discussion_started/initialized (session + participants), discussion_ended (session.ended),
//   performance_metric (metrics, for analytics).
// - Rounds: round_start and round_end are 'round' items (markers with the agreement); the current round only
//   grows, so round_end before round_start, or a late round frame, never moves it back.
// - Delegations are counted once per (from, to, task/reason): the Basic server sends both a delegation frame and
//   the same delegation on the text that asks for it.
// - One turn, one item (a turn is the unit a reader sees): the frames that go with an agent's
//   turn and carry no id of their own — its acl_message, a request it made, a delegation it handed over — join
//   that turn as `extras` (turnExtras.ts), never items of their own. They name their agent only by name, so they
//   join the newest turn of that name (a delegation: only while that turn is the newest turn of all, or the turn
//   whose text carried the same delegation). One that arrives before any turn of its agent waits (`pending`) and
//   joins that agent's next turn; what still waits when the discussion ends, or arrives after the end with no
//   turn to join, becomes a light row of its own ('acl', 'delegation'), so nothing is ever dropped. Each such
//   frame is applied once (keyed by its content, logged in `attachments`).
// - `messageCount` is the one message count (messageCount.ts): turns and human messages, kept as items arrive.
// - Tool calls (tools.ts): each `tool_call` is kept once by its id with its `tool_result` (`tools`), read under
//   its turn by message_id; a call that comes before its turn's text starts the turn's placeholder. The person's
//   answer to a waiting call is a local input (`tool_approval_local`) so the row says 'refused' at once.
// - Arguments with an unknown parent sit at the root of the tree until the parent arrives (feedSelectors.ts).
//
// The files: types.ts (what the feed holds), keys.ts (keys and comparisons), items.ts (putting an item and keeping
// the turn index), attachments.ts (what joins a turn), messages.ts (a turn's frames), records.ts (research,
// arguments, consensus), apply.ts (the one switch over frame types).

export * from './types';
export { applyFrame, applyFrames } from './apply';
export { humanAuthorOf, onRoomMessage, roomItemId, type RoomMessageFrame } from './room';
export { deepEqual, frameKey } from './keys';
export { closeOpenStreams } from './messages';
export {
  allToolCalls,
  toolCallState,
  toolCallsOf,
  toolsInUse,
  turnWithoutTools,
  type ToolCallState,
} from './tools';
