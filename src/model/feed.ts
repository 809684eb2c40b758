// The discussion feed (ARCHITECTURE.md 'src/model'): every frame a discussion socket sends, folded into what the
// panels show. Pure and immutable: applyFrame returns a new Feed that shares everything it did not change, and
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
//   arrived yet the clip waits for it (`audioByMessage`), and a clip wins over the message frame's own audio_url. Without message_id it goes to the last message of that agent (part 2 §4);
//   audio naming nobody attaches nowhere. Each clip is applied once (keyed by its content, logged in `audio`), so
//   a replayed clip without message_id cannot land on a later message. It never makes an item of its own.
// - A failed search (research_results with `unavailable` and no results; on the hybrid socket a system frame about
//   'research_unavailable') is not a row of the discussion: it is `researchNotice`, the Research tab's one quiet
//   notice (the latest failure's words).
// - Errors: a non-fatal error frame (an agent could not answer, a bad client frame) happened at a point of the
//   discussion and stays in its record, so it is an 'error' item (and exported). A fatal error (refused
//   configuration, the discussion cannot go on) is not an item: the machine shows it in the banner; it is kept in
//   `session.fatalError`. tts_error is a 'system' item (part 2 §8: 'shown as a system message').
// - Not items: agent_status (the machine relays it to the canvas), tts_streaming_start/end (audio queue),
//   discussion_started/initialized (session + participants), discussion_ended (session.ended),
//   performance_metric (metrics, for analytics).
// - Rounds: round_start and round_end are 'round' items (markers with the agreement); the current round only
//   grows, so round_end before round_start, or a late round frame, never moves it back.
// - Delegations are counted once per (from, to, task/reason): the Basic server sends both a delegation frame and
//   the same delegation on the text that asks for it.
// - One turn, one item (ARCHITECTURE.md 'A turn is the unit a reader sees'): the frames that go with an agent's
//   turn and carry no id of their own — its acl_message, a request it made, a delegation it handed over — join
//   that turn as `extras` (turnExtras.ts), never items of their own. They name their agent only by name, so they
//   join the newest turn of that name (a delegation: only while that turn is the newest turn of all, or the turn
//   whose text carried the same delegation). One that arrives before any turn of its agent waits (`pending`) and
//   joins that agent's next turn; what still waits when the discussion ends, or arrives after the end with no
//   turn to join, becomes a light row of its own ('acl', 'delegation'), so nothing is ever dropped. Each such
//   frame is applied once (keyed by its content, logged in `attachments`).
// - `messageCount` is the one message count (messageCount.ts): turns and human messages, kept as items arrive.
// - Arguments with an unknown parent sit at the root of the tree until the parent arrives (feedSelectors.ts).

import type { Argument, Consensus, Delegation, DiscussionStatistics, ResearchResult } from '../schemas/discussion';
import type { HybridServerFrame } from '../schemas/hybridSocket';
import type { StandardServerFrame } from '../schemas/standardSocket';
import { emptyKeyedVec, kvAppend, kvGet, kvIndexOf, kvSetAt, kvValues, vecGet, type KeyedVec } from './keyedVec';
import { ENGINE_MESSAGES } from '../schemas/messages';
import { isMessageKind } from './messageCount';
import type { TurnExtra } from './turnExtras';

export type HumanMessageLocal = { type: 'human_message_local'; id: string; text: string; timestamp: string; author?: string };
export type FeedInput = StandardServerFrame | HybridServerFrame | HumanMessageLocal;
export type FeedItemKind = 'stage' | 'argument' | 'acl' | 'research' | 'consensus' | 'human' | 'hybrid' | 'summary' | 'text' | 'delegation' | 'system' | 'error' | 'round';

export interface FeedItem {
  id: string;
  kind: FeedItemKind;
  agentId: string | null;
  agentName: string | null;
  agentRole?: string | null;
  content: string;
  timestamp: string | null;
  confidence?: number;
  stage?: string;
  round?: number;
  audioUrl?: string | null;
  audioId?: string | null;
  streaming?: boolean;
  interrupted?: boolean;
  /** What the protocol added to this turn (its ACL message, request, delegation), in arrival order. */
  extras?: readonly TurnExtra[];
  /** the frame it came from, for kind-specific cards */
  source?: unknown;
}

