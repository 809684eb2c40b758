// What History holds and hears, and how a stored discussion becomes one it can show: the opened view (replayed
// through the panels' parse path and feed model) and whether its panel can continue it. Pure; the chart is
// src/machines/history.machine.ts.
import type { Feed } from './feed';
import { replayStored, settingsOf, type PanelKind } from './storedReplay';
import type { EndpointKey } from '../schemas/constants';
import type { DiscussionSummary, StoredDiscussion } from '../schemas/history';
import type { ExportFormat, RunInfo } from './standardRun';
import { hybridSettingsOf } from './hybridConfig';
import type { HybridSettings } from '../schemas/settings';

export const HISTORY_TABS = ['discussion', 'tree', 'research', 'analytics'] as const;
export type HistoryTab = (typeof HISTORY_TABS)[number];

export interface OpenedDiscussion {
  summary: DiscussionSummary;
  panel: PanelKind;
  endpoint: EndpointKey | null;
  feed: Feed;
  /** What the export needs, as the stored configuration says it. */
  run: RunInfo;
  /** Stored frames that failed their schema (not shown). */
  malformed: number;
  /** How many frames were stored when it was opened (a re-attach asks the server for the rest). */
  frameCount: number;
  /** A hybrid run's settings, as its stored configuration says (null for the standard panel's runs). */
  hybridSettings: HybridSettings | null;
}

/** Typing in the filter waits this long after the last keystroke before asking the server. */
export const FILTER_DEBOUNCE_MS = 250;

/** What one page load asks for: after `cursor` (null: the first page), topics containing `q`. */
export interface HistoryPageRequest {
  cursor: string | null;
  q: string;
}

export interface HistoryContext {
  items: DiscussionSummary[];
  /** Where the next page starts; null when every discussion (matching the filter) is loaded. */
  nextCursor: string | null;
  /** The topic filter as typed. */
  filter: string;
  listError: string | null;
  /** Loading a further page failed: the loaded items stay, and the end of the list offers a retry. */
  moreError: string | null;
  /** The discussion the confirmation asks about. */
  pendingDelete: DiscussionSummary | null;
  deleteError: string | null;
  /** The id being opened, then the opened discussion. */
  openingId: string | null;
  opened: OpenedDiscussion | null;
  openError: string | null;
  /** A discussion still running for this user, offered for re-attach when the app starts. */
  runningOffer: DiscussionSummary | null;
  /** The sign-in token and clock the offer's re-attach was asked with. */
  offerRequest: { token: string | null; now: number } | null;
}

export type HistoryEvent =
  | { type: 'history.show' }
  | { type: 'history.hide' }
  | { type: 'history.refresh' }
  | { type: 'history.more' }
  | { type: 'history.filter'; text: string }
  | { type: 'history.error.dismiss' }
  | { type: 'history.delete.request'; id: string }
  | { type: 'history.delete.confirm' }
  | { type: 'history.delete.cancel' }
  | { type: 'history.open'; id: string }
  | { type: 'history.close' }
  | { type: 'history.tab.select'; tab: HistoryTab }
  | { type: 'history.export'; format: ExportFormat }
  | { type: 'history.reattach'; token: string | null; now: number }
  | { type: 'history.offer.accept'; token: string | null; now: number }
  | { type: 'history.offer.dismiss' };

export const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : String(error));

export function openedFrom(stored: StoredDiscussion): OpenedDiscussion {
  const { feed, panel, endpoint, malformed } = replayStored(stored);
  const { config, frames: _frames, human_messages: _human, ...summary } = stored;
  const agentIds = Array.isArray(config.agent_ids) ? config.agent_ids.filter((x): x is string => typeof x === 'string') : [];
  return {
    summary,
    panel,
    endpoint,
    feed,
    malformed,
    frameCount: stored.frames.length,
    hybridSettings: panel === 'hybrid' ? hybridSettingsOf(config) : null,
    run: { sessionId: stored.session_id, endpoint: endpoint ?? 'basic', agentIds, context: stored.topic, token: null, connections: [], settings: settingsOf(config) },
  };
}

/** A stored discussion the panel that ran it can continue: still running, with a known endpoint and two agents. */
export const isReattachable = (o: OpenedDiscussion) => o.summary.status === 'running' && o.endpoint !== null && o.run.agentIds.length >= 2;
