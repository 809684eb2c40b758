// The standard panel's JSON export (docs/product.md#discussions-entities 'Export JSON', #discussions-limits file
// names), built from the feed. Pure: the caller passes the clock (`now`) and the configuration; saving the file is the
// view's/service's business.

import type { CommunicationConfig, PanelFormat, ReasoningConfig, ResearchConfig } from '../schemas/settings';
import { formatOf } from './discussionFormat';
import { DEFAULT_FORMAT_KIND } from '../schemas/constants';
import { discussionExport, type DiscussionExport, type ExportParticipant } from '../schemas/exportJson';
import { agentColor } from './agentIdentity';
import { modelName } from './modelName';
import { toolCallsOf, type Feed, type FeedItem } from './feed';
import type { ToolCallEntry } from './feed/types';
import { exportToolCall } from './toolCallText';
import { citationsOfItem } from './sourcesList';
import { countMessages, selectArguments, selectResearchResults } from './feedSelectors';
import { kvValues } from './keyedVec';
import { describeExtra } from './turnExtras';

export interface ExportMeta {
  sessionId: string | null;
  endpoint: string;
  context: string;
  configuration: { communication: CommunicationConfig; reasoning: ReasoningConfig; research: ResearchConfig };
  now: Date;
  /** The run's format setting and agents: the export says the format as it was sent. */
  format?: { setting: PanelFormat; agentIds: readonly string[] };
  /** Who took part (exportParticipants). */
  participants?: readonly ExportParticipant[];
}

/** An agent as the panel or History knows it: its stored look and model, and the model's stored label if any. */
export interface KnownAgent {
  id: string;
  name: string;
  role?: string | null;
  model?: string | null;
  model_label?: string | null;
  color?: string | null;
}

/** The export's participants: each agent's one colour (agentColor) and its model by name (modelName). */
export const exportParticipants = (
  agents: readonly KnownAgent[],
  connections: Parameters<typeof modelName>[1],
): ExportParticipant[] =>
  agents.map((a) => ({
    id: a.id,
    name: a.name,
    role: a.role ?? null,
    model: a.model === undefined ? null : modelName(a.model, connections, a.model_label),
    color: agentColor(a),
  }));

const FORMAT_FRAME_TYPES = new Set([
  'floor',
  'floor_queue',
  'vote',
  'format_stage',
  'ranking',
  'debate_result',
  'format_note',
]);

export type ExportMessage = DiscussionExport['messages'][number];

const sourceField = (it: FeedItem, key: string): unknown => {
  const s = it.source;
  return typeof s === 'object' && s !== null ? (s as Record<string, unknown>)[key] : undefined;
};

/** A turn's reasoning steps as the server sent them: a list, an object of named parts, or one sentence. */
function reasoningOf(it: FeedItem): unknown {
  const chain = sourceField(it, 'reasoning_chain');
  if (chain != null && !(Array.isArray(chain) && chain.length === 0)) return chain;
  const r = sourceField(it, 'reasoning');
  return typeof r === 'string' && r !== '' ? r : undefined;
}

function evidenceOf(it: FeedItem): unknown[] | undefined {
  const ev =
    sourceField(it, 'evidence') ??
    (sourceField(it, 'argument') as { supporting_evidence?: unknown } | undefined)?.supporting_evidence;
  return Array.isArray(ev) && ev.length > 0 ? ev : undefined;
}

/**
 * One row as exported: a turn (with what the protocol added to it under `protocol`, its reasoning and evidence)
 * or a light row; the common fields the schema names, plus what the bubble shows when present. A turn's text is
 * in `content` once; its ACL message is described, not repeated.
 */