export interface Participant {
  id: string;
  name: string;
  role: string | null;
}
export interface ResearchEntry {
  key: string;
  result: ResearchResult;
  timestamp: string | null;
}
export interface DelegationEntry {
  key: string;
  from: string | null;
  to: string | null;
  reason: string | null;
  task: string | null;
  timestamp: string | null;
  delegation: Delegation;
}
export interface MetricSample {
  metric: string;
  value: number;
  timestamp: string | null;
}
export interface ConsensusState {
  consensus: Consensus;
  score: number;
  reached: boolean;
  timestamp: string | null;
}
export interface StageState {
  stage: string;
  round: number | null;
  description: string | null;
  timestamp: string | null;
}
export interface RoundState {
  /** The highest round started or ended so far (never moves back). */
  current: number | null;
  max: number | null;
  /** Rounds that ended, ascending. */
  ended: readonly number[];
  /** round → agreement reported by its round_end. */
  agreement: Readonly<Record<number, number>>;
}
export interface SessionInfo {
  sessionId: string | null;
  endpoint: string | null;
  mode: string | null;
  topic: string | null;
  ended: { reason: string | null; timestamp: string | null } | null;
  fatalError: string | null;
}
export interface AudioRef {
  audioUrl: string;
  audioId: string | null;
}
export interface AudioEvent extends AudioRef {
  agentId: string;
  /** The message it was attached to (or waits for); null when nobody could take it. */
  messageId: string | null;
  timestamp: string | null;
}

/** An acl_message, request or delegation frame: where it went (a turn, a row of its own, or still waiting). */
export interface AttachmentEntry {
  key: string;
  sender: string;
  extra: TurnExtra;
  /** The turn it joined; null while it waits or when it became a row. */
  turnId: string | null;
  /** Its own row, used when no turn takes it. */
  row: FeedItem;
  placed: 'turn' | 'row' | 'pending';
}

export interface Feed {
  /** The Discussion list, in order. */
  readonly items: KeyedVec<FeedItem>;
  readonly arguments: KeyedVec<Argument>;
  readonly research: KeyedVec<ResearchEntry>;
  readonly delegations: KeyedVec<DelegationEntry>;
  readonly metrics: KeyedVec<MetricSample>;
  /** Every audio frame once (keyed by its content), so a replayed clip is not re-attached to another message. */
  readonly audio: KeyedVec<AudioEvent>;
  readonly consensus: ConsensusState | null;
  readonly stage: StageState | null;
  readonly round: RoundState;
  readonly session: SessionInfo;
  readonly participants: readonly Participant[];
  /** The server's statistics (discussion_summary.summary.performance_metrics), when it sent them. */
  readonly statistics: DiscussionStatistics | null;
  /** agent id → id of that agent's latest message (where audio without message_id goes). */
  readonly lastMessageByAgent: Readonly<Record<string, string>>;
  /** message id → the clip its latest audio frame brought (kept whether or not the message has arrived yet). */
  readonly audioByMessage: KeyedVec<AudioRef>;
  /** ids of items still streaming. */
  readonly streamingIds: readonly string[];
  /** Every acl_message, request and delegation frame once, and where it went. */
  readonly attachments: KeyedVec<AttachmentEntry>;
  /** agent name → keys of its attachments waiting for its next turn, in arrival order. */
  readonly pendingBySender: Readonly<Record<string, readonly string[]>>;
  /** agent name → id of that agent's newest turn. */
  readonly lastTurnByName: Readonly<Record<string, string>>;
  /** The newest agent turn of all. */
  readonly lastAgentTurnId: string | null;
  /** Turns and human messages (messageCount.ts). */
  readonly messageCount: number;
  /** Why the latest search for papers failed, in the server's words; null when none failed. */
  readonly researchNotice: string | null;
}

export const emptyFeed: Feed = Object.freeze({
  items: emptyKeyedVec<FeedItem>(),
  arguments: emptyKeyedVec<Argument>(),
  research: emptyKeyedVec<ResearchEntry>(),
  delegations: emptyKeyedVec<DelegationEntry>(),
  metrics: emptyKeyedVec<MetricSample>(),
  audio: emptyKeyedVec<AudioEvent>(),
  consensus: null,
  stage: null,
  round: Object.freeze({ current: null, max: null, ended: Object.freeze([]) as readonly number[], agreement: Object.freeze({}) }),
  session: Object.freeze({ sessionId: null, endpoint: null, mode: null, topic: null, ended: null, fatalError: null }),
  participants: Object.freeze([]) as readonly Participant[],
  statistics: null,
  lastMessageByAgent: Object.freeze({}),
  audioByMessage: emptyKeyedVec<AudioRef>(),
  streamingIds: Object.freeze([]) as readonly string[],
  attachments: emptyKeyedVec<AttachmentEntry>(),
  pendingBySender: Object.freeze({}),
  lastTurnByName: Object.freeze({}),
  lastAgentTurnId: null,
  messageCount: 0,
  researchNotice: null,
});

// ── keys ────────────────────────────────────────────────────────────────────

