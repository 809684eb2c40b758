// How a finished run is named to the reader. The server ends every run it finishes itself with discussion_ended
// and a reason ('completed', 'consensus'); a Stop ends it with 'stopped' (or the socket closes first, and no
// end frame arrives at all). Pure.
import type { Feed } from './feed';

export type RunOutcome = 'completed' | 'stopped' | 'failed';

const STOPPED_REASONS = new Set(['stopped', 'client_closed', 'abandoned']);
const FAILED_REASONS = new Set(['failed', 'error']);

export function runOutcome(feed: Feed, connectionError: boolean): RunOutcome {
  const reason = feed.session.ended?.reason ?? null;
  if (connectionError || (reason && FAILED_REASONS.has(reason))) return 'failed';
  if (reason === null || STOPPED_REASONS.has(reason)) return 'stopped';
  return 'completed';
}

export const OUTCOME_WORDS: Record<RunOutcome, string> = {
  completed: 'Discussion finished.',
  stopped: 'Discussion stopped.',
  failed: 'The discussion stopped with an error.',
};

/** What History calls a stored discussion: 'Completed' and 'Stopped' are told apart by its end reason. */
export function historyStatusLabel(d: {
  status: 'running' | 'ended' | 'abandoned';
  end_reason?: string | null;
}): string {
  if (d.status === 'running') return 'Running';
  if (d.status === 'abandoned') return 'Cut off';
  const reason = d.end_reason ?? null;
  if (reason && FAILED_REASONS.has(reason)) return 'Failed';
  if (reason === null || STOPPED_REASONS.has(reason)) return 'Stopped';
  return 'Completed';
}

/** The hybrid panel's status line for a run the server ended: its reason in words, never the wire's token. */
export function endedStatusLine(reason: string | null): string {
  if (reason === 'consensus') return 'Discussion ended: the agents reached consensus';
  if (reason === 'budget') return 'Discussion ended: its token budget was reached';
  if (reason && FAILED_REASONS.has(reason)) return 'Discussion ended with an error';
  if (reason && STOPPED_REASONS.has(reason)) return 'Discussion stopped';
  return 'Discussion ended';
}
