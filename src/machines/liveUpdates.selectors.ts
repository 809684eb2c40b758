// The footer's Ready/Idle and the debug view's connection log, derived from the liveUpdates snapshot.
import type { LiveUpdatesSnapshot } from './liveUpdates.machine';

/** The updates channel is what keeps the canvas current; it decides Ready. */
export const selectLiveStatus = (s: LiveUpdatesSnapshot) => s.context.channels.updates;
export const selectIsLiveReady = (s: LiveUpdatesSnapshot) => s.context.channels.updates === 'connected';
export const selectConnectionProblems = (s: LiveUpdatesSnapshot) => s.context.errors;
