// One run model for both discussion panels (the chart: machines/discussionPanel.machine.ts). The context every panel
// keeps, and what Start, 'Continue from here' and the export make of it; what a run is made of differs by panel, so
// the variant (standardVariant.ts, hybridVariant.ts) builds the run itself. Pure.
import type { KnownAgent } from './exportJson';
import type { EndpointKey } from '../schemas/constants';
import type { Participant } from '../schemas/discussion';
import type { HybridModeInfo } from '../schemas/hybridMeta';
import { emptyFeed, type Feed } from './feed';
import { selectCounts } from './feedSelectors';
import type { RoomJoin, RoomState } from './room';

export type ExportFormat = 'json' | 'pdf';

/** What every panel's run carries; the variant adds what its configuration message needs. */
export interface PanelRunBase<S> {
  sessionId: string;
  agentIds: string[];
  token: string | null;
  /** The settings the run started with (a re-attached run's own). */
  settings: S;
  /** Re-attached from History: the frames it already has (resume_from); undefined for a run started here. */
  resumeFrom?: number;
  /** 'Continue from here': the stored discussion and turn its agents hear first (sent as `continued_from`). */
  continuedFrom?: { discussionId: string; turn: number };
  /** Joined by an invite: the socket attaches to someone else's running discussion (src/model/room.ts). */
  room?: RoomJoin;
}

/** A stored discussion and one of its turns, which the next Start continues from (with the source's topic to show). */
export interface Continuation {
  discussionId: string;
  turn: number;
  title: string;
}

export interface ContinueFacts {
  continuation: Continuation;
  /** The topic the new discussion starts with (editable before Start). */
  topic: string;
}

export interface PanelContext<S, R extends PanelRunBase<S>> {
  /** The topic box (the standard panel's 'context'). */
  topic: string;
  settings: S;
  run: R | null;
  /** The agents as the panel loaded them at Start (the standard panel), for the export. */
  participants: Participant[];
  /** The hybrid modes' descriptions and best_for, for the mode picker (optional). */
  modes: (HybridModeInfo & { id: string })[];
  feed: Feed;
  /** The dismissible banner (docs/product.md#discussions-errors); null when nothing is wrong. */
  error: string | null;
  /** The current reconnect attempt (1..3) while reconnecting. */
  attempt: number;
  /** The socket reported an error or a time-out before its close; the close then keeps this message. */
  pendingProblem: string | null;
  /** The signed-in user's token (the session's, read when the panel starts): every run's configuration carries it. */
  token: string | null;
  /** What the provided clock said when it was last read (Start, a re-attach, a message, the run's ticker). */
  clockNow: number | null;
  /** History's 'Continue from here': the next Start continues this stored discussion from this turn. */
  continuation: Continuation | null;
  /** Start asked first (a selected agent's model server is not answering): who, and the Start to send. */
  startQuestion: { unreachable: readonly string[]; start: { type: string } } | null;
  /** Who is here now and what the reader is, once the server said (room_people); null in a room of one. */
  room: RoomState | null;
}

/** A panel's context before anything happened, with its own settings. */
export const initialPanelContext = <S, R extends PanelRunBase<S>>(
  settings: S,
  clockNow: number | null,
): PanelContext<S, R> => ({
  topic: '',
  settings,
  run: null,
  participants: [],
  modes: [],
  feed: emptyFeed,
  error: null,
  attempt: 0,
  pendingProblem: null,
  token: null,
  clockNow,
  continuation: null,
  startQuestion: null,
  room: null,
});

/** Nothing of the run before carries over: no participants yet, an empty feed, no banner, no reconnect under way. */
export const FRESH = {
  participants: [],
  feed: emptyFeed,
  error: null,
  attempt: 0,
  pendingProblem: null,
  room: null,
} satisfies Partial<PanelContext<unknown, PanelRunBase<unknown>>>;

/** What a Start carries: the agents, and (standard) the canvas's links and the endpoint the chart chose. */
export interface StartFacts {
  agentIds: string[];
  connections?: { source: string; target: string }[];
  endpoint: EndpointKey;
}

/** The parts of a new run every panel fills alike: a new session (`session_` + the time), the continuation's link. */
export const runBase = <S>(context: PanelContext<S, PanelRunBase<S>>, agentIds: string[], sessionId: string) => ({
  sessionId,
  agentIds: [...new Set(agentIds)],
  token: context.token,
  settings: context.settings,
  ...(context.continuation
    ? { continuedFrom: { discussionId: context.continuation.discussionId, turn: context.continuation.turn } }
    : {}),
});

/** Start: the run the variant built; the continuation is used up by it, and the next Start begins afresh. */
export const startedRun = <R>(run: R) => ({
  run,
  continuation: null,
  ...FRESH,
});

/** 'Continue from here': the topic box takes the source's topic and the next Start carries the link. */
export const continuedDraft = (facts: ContinueFacts) => ({
  continuation: facts.continuation,
  topic: facts.topic,
  error: null,
});

/** A resume names a session and at least two agents. */
export const isResumable = (resume: { sessionId: string; agentIds: string[] }) =>
  resume.sessionId.length > 0 && new Set(resume.agentIds).size >= 2;

export interface ExportRequest<R> {
  /** PDF when not said. */
  format: ExportFormat;
  feed: Feed;
  run: R;
  /** The agents as the panel loaded them (or History stored them), for the export's participants. */
  participants?: readonly KnownAgent[];
}

/** What the export child gets: the run and its feed, or null when there is nothing to export. */
export function exportRequestOf<S, R extends PanelRunBase<S>>(
  context: PanelContext<S, R>,
  format: ExportFormat = 'pdf',
): ExportRequest<R> | null {
  return context.run && selectCounts(context.feed).messages > 0
    ? { format, feed: context.feed, run: context.run, participants: context.participants }
    : null;
}
