// Derived views of the audio queue for the panels and the canvas: flags come from the chart's states and
// tags, never from copies in context.
import type { AudioQueueItem, AudioQueueSnapshot } from './audioQueue.machine';

export const selectCurrentItem = (s: AudioQueueSnapshot) => s.context.current;
/** The items still to play, in play order. */
export const selectQueuedItems = (s: AudioQueueSnapshot) => s.context.items;
/** The current item (if any) followed by the waiting ones: what a queue list shows. */
export const selectQueueList = (s: AudioQueueSnapshot): AudioQueueItem[] =>
  s.context.current ? [s.context.current, ...s.context.items] : s.context.items;
/** Finished items, newest last. */
export const selectHistory = (s: AudioQueueSnapshot) => s.context.history;
export const selectQueueLength = (s: AudioQueueSnapshot) => s.context.items.length + (s.context.current ? 1 : 0);

export const selectIsEnabled = (s: AudioQueueSnapshot) => !s.matches('off');
export const selectIsPlaying = (s: AudioQueueSnapshot) => s.hasTag('playing');
/** Autoplay was refused: the view shows 'Enable audio', whose click sends 'audio.unblock'. */
export const selectIsBlocked = (s: AudioQueueSnapshot) => s.hasTag('blocked');
export const selectIsPaused = (s: AudioQueueSnapshot) => s.matches({ on: { playback: 'paused' } });
export const selectIsInterrupted = (s: AudioQueueSnapshot) => s.matches({ on: { flow: 'interrupted' } });
/** An item is being checked, loaded, played or waited for, or the gap after one is running. */
export const selectIsProcessing = (s: AudioQueueSnapshot) => s.hasTag('processing');
/** The agent whose clip is sounding now (the canvas's speaker), or null. */
export const selectSpeakingAgentId = (s: AudioQueueSnapshot) =>
  s.hasTag('playing') ? (s.context.current?.agentId ?? null) : null;
/** The clip sounding now, with where it is: its message shows this progress (null when nothing plays). */
export const selectClipProgress = (
  s: AudioQueueSnapshot,
): { url: string; position: number; duration: number; playing: boolean } | null =>
  s.context.current && s.context.progress
    ? {
        url: s.context.current.url,
        ...s.context.progress,
        playing: s.hasTag('playing') && !s.matches({ on: { playback: 'paused' } }),
      }
    : null;
export const selectSettings = (s: AudioQueueSnapshot) => ({ speed: s.context.speed, volume: s.context.volume });

export interface AudioQueueFlags {
  enabled: boolean;
  paused: boolean;
  interrupted: boolean;
  processing: boolean;
  playing: boolean;
  blocked: boolean;
}

export const selectFlags = (s: AudioQueueSnapshot): AudioQueueFlags => ({
  enabled: selectIsEnabled(s),
  paused: selectIsPaused(s),
  interrupted: selectIsInterrupted(s),
  processing: selectIsProcessing(s),
  playing: selectIsPlaying(s),
  blocked: selectIsBlocked(s),
});

/** For useSelector on selectFlags: re-render only when a flag changes. */
export const sameFlags = (a: AudioQueueFlags, b: AudioQueueFlags) =>
  a.enabled === b.enabled &&
  a.paused === b.paused &&
  a.interrupted === b.interrupted &&
  a.processing === b.processing &&
  a.playing === b.playing &&
  a.blocked === b.blocked;
