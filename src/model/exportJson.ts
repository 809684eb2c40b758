// The standard panel's JSON export (part 2 §3 'Export JSON', §9 file names), built from the feed. Pure: the
// caller passes the clock (`now`) and the configuration; saving the file is the view's/service's business.

import type { CommunicationConfig, ReasoningConfig, ResearchConfig } from '../schemas/settings';
import { discussionExport, type DiscussionExport } from '../schemas/exportJson';
import type { Feed, FeedItem } from './feed';
import { selectArguments, selectResearchResults } from './feedSelectors';
import { kvValues } from './keyedVec';

export interface ExportMeta {
  sessionId: string | null;
  endpoint: string;
  context: string;
  configuration: { communication: CommunicationConfig; reasoning: ReasoningConfig; research: ResearchConfig };
  now: Date;
}

export type ExportMessage = DiscussionExport['messages'][number];

/** One card as exported: the common fields the schema names, plus what the card shows when present. */
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
  return out as ExportMessage;
}

/** The export document, validated by the `discussionExport` schema (throws only if this code is wrong). */
export function buildExport(feed: Feed, meta: ExportMeta): DiscussionExport {
  const doc = {
    session_id: meta.sessionId ?? feed.session.sessionId ?? '',
    endpoint: meta.endpoint,
    context: meta.context,
    configuration: meta.configuration,
    messages: kvValues(feed.items).map(exportMessage),
    argument_tree: [...selectArguments(feed)],
    research_results: [...selectResearchResults(feed)],
    consensus: feed.consensus?.consensus ?? null,
    exported_at: meta.now.toISOString(),
  };
  return discussionExport.parse(doc);
}

/** `discussion_{session or timestamp}.json|pdf` (part 2 §9). */
export const exportFileName = (kind: 'json' | 'pdf', sessionId: string | null, now: Date): string =>
  `discussion_${sessionId || now.getTime()}.${kind}`;

/** `hybrid_discussion_{session}.pdf` (part 2 §9); the timestamp stands in when there is no session yet. */
export const hybridPdfFileName = (sessionId: string | null, now?: Date): string =>
  `hybrid_discussion_${sessionId || (now ? now.getTime() : 'session')}.pdf`;
