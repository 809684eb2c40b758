// The hybrid panel's context and what Start makes of it. Pure: the chart (hybridDiscussion.machine.ts) wires these
// to its events.
import type { KnownAgent } from './exportJson';
import { sessionId as makeSessionId } from '../schemas/constants';
import type { HybridModeInfo } from '../schemas/hybridMeta';
import { defaults, type HybridSettings } from '../schemas/settings';
import { emptyFeed, type Feed } from './feed';
import { selectCounts } from './feedSelectors';
import type { ContinueFacts, Continuation } from './standardRun';

export interface HybridRun {
  sessionId: string;
  agentIds: string[];
  topic: string;
  token: string | null;
  /** The settings the run started with (locked while connected; the export reads the mode). */
  settings: HybridSettings;
  startedAt: number;
  /** Re-attached from History: the frames it already has (resume_from); undefined for a run started here. */
  resumeFrom?: number;
  /** 'Continue from here': the stored discussion and turn its agents hear first (sent as `continued_from`). */
  continuedFrom?: { discussionId: string; turn: number };
}

export interface HybridDiscussionContext {
  topic: string;
  settings: HybridSettings;
  modes: (HybridModeInfo & { id: string })[];
  run: HybridRun | null;
  feed: Feed;
  /** The dismissible red banner; null when nothing is wrong. */
  error: string | null;
  /** The socket reported an error or a time-out before its close; the close then keeps this message. */
  pendingProblem: string | null;
  /**
   * What the provided clock said last: read at Start and at a re-attach, then told every second by the run's ticker
   * (so the header's duration stops with the run).
   */
  clockNow: number | null;
  /** The signed-in user's token (the session's, read when the panel starts): every run's configuration carries it. */
  token: string | null;
  /** Start asked first (a selected agent's model server is not answering): who, and the Start to send. */
  startQuestion: { unreachable: readonly string[]; start: { type: string } } | null;
  /** History's 'Continue from here': the next Start continues this stored discussion from this turn. */
  continuation: Continuation | null;
}

export const initialHybridContext: HybridDiscussionContext = {
  topic: '',
  settings: defaults.hybrid,
  modes: [],
  run: null,
  feed: emptyFeed,
  error: null,
  pendingProblem: null,
  clockNow: null,
  token: null,
  startQuestion: null,
  continuation: null,
};

export interface HybridExportRequest {
  /** The PDF (docs/product.md#discussions-limits) or the same export as JSON; PDF when not said. */
  format?: 'pdf' | 'json';
  feed: Feed;
  run: HybridRun;
  /** The agents as the exporter loaded them, for the export's participants. */
  participants?: readonly KnownAgent[];
}

export interface HybridStartFacts {
  agentIds: string[];
}

/** Start: a new session (`session_` + the time) on the topic and settings as they are now; nothing of the last run stays. */
export function startedHybridRun(
  context: HybridDiscussionContext,
  start: HybridStartFacts,
): Partial<HybridDiscussionContext> {
  const now = context.clockNow ?? 0;
  const run: HybridRun = {
    sessionId: makeSessionId(now),
    agentIds: [...new Set(start.agentIds)],
    topic: context.topic.trim(),
    token: context.token,
    settings: context.settings,
    startedAt: now,
    ...(context.continuation
      ? { continuedFrom: { discussionId: context.continuation.discussionId, turn: context.continuation.turn } }
      : {}),
  };
  // The continuation is used up by this run: the next Start begins afresh.
  return { run, feed: emptyFeed, error: null, pendingProblem: null, continuation: null };
}

export interface HybridContinueFacts extends ContinueFacts {
  /** The settings the stored run used (its mode, format, rounds…); null keeps the panel's own. */
  settings: HybridSettings | null;
}

/**
 * 'Continue from here' for a discussion the hybrid panel ran: the topic and the stored run's settings (editable
 * before Start, `withSettings` false while a run is on: its settings are locked), and the link the next Start sends.
 */
export const continuedHybridDraft = (
  facts: HybridContinueFacts,
  withSettings: boolean,
): Partial<HybridDiscussionContext> => ({
  continuation: facts.continuation,
  topic: facts.topic,
  ...(withSettings && facts.settings ? { settings: facts.settings } : {}),
  error: null,
});

export interface HybridResumeFacts {
  sessionId: string;
  agentIds: string[];
  topic: string;
  settings: HybridSettings;
  /** What History replayed of it, and how many stored frames that was. */
  feed: Feed;
  resumeFrom: number;
}

/** A resume names a session and at least two agents. */
export const isHybridResumable = (resume: Pick<HybridResumeFacts, 'sessionId' | 'agentIds'>) =>
  resume.sessionId.length > 0 && new Set(resume.agentIds).size >= 2;

/**
 * Re-attach (History): the running discussion's own session, topic and settings (shown, locked while connected);
 * the feed History replayed stays, and the server is asked for the frames after it, so speech plays only for what
 * is new.
 */
export function resumedHybridRun(
  context: HybridDiscussionContext,
  resume: HybridResumeFacts,
): Partial<HybridDiscussionContext> {
  const run: HybridRun = {
    sessionId: resume.sessionId,
    agentIds: [...new Set(resume.agentIds)],
    topic: resume.topic,
    token: context.token,
    settings: resume.settings,
    startedAt: context.clockNow ?? 0,
    resumeFrom: resume.resumeFrom,
  };
  return { run, topic: resume.topic, settings: resume.settings, feed: resume.feed, error: null, pendingProblem: null };
}

/** What the export child gets: the run and its feed (PDF unless said), or null when there is nothing to export. */
export function hybridExportRequestOf(
  context: HybridDiscussionContext,
  format: 'pdf' | 'json' = 'pdf',
): HybridExportRequest | null {
  return context.run && selectCounts(context.feed).messages > 0
    ? { feed: context.feed, run: context.run, format }
    : null;
}
