// The audio queue (part 2 §4 'Audio queue', §8 'Toasts and audio', §9): one queue for both discussion panels.
// Each item goes queued → loading (a HEAD check of its URL, then the clip loads) → playing → completed, or
// ends error | blocked | skipped | stopped. The next item starts 200 ms after an end, 1 s after an error and
// 50 ms after a skip. The browser pieces are provided actors (src/services/audioPlayer.ts):
//   - checkAudio   HEAD the URL: { ok: true } or { ok: false, reason }; the 10 s verify time-out is ours;
//   - playClip     one HTMLAudioElement for one clip; tells us clip.loaded / clip.playing / clip.ended /
//                  clip.failed / clip.blocked, and takes clip.pause / clip.resume / clip.settings; stopping it
//                  stops the sound;
//   - preloadClips warms the next clips (audio.preload with their URLs) so playClip starts from a loaded element.
//
// Decisions the spec leaves open:
//   - The queue starts enabled; 'audio.disable' stops and clears it and, while disabled, enqueues are DROPPED
//     (no notice: the owner never set the agent speaking). 'audio.enable' turns it back on.
//   - 'audio.interrupt' stops the current clip (status stopped) and clears what was queued; later enqueues are
//     kept but held until 'audio.enable' clears the interruption. 'audio.clear' (Stop) clears everything:
//     current, queue, pause and interruption.
//   - Order: higher `priority` first (default 0), then arrival. An audioId the queue already holds (queued,
//     current or among the last AUDIO_HISTORY_LIMIT finished) is ignored, so a replayed frame never plays twice.
//   - Only the item that was taken (the current one) is told 'audio.finished'; items cleared while still
//     queued never started and get no notice. 'blocked' is told as a finished notice (the agent goes idle
//     while the queue waits); after 'audio.unblock' the same item starts again and is told 'audio.started'.
//   - The load time-out (15 s) runs from the player's start to 'clip.loaded'. Pausing holds the queue between
//     items (a checked clip waits in 'ready' without an element) and pauses the element during a clip.
import { and, assign, enqueueActions, fromCallback, fromPromise, not, sendTo, setup, stateIn, type ActorRefFrom, type AnyActorRef, type SnapshotFrom } from 'xstate';
import {
  AUDIO_BUFFER_SIZE,
  AUDIO_LOAD_TIMEOUT_MS,
  AUDIO_NEXT_AFTER_END_MS,
  AUDIO_NEXT_AFTER_ERROR_MS,
  AUDIO_NEXT_AFTER_SKIP_MS,
  AUDIO_PLAYBACK_RATE_MAX,
  AUDIO_PLAYBACK_RATE_MIN,
  AUDIO_VERIFY_TIMEOUT_MS,
} from '../schemas/constants';
import { notProvided } from '../model/actorKit';

export type AudioItemStatus = 'queued' | 'loading' | 'playing' | 'completed' | 'error' | 'blocked' | 'skipped' | 'stopped';

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

export type AudioQueueEvent =
  | { type: 'audio.enqueue'; item: AudioQueueItemInput; replyTo?: AnyActorRef }
  | { type: 'audio.enable' }
  | { type: 'audio.disable' }
  | { type: 'audio.interrupt' }
  | { type: 'audio.skip' }
  | { type: 'audio.pause' }
  | { type: 'audio.resume' }
  | { type: 'audio.unblock' }
  | { type: 'audio.clear' }
  | { type: 'audio.settings'; speed?: number; volume?: number };

/** Sent to an item's replyTo. */
export type AudioQueueNotice =
  | { type: 'audio.started'; item: AudioQueueItem }
  | { type: 'audio.finished'; item: AudioQueueItem; status: AudioFinishStatus };

/** What the playClip actor tells the queue. */
export type ClipEvent =
  | { type: 'clip.loaded' }
  | { type: 'clip.playing' }
  | { type: 'clip.ended' }
  | { type: 'clip.failed'; reason?: string }
  | { type: 'clip.blocked' };

/** What the queue tells the playClip actor. 'clip.resume' also retries a blocked play(). */
export type ClipCommand =
  | { type: 'clip.stop' }
  | { type: 'clip.pause' }
  | { type: 'clip.resume' }
  | { type: 'clip.settings'; speed?: number; volume?: number };