/** cyrb53: a fast 53-bit string hash (public domain). */
function hash53(str: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < str.length; i++) {
    const ch = str.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * The stable key of a frame that has no id of its own: the same for a byte-identical replay. (Native
 * JSON.stringify plus one pass of the hash measured faster than hashing the object by walking it.)
 */
export function frameKey(frame: { type: string }): string {
  const json = JSON.stringify(frame);
  return `${frame.type}:${json.length.toString(36)}:${hash53(json).toString(36)}`;
}

// ── small helpers ───────────────────────────────────────────────────────────

/** Structural equality of JSON-like values (frames after parsing). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bb[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

const ITEM_FIELDS = ['kind', 'agentId', 'agentName', 'agentRole', 'content', 'timestamp', 'confidence', 'stage', 'round', 'audioUrl', 'audioId', 'streaming', 'interrupted', 'extras'] as const;
function sameItem(a: FeedItem, b: FeedItem): boolean {
  for (const f of ITEM_FIELDS) if (a[f] !== b[f]) return false;
  return deepEqual(a.source, b.source);
}

/** Drops undefined fields so items compare and serialise the same however they were built. */
function item(fields: FeedItem): FeedItem {
  const out = {} as Record<string, unknown>;
  for (const k in fields) {
    const v = (fields as unknown as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = v;
  }
  return out as unknown as FeedItem;
}

/** An own entry of a record keyed by ids from the wire ('constructor' is an id like any other). */
const own = <T,>(rec: Readonly<Record<string, T>>, key: string): T | undefined => (Object.prototype.hasOwnProperty.call(rec, key) ? rec[key] : undefined);

const SPEECH_KINDS: ReadonlySet<FeedItemKind> = new Set(['hybrid', 'text', 'argument']);
const stringify = (v: unknown) => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));
const pct = (x: number) => `${Math.round(x * 100)}%`;

// ── item insertion ──────────────────────────────────────────────────────────

/**
 * Appends a new item, or replaces the one with its id (unless it is the same frame again). A clip an audio frame
 * brought for this id wins over the frame's own audio_url (audio frames come after their message); without one,
 * a new version of a message without audio keeps the audio of the version it replaces.
 */
function putItem(feed: Feed, next: FeedItem): Feed {
  const pos = kvIndexOf(feed.items, next.id);
  const prev = pos >= 0 ? vecGet(feed.items.values, pos)! : undefined;
  // The same frame again (a replay): it was applied when it first came. Only a different frame for a known id
  // (the final frame of a streamed turn, an argument's new votes, a corrected message) replaces the item.
  if (prev && deepEqual(prev.source, next.source)) return feed;
  const clip = kvGet(feed.audioByMessage, next.id);
  if (clip) next = { ...next, audioUrl: clip.audioUrl, audioId: clip.audioId };
  else if (prev && next.audioUrl == null && prev.audioUrl != null) next = { ...next, audioUrl: prev.audioUrl, audioId: prev.audioId ?? null };
  if (prev?.extras) next = { ...next, extras: mergeExtras(prev.extras, next.extras) };
  if (prev) {
    if (sameItem(prev, next)) return feed;
    let out: Feed = { ...feed, items: kvSetAt(feed.items, pos, next) };
    if (prev.streaming && !next.streaming) out = { ...out, streamingIds: out.streamingIds.filter((id) => id !== next.id) };
    const counted = (isMessageKind(next.kind) ? 1 : 0) - (isMessageKind(prev.kind) ? 1 : 0);
    if (counted !== 0) out = { ...out, messageCount: out.messageCount + counted };
    if (prev.agentId === null && next.agentId && SPEECH_KINDS.has(next.kind)) {
      out = { ...out, lastMessageByAgent: { ...out.lastMessageByAgent, [next.agentId]: next.id } };
    }
    if (prev.agentName === null && next.agentName && SPEECH_KINDS.has(next.kind)) out = turnNamed(out, next.id, next.agentName);
    return out;
  }
  const agentMoves = next.agentId !== null && SPEECH_KINDS.has(next.kind) && own(feed.lastMessageByAgent, next.agentId) !== next.id;
  const out: Feed = {
    ...feed,
    items: kvAppend(feed.items, next.id, next),
    lastMessageByAgent: agentMoves ? { ...feed.lastMessageByAgent, [next.agentId!]: next.id } : feed.lastMessageByAgent,
    streamingIds: next.streaming ? [...feed.streamingIds, next.id] : feed.streamingIds,
    messageCount: isMessageKind(next.kind) ? feed.messageCount + 1 : feed.messageCount,
  };
  return next.agentName && SPEECH_KINDS.has(next.kind) ? turnNamed(out, next.id, next.agentName) : out;
}

// ── turns and what joins them ───────────────────────────────────────────────

/** The extras of a turn's earlier version first, then the new version's own ones not already there. */
function mergeExtras(prev: readonly TurnExtra[], next: readonly TurnExtra[] | undefined): readonly TurnExtra[] {
  if (!next || next.length === 0) return prev;
  const have = new Set(prev.map((e) => e.key));
  const added = next.filter((e) => !have.has(e.key));
  return added.length === 0 ? prev : [...prev, ...added];
}

