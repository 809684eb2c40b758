// The audio queue's bookkeeping (docs/product.md#discussions-states 'Audio queue'), as pure functions over its context;
// src/machines/audioQueue.machine.ts decides when each one runs.
//   - Order: higher `priority` first (default 0), then arrival. An audioId the queue already holds (queued,
//     current or among the last AUDIO_HISTORY_LIMIT finished) is ignored, so a replayed frame never plays twice.
//   - Only the item that was taken (the current one) is told 'audio.finished'; items cleared while still
//     queued never started and get no notice. 'blocked' is told as a finished notice (the agent goes idle
//     while the queue waits); after 'audio.unblock' the same item starts again and is told 'audio.started'.
import type { AnyActorRef } from 'xstate';
import {
  AUDIO_BUFFER_SIZE,
  AUDIO_LOAD_TIMEOUT_MS,
  AUDIO_PLAYBACK_RATE_MAX,
  AUDIO_PLAYBACK_RATE_MIN,
  AUDIO_VERIFY_TIMEOUT_MS,
} from '../../schemas/constants';
import type { PlayClipInput } from '../../model/audioClip';

export type AudioItemStatus =
  | 'queued'
  | 'loading'
  | 'playing'
  | 'completed'
  | 'error'
  | 'blocked'
  | 'skipped'
  | 'stopped';

export interface AudioQueueItemInput {
  audioId: string;
  messageId?: string | null;
  url: string;
  agentId: string;
  agentName?: string;
  text?: string;
  speed?: number;
  volume?: number;
  priority?: number;
  requiresAck?: boolean;
  synchronized?: boolean;
}

export interface AudioQueueItem extends AudioQueueItemInput {
  status: AudioItemStatus;
  error?: string;
}

export type AudioFinishStatus = 'completed' | 'error' | 'skipped' | 'stopped' | 'blocked';

/** Sent to an item's replyTo. */
export type AudioQueueNotice =
  | { type: 'audio.started'; item: AudioQueueItem }
  | { type: 'audio.finished'; item: AudioQueueItem; status: AudioFinishStatus };

export interface AudioQueueContext {
  /** Waiting items, in play order (priority, then arrival). */
  items: AudioQueueItem[];
  /** The item being checked, loaded, played or waiting for an unblock; null between items. */
  current: AudioQueueItem | null;
  /** Finished items, newest last, at most AUDIO_HISTORY_LIMIT. */
  history: AudioQueueItem[];
  /** Who to tell about an item (the enqueue's replyTo), by audioId, until the item is finished. */
  owners: Record<string, AnyActorRef>;
  speed: number;
  volume: number;
  /** Where the current clip is while it plays (seconds), so its message shows real progress; null between clips. */
  progress: { position: number; duration: number } | null;
}

export const AUDIO_QUEUE_MESSAGES = {
  notAccessible: (detail: string) => `Audio URL not accessible (${detail})`,
  verifyTimedOut: `Audio URL not accessible (no answer in ${AUDIO_VERIFY_TIMEOUT_MS / 1000} s)`,
  loadTimedOut: `Audio loading timed out (${AUDIO_LOAD_TIMEOUT_MS / 1000} s)`,
  blocked: 'Autoplay blocked by the browser: click Enable audio to play',
  playbackFailed: (reason?: string) => (reason ? `Audio playback failed: ${reason}` : 'Audio playback failed'),
} as const;

/** Finished items kept (for the view and to ignore a replayed audioId). */
export const AUDIO_HISTORY_LIMIT = 50;
/** How many queued clips ahead of the current one are preloaded (the player's cache holds AUDIO_BUFFER_SIZE). */
export const AUDIO_PRELOAD_AHEAD = Math.min(2, AUDIO_BUFFER_SIZE);

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const finite = (x: number | undefined, fallback: number) =>
  typeof x === 'number' && Number.isFinite(x) ? x : fallback;
export const clampPlaybackRate = (x: number | undefined) =>
  clamp(finite(x, 1), AUDIO_PLAYBACK_RATE_MIN, AUDIO_PLAYBACK_RATE_MAX);
