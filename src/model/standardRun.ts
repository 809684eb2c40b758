// The standard panel's context and what Start and Resume (History) make of it. Pure: the chart
// (standardDiscussion.machine.ts) wires these to its events; the endpoint is chosen there, from its own probe child.
import { sessionId as makeSessionId, type EndpointKey } from '../schemas/constants';
import type { KnownAgent } from './exportJson';
import type { Participant } from '../schemas/discussion';
import { defaults, type PanelFormat, type StandardPanelSettings } from '../schemas/settings';
import { emptyFeed, type Feed } from './feed';
import { selectCounts } from './feedSelectors';
import type { ConfigRequest } from './standardConfig';

export const STANDARD_TABS = ['discussion', 'tree', 'research', 'analytics'] as const;
export type StandardTab = (typeof STANDARD_TABS)[number];
export type ExportFormat = 'json' | 'pdf';

/**
 * What a run needs from the moment Start is pressed: exactly what its configuration message is built from (again on
 * every reconnect, so the server resumes the same session). Kept after the run so it can be exported.
 */
export type RunInfo = ConfigRequest;

export interface StandardDiscussionContext {
  draftContext: string;
  settings: StandardPanelSettings;
  run: RunInfo | null;
  participants: Participant[];
  feed: Feed;
  /** The dismissible banner (docs/product.md#discussions-errors); null when nothing is wrong. */
  error: string | null;
  /** The current reconnect attempt (1..3) while reconnecting. */
  attempt: number;
  /** The socket reported an error before its close; the close then keeps this message. */
  pendingProblem: string | null;
  /** The signed-in user's token (the session's, read when the panel starts): every run's configuration carries it. */
  token: string | null;
  /** What the provided clock said when it was last read (at Start and at a re-attach); a run's session id is made from it. */
  clockNow: number;
  /** History's 'Continue from here': the next Start continues this stored discussion from this turn. */
  continuation: Continuation | null;
  /** Start asked first (a selected agent's model server is not answering): who, and the Start to send. */
  startQuestion: { unreachable: readonly string[]; start: { type: string } } | null;
}

/** A stored discussion and one of its turns, which the next Start continues from (with the source's topic to show). */
export interface Continuation {
  discussionId: string;
  turn: number;
  title: string;
}

export const initialStandardContext: StandardDiscussionContext = {
  draftContext: '',
  settings: defaults.standardPanel,
  run: null,
  participants: [],
  feed: emptyFeed,
  error: null,
  attempt: 0,
  pendingProblem: null,
  token: null,
  clockNow: 0,
  continuation: null,
  startQuestion: null,
};

export interface ExportRequest {
  format: ExportFormat;
  feed: Feed;
  run: RunInfo;
  /** The agents as the panel loaded them (or History stored them), for the export's participants. */
  participants?: readonly KnownAgent[];
}

/** Nothing of the run before carries over: no participants yet, an empty feed, no banner, no reconnect under way. */
const FRESH = {
  participants: [],
  feed: emptyFeed,
  error: null,
  attempt: 0,
  pendingProblem: null,
} satisfies Partial<StandardDiscussionContext>;

export interface StartFacts {
  agentIds: string[];
  connections: { source: string; target: string }[];
  endpoint: EndpointKey;
}

/** Start: a new session (`session_` + the time) with the draft context and the settings as they are now. */
export function startedRun(context: StandardDiscussionContext, start: StartFacts): Partial<StandardDiscussionContext> {
  const run: RunInfo = {
    sessionId: makeSessionId(context.clockNow),
    endpoint: start.endpoint,
    agentIds: [...new Set(start.agentIds)],
    context: context.draftContext.trim(),
    token: context.token,
    connections: start.connections,
    settings: context.settings,
    ...(context.continuation
      ? { continuedFrom: { discussionId: context.continuation.discussionId, turn: context.continuation.turn } }
      : {}),
  };
  // The continuation is used up by this run: the next Start begins afresh.
  return { run, continuation: null, ...FRESH };
}

export interface ContinueFacts {
  continuation: Continuation;
  /** The topic the new discussion starts with (editable before Start). */
  topic: string;
}

/** 'Continue from here': the draft takes the source's topic and the next Start carries the link. */
export const continuedDraft = (facts: ContinueFacts): Partial<StandardDiscussionContext> => ({
  continuation: facts.continuation,
  draftContext: facts.topic,
  error: null,
});

export interface ResumeFacts {
  sessionId: string;
  endpoint: EndpointKey;
  agentIds: string[];
  context: string;
  /** The format the stored run started with; the panel's own setting when not said. */
  format?: PanelFormat;
}

/**
 * Re-attaching to a running discussion (History → Resume): a run with that session id, endpoint, agents and context,
 * asking the server to replay from the start (resume_from 0). The feed starts empty and keys items by id, so nothing
 * shows twice, and a later reconnect re-sends the same configuration.
 */
export function resumedRun(
  context: StandardDiscussionContext,
  resume: ResumeFacts,
): Partial<StandardDiscussionContext> {
  const run: RunInfo = {
    sessionId: resume.sessionId,
    endpoint: resume.endpoint,
    agentIds: [...new Set(resume.agentIds)],
    context: resume.context,
    token: context.token,
    connections: [],
    settings: resume.format ? { ...context.settings, format: resume.format } : context.settings,
    resumeFrom: 0,
  };
  return { run, draftContext: resume.context, ...FRESH };
}

/** A resume names a session and at least two agents. */
export const isResumable = (resume: Pick<ResumeFacts, 'sessionId' | 'agentIds'>) =>
  resume.sessionId.length > 0 && new Set(resume.agentIds).size >= 2;

/** What the export child gets: the run and its feed, or null when there is nothing to export. */
export function exportRequestOf(context: StandardDiscussionContext, format: ExportFormat): ExportRequest | null {
  return context.run && selectCounts(context.feed).messages > 0
    ? { format, feed: context.feed, run: context.run, participants: context.participants }
    : null;
}