/** What the queue tells the preloadClips actor: the URLs that will play next, soonest first. */
export type PreloadCommand = { type: 'audio.preload'; urls: string[] };

export interface CheckAudioInput {
  url: string;
}
export type CheckAudioResult = { ok: true } | { ok: false; reason: string };

export interface PlayClipInput {
  url: string;
  /** Playback rate, already clamped to 0.5–2. */
  speed: number;
  /** Volume, already clamped to 0–1. */
  volume: number;
}

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
const finite = (x: number | undefined, fallback: number) => (typeof x === 'number' && Number.isFinite(x) ? x : fallback);
export const clampPlaybackRate = (x: number | undefined) => clamp(finite(x, 1), AUDIO_PLAYBACK_RATE_MIN, AUDIO_PLAYBACK_RATE_MAX);
export const clampVolume = (x: number | undefined) => clamp(finite(x, 1), 0, 1);

/** Inserts after every item of the same or higher priority: priority first, then arrival. */
function insertByPriority(items: AudioQueueItem[], item: AudioQueueItem): AudioQueueItem[] {
  const p = item.priority ?? 0;
  const at = items.findIndex((i) => (i.priority ?? 0) < p);
  return at === -1 ? [...items, item] : [...items.slice(0, at), item, ...items.slice(at)];
}

const preloadUrls = (context: AudioQueueContext) => context.items.slice(0, AUDIO_PRELOAD_AHEAD).map((i) => i.url);

const PAUSED = '#audioQueue.on.playback.paused';

type FinishParams = { status: Exclude<AudioFinishStatus, 'blocked'>; error?: string };