export const clampVolume = (x: number | undefined) => clamp(finite(x, 1), 0, 1);

/** The settings an 'audio.settings' event carries, clamped; a value it leaves out stays undefined (unchanged). */
export const clampSettings = ({ speed, volume }: { speed?: number; volume?: number }) => ({
  speed: speed === undefined ? undefined : clampPlaybackRate(speed),
  volume: volume === undefined ? undefined : clampVolume(volume),
});

/** The current item's own speed and volume win over the queue's. */
export const clipInput = ({ current, speed, volume }: AudioQueueContext): PlayClipInput => ({
  url: current!.url,
  speed: clampPlaybackRate(current!.speed ?? speed),
  volume: clampVolume(current!.volume ?? volume),
});

/** Not queued, not current and not among the finished: a replayed frame is dropped here. */
export function isNewAudio({ items, current, history }: AudioQueueContext, audioId: string): boolean {
  const same = (i: AudioQueueItem) => i.audioId === audioId;
  return current?.audioId !== audioId && !items.some(same) && !history.some(same);
}

/** Inserts after every item of the same or higher priority: priority first, then arrival. */
function insertByPriority(items: AudioQueueItem[], item: AudioQueueItem): AudioQueueItem[] {
  const p = item.priority ?? 0;
  const at = items.findIndex((i) => (i.priority ?? 0) < p);
  return at === -1 ? [...items, item] : [...items.slice(0, at), item, ...items.slice(at)];
}

export function enqueue(
  q: AudioQueueContext,
  item: AudioQueueItemInput,
  replyTo?: AnyActorRef,
): Pick<AudioQueueContext, 'items' | 'owners'> {
  return {
    items: insertByPriority(q.items, { ...item, status: 'queued' }),
    owners: replyTo ? { ...q.owners, [item.audioId]: replyTo } : q.owners,
  };
}

export const withStatus = (
  item: AudioQueueItem | null,
  status: AudioItemStatus,
  error?: string,
): AudioQueueItem | null => (item ? { ...item, status, error } : null);

/** The first waiting item becomes current (loading); null when none waits. */
export function takeNext(q: AudioQueueContext): Pick<AudioQueueContext, 'current' | 'items'> {
  const [next, ...rest] = q.items;
  return { current: withStatus(next ?? null, 'loading'), items: rest };
}

/** The URLs to warm next, soonest first. */
export const preloadUrls = (q: AudioQueueContext) => q.items.slice(0, AUDIO_PRELOAD_AHEAD).map((i) => i.url);

/** Who to tell about the current item, with the notice; null when it has no owner. */
export function currentNotice(
  q: AudioQueueContext,
  finished?: AudioFinishStatus,
): { owner: AnyActorRef; notice: AudioQueueNotice } | null {
  const owner = q.current && q.owners[q.current.audioId];
  if (!owner) return null;
  const item = q.current!;
  return {
    owner,
    notice: finished ? { type: 'audio.finished', item, status: finished } : { type: 'audio.started', item },
  };
}

/** The current item ends with `status`: it moves to the history and its owner (told by the caller) is forgotten. */
export function finishCurrent(q: AudioQueueContext, status: Exclude<AudioFinishStatus, 'blocked'>, error?: string) {
  const current = q.current;
  if (!current) return null;
  const done: AudioQueueItem = { ...current, status, error };
  const { [current.audioId]: _gone, ...owners } = q.owners;
  return {
    tell: currentNotice({ ...q, current: done }, status),
    next: {
      current: null,
      owners,
      history: [...q.history, done].slice(-AUDIO_HISTORY_LIMIT),
    } satisfies Partial<AudioQueueContext>,
  };
}

/** Queued items are dropped without a notice: they never started. */
export function dropQueued(q: AudioQueueContext): Pick<AudioQueueContext, 'items' | 'owners'> {
  const owners = { ...q.owners };
  for (const i of q.items) delete owners[i.audioId];
  return { items: [], owners };
}