/** A turn now known to be `name`'s: it is that agent's newest turn, and takes what waited for it. */
function turnNamed(feed: Feed, id: string, name: string): Feed {
  let out = feed;
  if (own(out.lastTurnByName, name) !== id) out = { ...out, lastTurnByName: { ...out.lastTurnByName, [name]: id } };
  if (out.lastAgentTurnId !== id) out = { ...out, lastAgentTurnId: id };
  const waiting = own(out.pendingBySender, name);
  if (!waiting) return out;
  const { [name]: _taken, ...rest } = out.pendingBySender as Record<string, readonly string[]>;
  out = { ...out, pendingBySender: rest };
  for (const key of waiting) out = placeAttachment(out, key, id);
  return out;
}

/** Adds an extra to a turn (once per key). */
function joinTurn(feed: Feed, turnId: string, extra: TurnExtra): Feed {
  const pos = kvIndexOf(feed.items, turnId);
  if (pos < 0) return feed;
  const prev = vecGet(feed.items.values, pos)!;
  if (prev.extras?.some((e) => e.key === extra.key)) return feed;
  return { ...feed, items: kvSetAt(feed.items, pos, { ...prev, extras: [...(prev.extras ?? []), extra] }) };
}

/** Records where a logged attachment went: a turn (by id) or, with null, a row of its own. */
function placeAttachment(feed: Feed, key: string, turnId: string | null): Feed {
  const at = kvIndexOf(feed.attachments, key);
  const entry = vecGet(feed.attachments.values, at)!;
  const placed: AttachmentEntry = { ...entry, turnId, placed: turnId === null ? 'row' : 'turn' };
  const out: Feed = { ...feed, attachments: kvSetAt(feed.attachments, at, placed) };
  return turnId === null ? putItem(out, entry.row) : joinTurn(out, turnId, entry.extra);
}

const delegationKey = (d: Delegation) => `delegation:${d.from_agent ?? d.from ?? ''}\u0000${d.to_agent ?? d.to ?? ''}\u0000${d.task ?? d.reason ?? ''}`;

function delegationExtra(d: Delegation, source: unknown): TurnExtra {
  return {
    key: delegationKey(d), kind: 'delegation', performative: null, receiver: d.to_agent ?? d.to ?? null, stance: null, confidence: null,
    note: d.task ?? d.reason ?? null, source,
  };
}

/** The stance and confidence an ACL content object states (the engine sends {claim, stance, confidence, …}). */
function statedIn(content: unknown): { stance: string | null; confidence: number | null } {
  if (typeof content !== 'object' || content === null) return { stance: null, confidence: null };
  const c = content as { stance?: unknown; confidence?: unknown };
  return {
    stance: typeof c.stance === 'string' && c.stance !== '' ? c.stance : null,
    confidence: typeof c.confidence === 'number' && c.confidence >= 0 && c.confidence <= 1 ? c.confidence : null,
  };
}

/** The turn an attachment joins now, or null (it waits, or becomes a row). */
function turnFor(feed: Feed, sender: string, extra: TurnExtra): string | null {
  const newest = feed.lastAgentTurnId;
  if (newest !== null && kvGet(feed.items, newest)?.agentName === sender) return newest;
  const own_ = own(feed.lastTurnByName, sender) ?? null;
  if (extra.kind !== 'delegation') return own_;
  // A delegation frame before the text that carries it (the Basic endpoint): it belongs to that coming turn, not
  // to the agent's previous one — unless that one already carries it.
  return own_ !== null && kvGet(feed.items, own_)?.extras?.some((e) => e.key === extra.key) ? own_ : null;
}

function onAttachment(feed: Feed, frame: F<'acl_message'> | F<'request'> | F<'delegation'>): Feed {
  const key = frameKey(frame);
  if (kvIndexOf(feed.attachments, key) >= 0) return feed; // a replay: placed when it first came
  const ts = frame.timestamp ?? null;
  const base = { id: key, agentId: null, timestamp: ts, source: frame };
  let sender: string;
  let extra: TurnExtra;
  let row: FeedItem;
  let out = feed;
  if (frame.type === 'acl_message') {
    sender = frame.sender;
    const stated = statedIn(frame.content);
    extra = { key, kind: 'acl', performative: frame.performative, receiver: frame.receiver ?? null, ...stated, note: null, source: frame };
    row = item({ ...base, kind: 'acl', agentName: frame.sender, content: frame.natural_language ?? `${frame.performative}: ${stringify(frame.content)}` });
  } else if (frame.type === 'request') {
    sender = frame.from_agent;
    extra = { key, kind: 'request', performative: frame.action, receiver: frame.to_agent, stance: null, confidence: null, note: null, source: frame };
    row = item({ ...base, kind: 'acl', agentName: frame.from_agent, content: frame.content ?? `${frame.from_agent} → ${frame.to_agent}: ${frame.action}` });
  } else {
    const d = frame.delegation;
    const from = d.from_agent ?? d.from ?? null;
    const to = d.to_agent ?? d.to ?? null;
    sender = from ?? '';
    extra = delegationExtra(d, frame);
    row = item({ ...base, kind: 'delegation', agentName: from, content: `${from ?? '?'} → ${to ?? '?'}${d.task ?? d.reason ? `: ${d.task ?? d.reason}` : ''}` });
    out = addDelegation(out, d, ts);
  }
  const turnId = turnFor(out, sender, extra);
  const placed: AttachmentEntry['placed'] = turnId !== null ? 'turn' : out.session.ended ? 'row' : 'pending';
  out = { ...out, attachments: kvAppend(out.attachments, key, { key, sender, extra, row, turnId, placed }) };
  if (placed === 'turn') return joinTurn(out, turnId!, extra);
  if (placed === 'row') return putItem(out, row);
  const waiting = own(out.pendingBySender, sender) ?? [];
  return { ...out, pendingBySender: { ...out.pendingBySender, [sender]: [...waiting, key] } };
}

