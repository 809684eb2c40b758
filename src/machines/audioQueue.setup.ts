// The audio queue chart's vocabulary (the chart itself: audioQueue.machine.ts): the events it hears, the browser
// pieces it invokes (checkAudio, playClip, preloadClips: src/services/audioPlayer.ts), its delays, the guards it asks
// and the actions that move items through the queue. Order, duplicates and who is told what are the pure
// kit/audioQueue.ts; when each runs is the chart's business.
import {
  and,
  assertEvent,
  assign,
  enqueueActions,
  fromCallback,
  fromPromise,
  not,
  sendTo,
  setup,
  stateIn,
  type AnyActorRef,
} from 'xstate';
import {
  AUDIO_LOAD_TIMEOUT_MS,
  AUDIO_NEXT_AFTER_END_MS,
  AUDIO_NEXT_AFTER_ERROR_MS,
  AUDIO_NEXT_AFTER_SKIP_MS,
  AUDIO_VERIFY_TIMEOUT_MS,
} from '../schemas/constants';
import { notProvided } from './kit/actorKit';
import type {
  CheckAudioInput,
  CheckAudioResult,
  ClipCommand,
  ClipEvent,
  PlayClipInput,
  PreloadCommand,
} from '../model/audioClip';
import * as queue from './kit/audioQueue';
import {
  AUDIO_QUEUE_MESSAGES,
  type AudioFinishStatus,
  type AudioQueueContext,
  type AudioQueueItemInput,
} from './kit/audioQueue';

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

/** The state a paused queue is in (the chart's playback region). */
export const PAUSED = '#audioQueue.on.playback.paused';

type FinishParams = { status: Exclude<AudioFinishStatus, 'blocked'>; error?: string };

export const audioQueueSetup = setup({
  types: {
    context: {} as AudioQueueContext,
    events: {} as AudioQueueEvent | ClipEvent,
  },
  actors: {
    checkAudio: fromPromise<CheckAudioResult, CheckAudioInput>(notProvided('audioQueue', 'checkAudio')),
    playClip: fromCallback<ClipCommand, PlayClipInput>(notProvided('audioQueue', 'playClip')),
    preloadClips: fromCallback<PreloadCommand>(notProvided('audioQueue', 'preloadClips')),
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
      assertEvent(event, 'audio.enqueue');
      return queue.isNewAudio(context, event.item.audioId);
    },
    isPaused: stateIn(PAUSED),
    canStartNext: and([({ context }) => context.items.length > 0, not('isPaused')]),
    isAccessible: (_, params: { result: CheckAudioResult }) => params.result.ok,
  },
  actions: {
    addItem: assign(({ context, event }) => {
      assertEvent(event, 'audio.enqueue');
      return queue.enqueue(context, event.item, event.replyTo);
    }),
    takeNext: assign(({ context }) => queue.takeNext(context)),
    preloadNext: sendTo(
      'preloader',
      ({ context }) => ({ type: 'audio.preload', urls: queue.preloadUrls(context) }) satisfies PreloadCommand,
    ),
    markLoading: assign({ current: ({ context }) => queue.withStatus(context.current, 'loading') }),
    markPlaying: assign({ current: ({ context }) => queue.withStatus(context.current, 'playing') }),
    markBlocked: assign({
      current: ({ context }) => queue.withStatus(context.current, 'blocked', AUDIO_QUEUE_MESSAGES.blocked),
    }),
    /** Tells the clip's owner it started (or is blocked). */
    notifyOwner: enqueueActions(({ context, enqueue }, params: { blocked: boolean }) => {
      const tell = queue.currentNotice(context, params.blocked ? 'blocked' : undefined);
      if (tell) enqueue.sendTo(tell.owner, tell.notice);
    }),
    finishCurrent: enqueueActions(({ context, enqueue }, params: FinishParams) => {
      const done = queue.finishCurrent(context, params.status, params.error);
      if (!done) return;
      if (done.tell) enqueue.sendTo(done.tell.owner, done.tell.notice);
      enqueue.assign({ ...done.next, progress: null });
    }),
    dropQueue: assign(({ context }) => queue.dropQueued(context)),
    applySettings: assign(({ context, event }) => {
      assertEvent(event, 'audio.settings');
      const { speed, volume } = queue.clampSettings(event);
      return { speed: speed ?? context.speed, volume: volume ?? context.volume };
    }),
    forwardSettings: sendTo('player', ({ event }) => {
      assertEvent(event, 'audio.settings');
      return { type: 'clip.settings', ...queue.clampSettings(event) } satisfies ClipCommand;
    }),
    pausePlayer: sendTo('player', { type: 'clip.pause' } satisfies ClipCommand),
    resumePlayer: sendTo('player', { type: 'clip.resume' } satisfies ClipCommand),
  },
});