export const audioQueueMachine = setup({
  types: {
    context: {} as AudioQueueContext,
    events: {} as AudioQueueEvent | ClipEvent,
  },
  actors: {
    checkAudio: fromPromise<CheckAudioResult, CheckAudioInput>(notProvided('audioQueue', 'checkAudio')),
    playClip: fromCallback<ClipCommand, PlayClipInput>(notProvided('audioQueue', 'playClip')),
    // Preloading is an optimisation: with none provided, clips load when they play.
    preloadClips: fromCallback<PreloadCommand>(() => undefined),
  },
  delays: {
    verifyTimeout: AUDIO_VERIFY_TIMEOUT_MS,
    loadTimeout: AUDIO_LOAD_TIMEOUT_MS,
    nextAfterEnd: AUDIO_NEXT_AFTER_END_MS,
    nextAfterError: AUDIO_NEXT_AFTER_ERROR_MS,
    nextAfterSkip: AUDIO_NEXT_AFTER_SKIP_MS,
  },
  guards: {
    isNewItem: ({ context, event }) => {
      if (event.type !== 'audio.enqueue') return false;
      const id = event.item.audioId;
      const same = (i: AudioQueueItem) => i.audioId === id;
      return context.current?.audioId !== id && !context.items.some(same) && !context.history.some(same);
    },
    isPaused: stateIn(PAUSED),
    canStartNext: and([({ context }) => context.items.length > 0, not('isPaused')]),
    isAccessible: (_, params: { result: CheckAudioResult }) => params.result.ok,
  },
  actions: {
    addItem: assign(({ context, event }) => {
      if (event.type !== 'audio.enqueue') return {};
      const { item, replyTo } = event;
      return {
        items: insertByPriority(context.items, { ...item, status: 'queued' }),
        owners: replyTo ? { ...context.owners, [item.audioId]: replyTo } : context.owners,
      };
    }),
    takeNext: assign(({ context }) => {
      const [next, ...rest] = context.items;
      return { current: next ? { ...next, status: 'loading' as const, error: undefined } : null, items: rest };
    }),
    preloadNext: sendTo('preloader', ({ context }) => ({ type: 'audio.preload', urls: preloadUrls(context) }) satisfies PreloadCommand),
    markLoading: assign({ current: ({ context }) => (context.current ? { ...context.current, status: 'loading' as const, error: undefined } : null) }),
    markPlaying: assign({ current: ({ context }) => (context.current ? { ...context.current, status: 'playing' as const, error: undefined } : null) }),
    markBlocked: assign({
      current: ({ context }) => (context.current ? { ...context.current, status: 'blocked' as const, error: AUDIO_QUEUE_MESSAGES.blocked } : null),
    }),
    notifyStarted: enqueueActions(({ context, enqueue }) => {
      const owner = context.current && context.owners[context.current.audioId];
      if (owner) enqueue.sendTo(owner, { type: 'audio.started', item: context.current! } satisfies AudioQueueNotice);
    }),
    notifyBlocked: enqueueActions(({ context, enqueue }) => {
      const owner = context.current && context.owners[context.current.audioId];
      if (owner) enqueue.sendTo(owner, { type: 'audio.finished', item: context.current!, status: 'blocked' } satisfies AudioQueueNotice);
    }),
    /** The current item ends with `status`: its owner is told, it moves to the history, and nothing is current. */
    finishCurrent: enqueueActions(({ context, enqueue }, params: FinishParams) => {
      const current = context.current;
      if (!current) return;
      const done: AudioQueueItem = { ...current, status: params.status, error: params.error };
      const owner = context.owners[current.audioId];
      if (owner) enqueue.sendTo(owner, { type: 'audio.finished', item: done, status: params.status } satisfies AudioQueueNotice);
      const { [current.audioId]: _gone, ...owners } = context.owners;
      enqueue.assign({ current: null, owners, history: [...context.history, done].slice(-AUDIO_HISTORY_LIMIT) });
    }),
    /** Queued items are dropped without a notice: they never started. */
    dropQueue: assign(({ context }) => {
      const owners = { ...context.owners };
      for (const i of context.items) delete owners[i.audioId];
      return { items: [], owners };
    }),
    applySettings: assign(({ context, event }) =>
      event.type === 'audio.settings'
        ? { speed: event.speed === undefined ? context.speed : clampPlaybackRate(event.speed), volume: event.volume === undefined ? context.volume : clampVolume(event.volume) }
        : {},
    ),
    forwardSettings: sendTo('player', ({ event }) =>
      event.type === 'audio.settings'
        ? ({ type: 'clip.settings', speed: event.speed === undefined ? undefined : clampPlaybackRate(event.speed), volume: event.volume === undefined ? undefined : clampVolume(event.volume) } satisfies ClipCommand)
        : ({ type: 'clip.settings' } satisfies ClipCommand),
    ),
    pausePlayer: sendTo('player', { type: 'clip.pause' } satisfies ClipCommand),
    resumePlayer: sendTo('player', { type: 'clip.resume' } satisfies ClipCommand),
  },
}).createMachine({
  id: 'audioQueue',
  // No input, so it spawns as `spawnChild('audioQueue', { systemId: 'audioQueue' })`; speed and volume
  // arrive with 'audio.settings'.
  context: { items: [], current: null, history: [], owners: {}, speed: 1, volume: 1 },
  on: {
    'audio.settings': { actions: 'applySettings' },
  },
  initial: 'on',
  states: {
    // Speech off: nothing plays and enqueues are dropped.
    off: {
      on: { 'audio.enable': 'on' },
    },
    on: {
      type: 'parallel',
      invoke: { id: 'preloader', src: 'preloadClips' },
      on: {
        'audio.enqueue': { guard: 'isNewItem', actions: ['addItem', 'preloadNext'] },
        'audio.disable': { target: 'off', actions: [{ type: 'finishCurrent', params: { status: 'stopped' } }, 'dropQueue'] },
      },
      states: {
        playback: {
          initial: 'running',
          states: {
            running: {
              on: { 'audio.pause': 'paused' },
            },
            paused: {
              on: {
                'audio.resume': 'running',
                // The user's click on 'Enable audio' means they want to hear it.
                'audio.unblock': 'running',
              },
            },
          },
          on: { 'audio.clear': '.running' },
        },
        flow: {
          initial: 'idle',
          on: {
            'audio.clear': { target: '.idle', actions: [{ type: 'finishCurrent', params: { status: 'stopped' } }, 'dropQueue'] },
            'audio.interrupt': { target: '.interrupted', actions: [{ type: 'finishCurrent', params: { status: 'stopped' } }, 'dropQueue'] },
          },
          states: {
            idle: {
              always: { guard: 'canStartNext', target: 'item' },
            },
            // 'Interrupt Audio' was pressed: new items wait here until speech is enabled again.
            interrupted: {
              on: { 'audio.enable': 'idle' },
            },
            item: {
              tags: ['processing'],
              entry: ['takeNext', 'preloadNext'],
              initial: 'checking',
              on: {
                'audio.skip': { target: 'afterSkip', actions: { type: 'finishCurrent', params: { status: 'skipped' } } },
              },
              states: {
                checking: {
                  invoke: {
                    id: 'checkAudio',
                    src: 'checkAudio',
                    input: ({ context }) => ({ url: context.current!.url }),
                    onDone: [
                      { guard: { type: 'isAccessible', params: ({ event }) => ({ result: event.output }) }, target: 'ready' },
                      {
                        target: '#audioQueue.on.flow.afterError',
                        actions: {
                          type: 'finishCurrent',
                          params: ({ event }) => ({ status: 'error', error: event.output.ok ? undefined : event.output.reason }),
                        },
                      },
                    ],
                    onError: {
                      target: '#audioQueue.on.flow.afterError',
                      actions: {
                        type: 'finishCurrent',
                        params: ({ event }) => ({ status: 'error', error: AUDIO_QUEUE_MESSAGES.notAccessible(String((event.error as Error)?.message ?? event.error)) }),
                      },
                    },
                  },
                  after: {
                    verifyTimeout: {
                      target: '#audioQueue.on.flow.afterError',
                      actions: { type: 'finishCurrent', params: { status: 'error', error: AUDIO_QUEUE_MESSAGES.verifyTimedOut } },
                    },
                  },
                },
                // Checked; a paused queue holds the clip here, so no element starts while paused.
                ready: {
                  always: { guard: not('isPaused'), target: 'clip' },
                },
                // One element for the clip from load to end (and while blocked, so a retry reuses it).
                clip: {
                  invoke: {
                    id: 'player',
                    src: 'playClip',
                    input: ({ context }) => ({
                      url: context.current!.url,
                      speed: clampPlaybackRate(context.current!.speed ?? context.speed),
                      volume: clampVolume(context.current!.volume ?? context.volume),
                    }),
                  },
                  on: {
                    'clip.failed': {
                      target: '#audioQueue.on.flow.afterError',
                      actions: { type: 'finishCurrent', params: ({ event }) => ({ status: 'error', error: AUDIO_QUEUE_MESSAGES.playbackFailed(event.reason) }) },
                    },
                    'clip.blocked': { target: '.blocked' },
                    // The element is told here. A pause is also taken by the playback region (each region picks its own
                    // transition); the root's settings handler is shadowed here, so this one applies them too.
                    'audio.pause': { actions: 'pausePlayer' },
                    'audio.resume': { actions: 'resumePlayer' },
                    'audio.settings': { actions: ['applySettings', 'forwardSettings'] },
                  },
                  initial: 'loading',
                  states: {
                    loading: {
                      on: {
                        'clip.loaded': 'starting',
                        'clip.playing': { target: 'playing', actions: ['markPlaying', 'notifyStarted'] },
                      },
                      after: {
                        loadTimeout: {
                          target: '#audioQueue.on.flow.afterError',
                          actions: { type: 'finishCurrent', params: { status: 'error', error: AUDIO_QUEUE_MESSAGES.loadTimedOut } },
                        },
                      },
                    },
                    starting: {
                      on: { 'clip.playing': { target: 'playing', actions: ['markPlaying', 'notifyStarted'] } },
                    },
                    playing: {
                      tags: ['playing'],
                      on: {
                        'clip.ended': { target: '#audioQueue.on.flow.afterEnd', actions: { type: 'finishCurrent', params: { status: 'completed' } } },
                      },
                    },
                    // Autoplay refused: the queue waits for the user's gesture ('audio.unblock'), then plays again.
                    blocked: {
                      tags: ['blocked'],
                      entry: ['markBlocked', 'notifyBlocked'],
                      on: {
                        'audio.unblock': { target: 'starting', actions: ['markLoading', 'resumePlayer'] },
                        'clip.playing': { target: 'playing', actions: ['markPlaying', 'notifyStarted'] },
                        'clip.blocked': {},
                      },
                    },
                  },
                },
              },
            },
            afterEnd: { tags: ['processing'], after: { nextAfterEnd: 'idle' } },
            afterError: { tags: ['processing'], after: { nextAfterError: 'idle' } },
            afterSkip: { tags: ['processing'], after: { nextAfterSkip: 'idle' } },
          },
        },
      },
    },
  },
});

export type AudioQueueActorRef = ActorRefFrom<typeof audioQueueMachine>;
export type AudioQueueSnapshot = SnapshotFrom<typeof audioQueueMachine>;
