import type { OutcomeWords } from '../outcomeWords';
import type { Argument, Consensus, Delegation, DiscussionStatistics, ResearchResult } from '../../schemas/discussion';
import type { HybridServerFrame } from '../../schemas/hybridSocket';
import type { StandardServerFrame } from '../../schemas/standardSocket';
import { type KeyedVec, emptyKeyedVec } from '../keyedVec';
import type { TurnExtra } from '../turnExtras';
import { emptyPositions, type PositionsState } from './positionsState';

// What the feed holds: the items the Discussion tab lists and the state beside them (rounds, consensus, research,
// the turn index that extras join), and the empty feed every discussion starts from.

export type HumanMessageLocal = {
  type: 'human_message_local';
  id: string;
  text: string;
  timestamp: string;
  author?: string;
  /** In a room: the author's colour and the message id the server gave it (feed/room.ts). */
  colour?: string;
  roomMessageId?: string;
};

/** The person's answer to a call that waited, shown in its row at once (the server's result follows). */
export type ToolApprovalLocal = { type: 'tool_approval_local'; id: string; approve: boolean };

export type FeedInput = StandardServerFrame | HybridServerFrame | HumanMessageLocal | ToolApprovalLocal;

export type FeedItemKind =
  | 'stage'
  | 'argument'
  | 'acl'
  | 'research'
  | 'consensus'
  | 'human'
  | 'hybrid'
  | 'summary'
  | 'text'
  | 'delegation'
  | 'system'
  | 'error'
  | 'round';

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
  /** Holders of the leading option whose confidence counted half (no evidence where it was required). */
  halved: number;
  reached: boolean;
  /** The outcome in words (outcomeWords.ts): what the closing row, Analytics, the PDF and the JSON say. */
  words: OutcomeWords;
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
  /** The frame as the feed keeps it; its own row is made from it when no turn takes it (attachmentRow.ts). */
  frame: AttachmentFrame;
  placed: 'turn' | 'row' | 'pending';
}

/** One tool call of a turn (tool_call, then its tool_result; the person's answer when it waited). */
export interface ToolCallEntry {
  id: string;
  /** False while only its result has come (a result before its call): not shown until the call arrives. */
  called: boolean;
  agentId: string;
  /** The turn it belongs to (the call row sits under it). */
  messageId: string;
  tool: string;
  server: string;
  arguments: Readonly<Record<string, unknown>>;
  needsApproval: boolean;
  /** What the person answered in this window; null when they have not (or in a stored discussion). */
  answer: 'approved' | 'refused' | null;
  result: { ok: boolean; content: string; truncated: boolean; ms: number; error: string | null } | null;
  timestamp: string | null;
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
  /** The options, each turn's position and the consensus figure, as the server sent them (positions.ts). */
  readonly positions: PositionsState;
  /** The agent the person gave the floor to while another spoke, until its turn begins (formatRows.ts). */
  readonly floorQueue: FloorQueue | null;
  /** Every tool call once, by its id, in arrival order (tools.ts). */
  readonly tools: KeyedVec<ToolCallEntry>;
}

export interface FloorQueue {
  agentId: string;
  agentName: string;
}

export type F<T extends FeedInput['type']> = Extract<FeedInput, { type: T }>;

/** The frames that join an agent's turn but carry no id of their own. */
export type AttachmentFrame = F<'acl_message'> | F<'request'> | F<'delegation'>;

/**
 * The feed with some fields changed: how every feed after the empty one is made. A copy written out field by field
 * keeps all of them in the object itself and gives every feed one hidden class, so V8 reads a feed's fields from
 * one known layout wherever it is used. An object spread of these 22 fields cost about ten times as much a change
 * (npm run bench ingest): V8 keeps most fields of a spread's result out of line, and spreading such a result again
 * takes its slow path.
 */
export function feedWith(feed: Feed, patch: Partial<Feed>): Feed {
  return Object.assign(copyFeed(feed), patch);
}

function copyFeed(f: Feed): { -readonly [K in keyof Feed]: Feed[K] } {
  return {
    items: f.items,
    arguments: f.arguments,
    research: f.research,
    delegations: f.delegations,
    metrics: f.metrics,
    audio: f.audio,
    consensus: f.consensus,
    stage: f.stage,
    round: f.round,
    session: f.session,
    participants: f.participants,
    statistics: f.statistics,
    lastMessageByAgent: f.lastMessageByAgent,
    audioByMessage: f.audioByMessage,
    streamingIds: f.streamingIds,
    attachments: f.attachments,
    pendingBySender: f.pendingBySender,
    lastTurnByName: f.lastTurnByName,
    lastAgentTurnId: f.lastAgentTurnId,
    messageCount: f.messageCount,
    researchNotice: f.researchNotice,
    positions: f.positions,
    floorQueue: f.floorQueue,
    tools: f.tools,
  };
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
  round: Object.freeze({
    current: null,
    max: null,
    ended: Object.freeze([]) as readonly number[],
    agreement: Object.freeze({}),
  }),
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
  positions: emptyPositions,
  floorQueue: null,
  tools: emptyKeyedVec<ToolCallEntry>(),
});