/** At the end nothing more will come: what still waits for a turn becomes a row of its own. */
function flushPending(feed: Feed): Feed {
  if (Object.keys(feed.pendingBySender).length === 0) return feed;
  let out: Feed = { ...feed, pendingBySender: {} };
  for (const e of kvValues(feed.attachments)) if (e.placed === 'pending') out = placeAttachment(out, e.key, null);
  return out;
}

/** For frames without an id: nothing happens when the key is known (a replay); otherwise `then` runs. */
function once(feed: Feed, key: string, then: (feed: Feed) => Feed): Feed {
  return kvIndexOf(feed.items, key) >= 0 ? feed : then(feed);
}

function withRound(feed: Feed, round: number | undefined | null, max?: number | null): Feed {
  const r = feed.round;
  const current = round != null && (r.current === null || round > r.current) ? round : r.current;
  const nextMax = max != null ? max : r.max;
  if (current === r.current && nextMax === r.max) return feed;
  return { ...feed, round: { ...r, current, max: nextMax } };
}

function addDelegation(feed: Feed, d: Delegation, timestamp: string | null): Feed {
  const from = d.from_agent ?? d.from ?? null;
  const to = d.to_agent ?? d.to ?? null;
  const key = delegationKey(d);
  if (kvIndexOf(feed.delegations, key) >= 0) return feed;
  const entry: DelegationEntry = { key, from, to, reason: d.reason ?? null, task: d.task ?? null, timestamp: d.timestamp ?? timestamp, delegation: d };
  return { ...feed, delegations: kvAppend(feed.delegations, key, entry) };
}

const placeholderKind = (feed: Feed): FeedItemKind => (feed.session.endpoint === 'basic' ? 'text' : 'hybrid');

// ── per-frame handlers ──────────────────────────────────────────────────────

type F<T extends FeedInput['type']> = Extract<FeedInput, { type: T }>;

function onSessionFrame(feed: Feed, frame: F<'discussion_started'> | F<'discussion_initialized'>): Feed {
  const s = feed.session;
  const endpoint = frame.type === 'discussion_started' ? frame.endpoint ?? s.endpoint : s.endpoint;
  const mode = frame.type === 'discussion_initialized' ? frame.mode ?? s.mode : s.mode;
  const topic = frame.topic ?? s.topic;
  let out = feed;
  if (frame.session_id !== s.sessionId || endpoint !== s.endpoint || mode !== s.mode || topic !== s.topic) {
    out = { ...out, session: { ...s, sessionId: frame.session_id, endpoint, mode, topic } };
  }
  if (frame.type === 'discussion_initialized') out = withRound(out, null, frame.max_rounds);
  // Merge by id, the frame's last word winning; the same array when nothing differs.
  const merged = new Map(out.participants.map((p) => [p.id, p]));
  for (const p of frame.participants) merged.set(p.id, { id: p.id, name: p.name, role: p.role ?? null });
  const next = [...merged.values()];
  const same = next.length === out.participants.length && next.every((p, i) => {
    const q = out.participants[i];
    return q.id === p.id && q.name === p.name && q.role === p.role;
  });
  return same ? out : { ...out, participants: next };
}

function onFinalMessage(feed: Feed, frame: F<'agent_message'> | F<'text'>): Feed {
  const ts = frame.timestamp ?? null;
  const next =
    frame.type === 'agent_message'
      ? item({
          id: frame.id, kind: 'hybrid', agentId: frame.agent_id, agentName: frame.agent_name, agentRole: frame.agent_role ?? null,
          content: frame.content, timestamp: ts, confidence: frame.confidence, round: frame.round,
          audioUrl: frame.audio_url ?? undefined, audioId: frame.audio_id ?? undefined, interrupted: frame.interrupted || undefined, source: frame,
        })
      : item({
          id: frame.id ?? frameKey(frame), kind: 'text', agentId: frame.from_id, agentName: frame.from, content: frame.text, timestamp: ts,
          interrupted: frame.interrupted || undefined, extras: frame.delegation ? [delegationExtra(frame.delegation, frame.delegation)] : undefined, source: frame,
        });
  let out = putItem(feed, next);
  if (frame.type === 'text' && frame.delegation) out = addDelegation(out, frame.delegation, ts);
  return out;
}

