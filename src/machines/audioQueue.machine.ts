// The audio queue (docs/product.md#discussions-states 'Audio queue', #discussions-errors 'Toasts and audio',
// #discussions-limits): one queue for both discussion panels. Each item goes queued → loading (a HEAD check of its URL,
// then the clip loads) → playing → completed, or ends error | blocked | skipped | stopped. The next item starts 200 ms
// after an end, 1 s after an error and 50 ms after a skip. The browser pieces are provided actors
// (src/services/audioPlayer.ts):
//   - checkAudio   HEAD the URL: { ok: true } or { ok: false, reason }; the 10 s verify time-out is ours;
//   - playClip     one HTMLAudioElement for one clip; tells us clip.loaded / clip.playing / clip.ended /
//                  clip.failed / clip.blocked, and takes clip.pause / clip.resume / clip.settings; stopping it
//                  stops the sound;
//   - preloadClips warms the next clips (audio.preload with their URLs) so playClip starts from a loaded element.
// Off, interrupt, clear, pause and the load time-out: docs/product.md#audio-queue-decisions. Order, duplicates and
// who is told what: src/machines/kit/audioQueue.ts.
import { assign, not, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import * as queue from './kit/audioQueue';
import { AUDIO_QUEUE_MESSAGES } from './kit/audioQueue';
import { audioQueueSetup } from './audioQueue.setup';

// The queue's side of its protocol, for the panels that enqueue and hear notices.
export type { AudioQueueItem, AudioQueueItemInput, AudioQueueNotice } from './kit/audioQueue';
export type { AudioQueueEvent } from './audioQueue.setup';

/** A time-out ends the item with an error, and the next one starts after the error pause. */
const failWith = (error: string) =>
  ({
    target: '#audioQueue.on.flow.afterError',
    actions: { type: 'finishCurrent', params: { status: 'error', error } },
  }) as const;

export const audioQueueMachine = audioQueueSetup.createMachine({
  id: 'audioQueue',
  // No input, so it spawns as `spawnChild('audioQueue', { systemId: 'audioQueue' })`; speed and volume
  // arrive with 'audio.settings'.
  context: { items: [], current: null, history: [], owners: {}, speed: 1, volume: 1, progress: null },
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
        'audio.disable': {
          target: 'off',
          actions: [{ type: 'finishCurrent', params: { status: 'stopped' } }, 'dropQueue'],
        },
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
            'audio.clear': {
              target: '.idle',
              actions: [{ type: 'finishCurrent', params: { status: 'stopped' } }, 'dropQueue'],
            },
            'audio.interrupt': {
              target: '.interrupted',
              actions: [{ type: 'finishCurrent', params: { status: 'stopped' } }, 'dropQueue'],
            },
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
                'audio.skip': {
                  target: 'afterSkip',
                  actions: { type: 'finishCurrent', params: { status: 'skipped' } },
                },
              },
              states: {
                checking: {
                  invoke: {
                    id: 'checkAudio',
                    src: 'checkAudio',
                    input: ({ context }) => ({ url: context.current!.url }),
                    onDone: [
                      {
                        guard: { type: 'isAccessible', params: ({ event }) => ({ result: event.output }) },
                        target: 'ready',
                      },
                      {
                        target: '#audioQueue.on.flow.afterError',
                        actions: {
                          type: 'finishCurrent',
                          params: ({ event }) => ({
                            status: 'error',
                            error: event.output.ok ? undefined : event.output.reason,
                          }),
                        },
                      },
                    ],
                    onError: {
                      target: '#audioQueue.on.flow.afterError',
                      actions: {
                        type: 'finishCurrent',
                        params: ({ event }) => ({
                          status: 'error',
                          error: AUDIO_QUEUE_MESSAGES.notAccessible(
                            String((event.error as Error)?.message ?? event.error),
                          ),
                        }),
                      },
                    },
                  },
                  after: { verifyTimeout: failWith(AUDIO_QUEUE_MESSAGES.verifyTimedOut) },
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
                    input: ({ context }) => queue.clipInput(context),
                  },
                  on: {
                    'clip.failed': {
                      target: '#audioQueue.on.flow.afterError',
                      actions: {
                        type: 'finishCurrent',
                        params: ({ event }) => ({
                          status: 'error',
                          error: AUDIO_QUEUE_MESSAGES.playbackFailed(event.reason),
                        }),
                      },
                    },
                    'clip.blocked': { target: '.blocked' },
                    'clip.progress': {
                      actions: assign({
                        progress: ({ event }) => ({ position: event.position, duration: event.duration }),
                      }),
                    },
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
                        'clip.playing': {
                          target: 'playing',
                          actions: ['markPlaying', { type: 'notifyOwner', params: { blocked: false } }],
                        },
                      },
                      after: { loadTimeout: failWith(AUDIO_QUEUE_MESSAGES.loadTimedOut) },
                    },
                    starting: {
                      on: {
                        'clip.playing': {
                          target: 'playing',
                          actions: ['markPlaying', { type: 'notifyOwner', params: { blocked: false } }],
                        },
                      },
                    },
                    playing: {
                      tags: ['playing'],
                      on: {
                        'clip.ended': {
                          target: '#audioQueue.on.flow.afterEnd',
                          actions: { type: 'finishCurrent', params: { status: 'completed' } },
                        },
                      },
                    },
                    // Autoplay refused: the queue waits for the user's gesture ('audio.unblock'), then plays again.
                    blocked: {
                      tags: ['blocked'],
                      entry: ['markBlocked', { type: 'notifyOwner', params: { blocked: true } }],
                      on: {
                        'audio.unblock': { target: 'starting', actions: ['markLoading', 'resumePlayer'] },
                        'clip.playing': {
                          target: 'playing',
                          actions: ['markPlaying', { type: 'notifyOwner', params: { blocked: false } }],
                        },
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

declare module './kit/systemRegistry' {
  interface SystemActors {
    audioQueue: ActorRefFrom<typeof audioQueueMachine>;
  }
}
