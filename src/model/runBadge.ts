// The panels' run badge beside the title: what the discussion on screen is doing. A discussion that ran and ended
// reads 'Finished', never 'Idle' (issue 47); 'Idle' is only a panel with nothing run yet. Pure.

export type RunBadge = 'Live' | 'Starting' | 'Finished' | 'Idle';

export interface RunBadgeFacts {
  /** Messages are arriving (or the run is reconnecting to carry on). */
  live: boolean;
  /** A run is being prepared or connected but nothing is live yet. */
  starting: boolean;
  /** The feed on screen holds a discussion's messages. */
  hasMessages: boolean;
}

export const runBadge = (f: RunBadgeFacts): RunBadge =>
  f.live ? 'Live' : f.starting ? 'Starting' : f.hasMessages ? 'Finished' : 'Idle';