function onStart(feed: Feed, frame: F<'agent_message_start'>): Feed {
  const pos = kvIndexOf(feed.items, frame.id);
  if (pos >= 0) {
    const prev = vecGet(feed.items.values, pos)!;
    if (!prev.streaming || prev.agentId !== null || prev.kind === 'summary') return feed; // final already, or a start seen before
    // Deltas came before the summary's start: the draft becomes the summary's light row (nobody's turn).
    if (frame.kind === 'summary') return putItem(feed, item({ ...prev, kind: 'summary', timestamp: prev.timestamp ?? frame.timestamp ?? null, source: frame }));
    const filled = item({ ...prev, agentId: frame.agent_id, agentName: frame.agent_name, round: frame.round ?? prev.round, stage: frame.stage ?? prev.stage, timestamp: prev.timestamp ?? frame.timestamp ?? null });
    let out: Feed = { ...feed, items: kvSetAt(feed.items, pos, filled) };
    if (own(out.lastMessageByAgent, frame.agent_id) !== frame.id) out = { ...out, lastMessageByAgent: { ...out.lastMessageByAgent, [frame.agent_id]: frame.id } };
    return turnNamed(out, frame.id, frame.agent_name);
  }
  return putItem(
    feed,
    item({
      // The summary is written in an agent's voice but is nobody's turn: its row names no speaker, live or replayed
      // from History (whose stored frames have no stream start), so the label does not change when it completes.
      ...(frame.kind === 'summary' ? { kind: 'summary' as const, agentId: null, agentName: null } : { kind: placeholderKind(feed), agentId: frame.agent_id, agentName: frame.agent_name }),
      id: frame.id, content: '',
      timestamp: frame.timestamp ?? null, round: frame.round, stage: frame.stage, streaming: true, source: frame,
    }),
  );
}

function onDelta(feed: Feed, frame: F<'agent_message_delta'>): Feed {
  const pos = kvIndexOf(feed.items, frame.id);
  if (pos >= 0) {
    const prev = vecGet(feed.items.values, pos)!;
    if (!prev.streaming || frame.delta === '') return feed; // a late delta after the final frame
    return { ...feed, items: kvSetAt(feed.items, pos, { ...prev, content: prev.content + frame.delta }) };
  }
  return putItem(
    feed,
    item({ id: frame.id, kind: placeholderKind(feed), agentId: null, agentName: null, content: frame.delta, timestamp: null, streaming: true, source: frame }),
  );
}

function onAudio(feed: Feed, frame: F<'audio'> | F<'audio_message'>): Feed {
  const key = frameKey(frame);
  if (kvIndexOf(feed.audio, key) >= 0) return feed; // a replayed clip: attached when it first came
  const ref: AudioRef = { audioUrl: frame.audio_url, audioId: frame.audio_id ?? null };
  const target = frame.message_id ?? own(feed.lastMessageByAgent, frame.agent_id) ?? null;
  let out: Feed = { ...feed, audio: kvAppend(feed.audio, key, { ...ref, agentId: frame.agent_id, messageId: target, timestamp: frame.timestamp ?? null }) };
  if (target === null) return out; // nobody to take it
  const at = kvIndexOf(out.audioByMessage, target);
  out = { ...out, audioByMessage: at < 0 ? kvAppend(out.audioByMessage, target, ref) : kvSetAt(out.audioByMessage, at, ref) };
  const pos = kvIndexOf(out.items, target);
  if (pos < 0) return out; // its message has not arrived yet: putItem attaches the clip when it does
  const prev = vecGet(out.items.values, pos)!;
  if (prev.audioUrl === ref.audioUrl && (prev.audioId ?? null) === ref.audioId) return out;
  return { ...out, items: kvSetAt(out.items, pos, { ...prev, audioUrl: ref.audioUrl, audioId: ref.audioId }) };
}

function onEnded(feed: Feed, frame: F<'discussion_ended'>): Feed {
  if (feed.session.ended) return feed; // the end was applied when it first came (a replay, or a second word on it)
  return flushPending(closeOpenStreams({ ...feed, session: { ...feed.session, ended: { reason: frame.reason ?? null, timestamp: frame.timestamp ?? null } } }));
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
  return { ...feed, items, streamingIds: [] };
}

function researchSummary(results: readonly ResearchResult[], query?: string): string {
  const n = results.reduce((a, r) => a + (r.results?.length ?? 0) + (r.articles?.length ?? 0), 0);
  const sources = [...new Set(results.map((r) => r.source))].join(', ');
  const q = query ?? results[0]?.query ?? results[0]?.topic;
  return `Research (${sources || 'none'}): ${n} paper${n === 1 ? '' : 's'}${q ? ` for "${q}"` : ''}`;
}

