// What History holds and hears, and how a stored discussion becomes one it can show: the opened view (replayed
// through the panels' parse path and feed model) and whether its panel can continue it. Pure; the chart is
// src/machines/history.machine.ts.
import type { ActorSystem, AnyActorRef, EventObject } from 'xstate';
import type { Feed } from '../../model/feed';
import { systemActor } from './systemRegistry';
import { replayStored, settingsOf, type PanelKind } from '../../model/storedReplay';
import type { EndpointKey } from '../../schemas/constants';
import type { FormatKind } from '../../schemas/format';
import type { DiscussionSummary, StoredDiscussion } from '../../schemas/history';
import type { ExportFormat, ResumeFacts, RunInfo } from '../../model/standardVariant';
import type { HybridContinueFacts, HybridResumeFacts } from '../../model/hybridVariant';
import { hybridSettingsOf } from '../../model/hybridConfig';
import { defaults, type HybridSettings } from '../../schemas/settings';

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
  /** The feed at each moment of its replay (storedReplay.ts): [0] before the first turn, [n] after turn n. */
  moments: Feed[];
}

/** Typing in the filter waits this long after the last keystroke before asking the server. */
export const FILTER_DEBOUNCE_MS = 250;

/** What one page load asks for: after `cursor` (null: the first page), topics containing `q`. */
export interface HistoryPageRequest {
  cursor: string | null;
  q: string;
  /** Only this format; '' for every format. */
  format: FormatKind | '';
}

export interface HistoryContext {
  items: DiscussionSummary[];
  /** Where the next page starts; null when every discussion (matching the filter) is loaded. */
  nextCursor: string | null;
  /** The topic filter as typed. */
  filter: string;
  /** The 'Format' filter; '' for every format. */
  formatFilter: FormatKind | '';
  listError: string | null;
  /** Loading a further page failed: the loaded items stay, and the end of the list offers a retry. */
  moreError: string | null;
  /** The discussion the confirmation asks about. */
  pendingDelete: DiscussionSummary | null;
  deleteError: string | null;
  /** The id being opened, then the opened discussion. */
  openingId: string | null;
  /** The discussion being opened is to be re-attached in its panel once loaded (a running row's Re-attach). */
  reattachOnOpen: boolean;
  opened: OpenedDiscussion | null;
  openError: string | null;
  /** An address named the replay of the discussion being opened: its replay opens at this turn. */
  openReplayAt: number | null;
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
  /** Open one read-only; with `reattach`, a running one continues in its panel instead. */
  | { type: 'history.open'; id: string; reattach?: boolean }
  | { type: 'history.close' }
  | { type: 'history.tab.select'; tab: HistoryTab }
  | { type: 'history.export'; format: ExportFormat }
  | { type: 'history.format.filter'; kind: FormatKind | '' }
  | { type: 'history.reattach' }
  /** Replay's 'Continue from here': the panel that ran it gets the agents and topic, to continue from this turn. */
  | { type: 'history.continue'; turn: number }
  | { type: 'history.offer.accept' }
  | { type: 'history.offer.dismiss' }
  /** The navigation actor: show the list with these filters (an address /history?format=…&q=…). */
  | { type: 'history.list'; format: FormatKind | ''; q: string }
  /**
   * The navigation actor: show this discussion (an address /discussions/{id}, or with `replay` its replay at
   * `turn`). Unlike `history.open` the id need not be on a loaded page; an id the server does not know for this
   * user is reported to the navigation actor as missing.
   */
  | { type: 'history.visit'; id: string; replay: boolean; turn: number | null };

export const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : String(error));

export function openedFrom(stored: StoredDiscussion): OpenedDiscussion {
  const { feed, panel, endpoint, malformed, moments } = replayStored(stored);
  const { config, frames: _frames, human_messages: _human, ...summary } = stored;
  const agentIds = Array.isArray(config.agent_ids)
    ? config.agent_ids.filter((x): x is string => typeof x === 'string')
    : [];
  return {
    summary,
    panel,
    endpoint,
    feed,
    malformed,
    moments,
    frameCount: stored.frames.length,
    hybridSettings: panel === 'hybrid' ? hybridSettingsOf(config) : null,
    run: {
      sessionId: stored.session_id,
      endpoint: endpoint ?? 'basic',
      agentIds,
      context: stored.topic,
      token: null,
      connections: [],
      settings: settingsOf(config),
    },
  };
}