export function exportMessage(it: FeedItem): ExportMessage {
  const out: Record<string, unknown> = {
    id: it.id,
    kind: it.kind,
    agent_id: it.agentId,
    agent_name: it.agentName,
    content: it.content,
    timestamp: it.timestamp,
    audio_url: it.audioUrl ?? null,
  };
  if (it.agentRole != null) out.agent_role = it.agentRole;
  if (it.confidence !== undefined) out.confidence = it.confidence;
  if (it.stage !== undefined) out.stage = it.stage;
  if (it.round !== undefined) out.round = it.round;
  if (it.audioId != null) out.audio_id = it.audioId;
  if (it.streaming) out.streaming = true;
  if (it.interrupted) out.interrupted = true;
  if (it.extras?.length) {
    out.protocol = it.extras.map((e) => ({
      kind: e.kind,
      phrase: describeExtra(e),
      performative: e.performative,
      receiver: e.receiver,
      stance: e.stance,
      confidence: e.confidence,
      note: e.note,
    }));
  }
  const reasoning = reasoningOf(it);
  if (reasoning !== undefined) out.reasoning = reasoning;
  const evidence = evidenceOf(it);
  if (evidence) out.evidence = evidence;
  const citations = citationsOfItem(it);
  if (citations.length) out.citations = citations;
  const frame = it.source as { type?: unknown } | null | undefined;
  if (frame && typeof frame.type === 'string' && FORMAT_FRAME_TYPES.has(frame.type)) out.frame = frame;
  return out as ExportMessage;
}

/** A turn's tool calls go with it, in the order they were made. */
function withToolCalls(m: ExportMessage, calls: readonly ToolCallEntry[]): ExportMessage {
  return calls.length ? { ...m, tool_calls: calls.map(exportToolCall) } : m;
}

/** The export document, validated by the `discussionExport` schema (throws only if this code is wrong). */
export function buildExport(feed: Feed, meta: ExportMeta): DiscussionExport {
  const doc = {
    session_id: meta.sessionId ?? feed.session.sessionId ?? '',
    endpoint: meta.endpoint,
    context: meta.context,
    ...(meta.participants?.length ? { participants: [...meta.participants] } : {}),
    configuration: meta.configuration,
    ...(meta.format
      ? { format: formatOf(meta.format.setting, meta.format.agentIds) ?? { kind: DEFAULT_FORMAT_KIND } }
      : {}),
    message_count: countMessages(feed),
    messages: kvValues(feed.items).map((it) => withToolCalls(exportMessage(it), toolCallsOf(feed, it.id))),
    argument_tree: [...selectArguments(feed)],
    research_results: [...selectResearchResults(feed)],
    consensus: feed.consensus?.consensus ?? null,
    consensus_score: feed.consensus?.score ?? feed.positions.score,
    outcome:
      feed.positions.firstVote || feed.positions.finalVote
        ? {
            first_vote: feed.positions.firstVote,
            final_vote: feed.positions.finalVote,
            ...(feed.positions.outcome ? { outcome: feed.positions.outcome } : {}),
            changes: feed.positions.changes,
          }
        : null,
    outcome_words: feed.consensus
      ? {
          headline: feed.consensus.words.headline,
          body: feed.consensus.words.body,
          first_vote: feed.consensus.words.firstVote,
        }
      : null,
    exported_at: meta.now.toISOString(),
  };
  return discussionExport.parse(doc);
}

/** How many of the topic's words name an export, and the most characters they take. */
export const EXPORT_NAME_WORDS = 6;
export const EXPORT_NAME_MAX_CHARS = 60;

/**
 * The topic in a few words, safe as a file name on every system: lower case, accents dropped, every run of
 * anything but letters and digits (slashes, colons, dots, quotes, spaces, control characters) one '-', at most
 * EXPORT_NAME_WORDS words and EXPORT_NAME_MAX_CHARS characters, cut at a word; 'discussion' when nothing is left.
 */
export function topicSlug(topic: string): string {
  const words = topic
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, EXPORT_NAME_WORDS);
  let slug = '';
  for (const w of words) {
    const next = slug ? `${slug}-${w}` : w;
    if ([...next].length > EXPORT_NAME_MAX_CHARS) {
      if (!slug) slug = [...w].slice(0, EXPORT_NAME_MAX_CHARS).join('');
      break;
    }
    slug = next;
  }
  return slug || 'discussion';
}

const pad = (n: number) => String(n).padStart(2, '0');
/** The day as the person's clock reads it, YYYY-MM-DD. */
const dayOf = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** `<topic in a few words>-<YYYY-MM-DD>.json|pdf`, for both panels and History: 'free-buses-for-all-2026-11-28.pdf'. */
export const exportFileName = (kind: 'json' | 'pdf', topic: string, now: Date): string =>
  `${topicSlug(topic)}-${dayOf(now)}.${kind}`;