const withResearchNotice = (feed: Feed, text: string): Feed => (feed.researchNotice === text ? feed : { ...feed, researchNotice: text });

function onResearch(feed: Feed, frame: F<'research_result'> | F<'research_results'>): Feed {
  if (frame.type === 'research_results' && frame.unavailable && frame.results.length === 0) return withResearchNotice(feed, frame.unavailable);
  const key = frameKey(frame);
  return once(feed, key, (f) => {
    const ts = frame.timestamp ?? null;
    const results = frame.type === 'research_result' ? [frame.result] : frame.results;
    let research = f.research;
    results.forEach((result, i) => {
      const k = results.length === 1 ? key : `${key}#${i}`;
      if (kvIndexOf(research, k) < 0) research = kvAppend(research, k, { key: k, result, timestamp: ts });
    });
    const content = researchSummary(results, frame.type === 'research_results' ? frame.query : undefined);
    return putItem({ ...f, research }, item({ id: key, kind: 'research', agentId: null, agentName: null, content, timestamp: ts, source: frame }));
  });
}

function onArgument(feed: Feed, frame: F<'argument'>): Feed {
  const a = frame.argument;
  const pos = kvIndexOf(feed.arguments, a.id);
  let out = feed;
  if (pos < 0) out = { ...out, arguments: kvAppend(out.arguments, a.id, a) };
  else if (!deepEqual(vecGet(out.arguments.values, pos), a)) out = { ...out, arguments: kvSetAt(out.arguments, pos, a) };
  out = putItem(
    out,
    item({
      id: a.id, kind: 'argument', agentId: a.agent_id, agentName: a.agent_name ?? null, content: a.content, timestamp: frame.timestamp ?? null,
      confidence: a.confidence, stage: a.stage, round: a.round, source: frame,
    }),
  );
  return withRound(out, a.round);
}

/** The newest turn whose text is exactly `text` (a consensus names a turn's words as its solution), or null. */
function turnSaying(feed: Feed, text: string): FeedItem | null {
  const wanted = text.trim();
  if (wanted === '') return null;
  const values = kvValues(feed.items);
  for (let i = values.length - 1; i >= 0; i--) {
    const it = values[i];
    if (SPEECH_KINDS.has(it.kind) && it.content.trim() === wanted) return it;
  }
  return null;
}

/**
 * The consensus row in words. The server's solution and dissents are often a turn's own words ('Bo: …'); the row
 * then names that turn instead of repeating it, so each turn's text is read once (the full text stays in
 * `feed.consensus`, the Analytics tab and the export's `consensus`).
 */
function consensusLine(feed: Feed, c: Consensus, reached: boolean): string {
  const echo = turnSaying(feed, c.solution);
  const head = echo ? `${reached ? 'Agreement on' : 'Closest to agreement:'} ${echo.agentName ?? 'an agent'}'s point` : c.solution;
  const dissent = c.dissenting_opinions.map((d) => {
    const m = /^([^:]{1,80}):\s*([\s\S]+)$/.exec(d);
    return m && turnSaying(feed, m[2]) ? `${m[1]} disagrees.` : `Dissent: ${d}`;
  });
  return [echo ? `${head}.` : head, ...dissent].join(' ');
}