/** A stored discussion the panel that ran it can continue: still running, with a known endpoint and two agents. */
export const isReattachable = (o: OpenedDiscussion) =>
  o.summary.status === 'running' && o.endpoint !== null && o.run.agentIds.length >= 2;

/** What continues an opened discussion: the event for the panel that ran it (History → Re-attach, or the offer). */
export type ResumeRequest =
  | { panel: 'standardDiscussion'; event: { type: 'panel.resume' } & ResumeFacts }
  | { panel: 'hybridDiscussion'; event: { type: 'panel.resume' } & HybridResumeFacts };

export function resumeRequest(o: OpenedDiscussion): ResumeRequest | null {
  if (!o.endpoint) return null;
  const { session_id: sessionId, topic } = o.summary;
  const agentIds = o.run.agentIds;
  if (o.panel === 'hybrid') {
    const settings = o.hybridSettings ?? defaults.hybrid;
    return {
      panel: 'hybridDiscussion',
      event: { type: 'panel.resume', sessionId, agentIds, topic, settings, feed: o.feed, resumeFrom: o.frameCount },
    };
  }
  return {
    panel: 'standardDiscussion',
    event: {
      type: 'panel.resume',
      sessionId,
      endpoint: o.endpoint,
      agentIds,
      context: topic,
      format: o.run.settings.format,
    },
  };
}

/** The part of `enqueueActions`' argument `sendResume` uses. */
interface Relay {
  // biome-ignore lint/suspicious/noExplicitAny: any chart's system: the panels are looked up by id
  system: ActorSystem<any>;
  enqueue: { sendTo: (to: AnyActorRef, event: EventObject) => void };
}

/** The body of a `reattach` action: the panel that ran it continues it, and the main screen shows that panel. */
export function sendResume({ system, enqueue }: Relay, opened: OpenedDiscussion): void {
  const request = resumeRequest(opened);
  // Each registry id gets its own panel's event (one branch per panel, so both stay typed).
  const panel =
    request?.panel === 'hybridDiscussion'
      ? systemActor(system, 'hybridDiscussion')
      : request
        ? systemActor(system, 'standardDiscussion')
        : undefined;
  if (!request || !panel) return;
  enqueue.sendTo(panel, request.event);
  const app = systemActor(system, 'app');
  const show = { type: 'view.discussion.show', panel: opened.panel } as const;
  if (app) enqueue.sendTo(app, show);
}

/**
 * The body of a `continue` action: the canvas selects the opened discussion's agents (those that still exist), the
 * panel that ran it (the hybrid panel for a hybrid run, with that run's settings) takes its topic and the link to
 * `turn`, and the main screen shows that panel. Start stays the user's: agents and topic can be changed first.
 */
export function sendContinue({ system, enqueue }: Relay, opened: OpenedDiscussion, turn: number): void {
  const hybrid = opened.panel === 'hybrid';
  const facts = {
    topic: opened.summary.topic,
    continuation: { discussionId: opened.summary.id, turn, title: opened.summary.topic },
  };
  // Each registry id gets its own panel's event (one branch per panel, so both stay typed).
  const hybridPanel = hybrid ? systemActor(system, 'hybridDiscussion') : undefined;
  const standardPanel = hybrid ? undefined : systemActor(system, 'standardDiscussion');
  if (!hybridPanel && !standardPanel) return;
  const workspace = systemActor(system, 'workspace');
  const select = { type: 'selection.set', ids: opened.run.agentIds } as const;
  if (workspace) enqueue.sendTo(workspace, select);
  const toHybrid = { type: 'panel.continue', ...facts, settings: opened.hybridSettings } as const;
  if (hybridPanel) enqueue.sendTo(hybridPanel, toHybrid satisfies { type: string } & HybridContinueFacts);
  const toStandard = { type: 'panel.continue', ...facts } as const;
  if (standardPanel) enqueue.sendTo(standardPanel, toStandard);
  const app = systemActor(system, 'app');
  const show = { type: 'view.discussion.show', panel: hybrid ? 'hybrid' : 'standard' } as const;
  if (app) enqueue.sendTo(app, show);
}