/** Everything a frame without an id turns into, once. */
function keyedFrame(feed: Feed, frame: Exclude<FeedInput, { type: 'agent_message' | 'text' | 'argument' | 'agent_message_start' | 'agent_message_delta' | 'human_message_local' }>): Feed {
  const ts = frame.timestamp ?? null;
  const base = { agentId: null, agentName: null, timestamp: ts, source: frame };
  switch (frame.type) {
    case 'reasoning_stage': {
      const key = frameKey(frame);
      return once(feed, key, (f) => {
        const out = putItem(f, item({ ...base, id: key, kind: 'stage', content: frame.description ?? `Stage: ${frame.stage}`, stage: frame.stage, round: frame.round }));
        return withRound({ ...out, stage: { stage: frame.stage, round: frame.round ?? null, description: frame.description ?? null, timestamp: ts } }, frame.round);
      });
    }
    case 'acl_message':
    case 'request':
    case 'delegation':
      return onAttachment(feed, frame);
    case 'consensus_reached': {
      const key = frameKey(frame);
      return once(feed, key, (f) =>
        putItem(
          { ...f, consensus: { consensus: frame.consensus, score: frame.score, reached: frame.reached, timestamp: ts } },
          item({ ...base, id: key, kind: 'consensus', content: consensusLine(f, frame.consensus, frame.reached), confidence: frame.consensus.confidence }),
        ),
      );
    }
    case 'round_start': {
      const key = frameKey(frame);
      const content = `Round ${frame.round}${frame.max_rounds ? ` of ${frame.max_rounds}` : ''}${frame.stage ? ` · ${frame.stage}` : ''}`;
      return once(feed, key, (f) => withRound(putItem(f, item({ ...base, id: key, kind: 'round', content, round: frame.round, stage: frame.stage })), frame.round, frame.max_rounds));
    }
    case 'round_end': {
      const key = frameKey(frame);
      const content = `Round ${frame.round} ended${frame.agreement !== undefined ? ` · agreement ${pct(frame.agreement)}` : ''}`;
      return once(feed, key, (f) => {
        const out = withRound(putItem(f, item({ ...base, id: key, kind: 'round', content, round: frame.round })), frame.round);
        const r = out.round;
        const ended = r.ended.includes(frame.round) ? r.ended : [...r.ended, frame.round].sort((a, b) => a - b);
        const agreement = frame.agreement !== undefined ? { ...r.agreement, [frame.round]: frame.agreement } : r.agreement;
        return ended === r.ended && agreement === r.agreement ? out : { ...out, round: { ...r, ended, agreement } };
      });
    }
    case 'discussion_summary': {
      const s = frame.summary;
      const content = s.text ?? `Summary${s.message_count !== undefined ? ` of ${s.message_count} messages` : ''}${s.consensus_score !== undefined ? ` · consensus ${pct(s.consensus_score)}` : ''}`;
      const withStats = (f: Feed) => (s.performance_metrics ? { ...f, statistics: s.performance_metrics } : f);
      // A streamed summary carries its stream's id: it replaces the placeholder in place (putItem ignores a replay).
      if (frame.id) {
        const pos = kvIndexOf(feed.items, frame.id);
        if (pos >= 0 && deepEqual(vecGet(feed.items.values, pos)!.source, frame)) return feed; // a replay
        return putItem(withStats(feed), item({ ...base, id: frame.id, kind: 'summary', content }));
      }
      const key = frameKey(frame);
      return once(feed, key, (f) => putItem(withStats(f), item({ ...base, id: key, kind: 'summary', content })));
    }
    case 'system': {
      if (frame.about === 'research_unavailable' || frame.content.startsWith(ENGINE_MESSAGES.researchUnavailable)) return withResearchNotice(feed, frame.content);
      const key = frameKey(frame);
      return once(feed, key, (f) => putItem(f, item({ ...base, id: key, kind: 'system', content: frame.content })));
    }
    case 'tts_error': {
      const key = frameKey(frame);
      return once(feed, key, (f) => putItem(f, item({ ...base, id: key, kind: 'system', agentId: frame.agent_id ?? null, agentName: frame.agent_name, content: frame.error })));
    }
    case 'error': {
      if (frame.fatal) {
        return feed.session.fatalError === frame.message ? feed : { ...feed, session: { ...feed.session, fatalError: frame.message } };
      }
      const key = frameKey(frame);
      return once(feed, key, (f) => putItem(f, item({ ...base, id: key, kind: 'error', content: frame.message })));
    }
    case 'performance_metric': {
      const key = frameKey(frame);
      if (kvIndexOf(feed.metrics, key) >= 0) return feed;
      return { ...feed, metrics: kvAppend(feed.metrics, key, { metric: frame.metric, value: frame.value, timestamp: ts }) };
    }
    case 'research_result':
    case 'research_results':
      return onResearch(feed, frame);
    case 'audio':
    case 'audio_message':
      return onAudio(feed, frame);
    case 'discussion_started':
    case 'discussion_initialized':
      return onSessionFrame(feed, frame);
    case 'discussion_ended':
      return onEnded(feed, frame);
    case 'agent_status':
    case 'tts_streaming_start':
    case 'tts_streaming_end':
      return feed;
    default: {
      const never: never = frame;
      void never;
      return feed; // a type the model does not know (cannot happen after the schemas): nothing to show
    }
  }
}

/** Folds one frame into the feed. Never throws for a frame that passed the schemas, whatever the order. */
export function applyFrame(feed: Feed, frame: FeedInput): Feed {
  switch (frame.type) {
    case 'agent_status':
      return feed; // the hottest frame: relayed by the machine, nothing to store
    case 'agent_message':
    case 'text':
      return onFinalMessage(feed, frame);
    case 'agent_message_start':
      return onStart(feed, frame);
    case 'agent_message_delta':
      return onDelta(feed, frame);
    case 'argument':
      return onArgument(feed, frame);
    case 'human_message_local':
      return putItem(feed, item({ id: frame.id, kind: 'human', agentId: null, agentName: frame.author ?? null, content: frame.text, timestamp: frame.timestamp, source: frame }));
    default:
      return keyedFrame(feed, frame);
  }
}

/** Folds many frames (replays, tests). */
export const applyFrames = (feed: Feed, frames: Iterable<FeedInput>): Feed => {
  let out = feed;
  for (const f of frames) out = applyFrame(out, f);
  return out;
};
