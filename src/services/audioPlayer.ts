// The browser half of the audio queue (src/machines/audioQueue.machine.ts): the HEAD check, the player that
// drives one HTMLAudioElement per clip, and a small cache of preloaded elements the player takes its element
// from, so the gap between clips is the spec's 200 ms and not a network fetch. `fetch` and the element factory
// are injected so tests run with fakes; `createAudioQueueLogic()` is the provided machine, ready to spawn.
import { fromCallback, fromPromise } from 'xstate';
import { audioQueueMachine } from '../machines/audioQueue.machine';
import type {
  CheckAudioInput,
  CheckAudioResult,
  ClipCommand,
  ClipEvent,
  PlayClipInput,
  PreloadCommand,
} from '../model/audioClip';
import { AUDIO_QUEUE_MESSAGES, clampPlaybackRate, clampVolume } from '../machines/kit/audioQueue';
import { AUDIO_BUFFER_SIZE } from '../schemas/constants';

/** The part of HTMLAudioElement the player uses (a fake in tests). */
export type AudioElementLike = Pick<
  HTMLAudioElement,
  | 'play'
  | 'pause'
  | 'load'
  | 'readyState'
  | 'preload'
  | 'playbackRate'
  | 'defaultPlaybackRate'
  | 'volume'
  | 'error'
  | 'addEventListener'
  | 'removeEventListener'
  | 'removeAttribute'
>;

export interface AudioDeps {
  fetch?: typeof fetch;
  createAudio?: (url: string) => AudioElementLike;
  /** How many preloaded elements are kept (oldest dropped first). */
  cacheSize?: number;
}

const HAVE_FUTURE_DATA = 3;

/** HEAD the URL; not accessible when the answer is not OK, not audio/*, or says it has zero length. */
export async function checkAudioUrl(
  url: string,
  fetchFn: typeof fetch,
  signal?: AbortSignal,
): Promise<CheckAudioResult> {
  let res: Response;
  try {
    res = await fetchFn(url, { method: 'HEAD', cache: 'no-store', signal });
  } catch (e) {
    return { ok: false, reason: AUDIO_QUEUE_MESSAGES.notAccessible((e as Error)?.message || 'network error') };
  }
  if (!res.ok) return { ok: false, reason: AUDIO_QUEUE_MESSAGES.notAccessible(`HTTP ${res.status}`) };
  const type = (res.headers.get('content-type') ?? '').trim().toLowerCase();
  if (!type.startsWith('audio/'))
    return { ok: false, reason: AUDIO_QUEUE_MESSAGES.notAccessible(`content type ${type || 'missing'}, not audio`) };
  const length = res.headers.get('content-length');
  if (length !== null && Number(length) === 0)
    return { ok: false, reason: AUDIO_QUEUE_MESSAGES.notAccessible('empty file') };
  return { ok: true };
}

/** Elements already loading their clip, by URL; the player takes one out (or makes its own). */
export function createClipCache(createAudio: (url: string) => AudioElementLike, size = AUDIO_BUFFER_SIZE) {
  const cache = new Map<string, AudioElementLike>();
  const release = (el: AudioElementLike) => {
    try {
      el.pause();
      el.removeAttribute('src');
      el.load();
    } catch {
      // a half-torn-down element has nothing left to release
    }
  };
  return {
    /** Starts loading the URLs not yet cached; the oldest beyond `size` are released. */
    warm(urls: string[]) {
      for (const url of urls) {
        if (cache.has(url)) continue;
        const el = createAudio(url);
        el.preload = 'auto';
        cache.set(url, el);
      }
      while (cache.size > size) {
        const [oldest, el] = cache.entries().next().value as [string, AudioElementLike];
        cache.delete(oldest);
        release(el);
      }
    },
    /** The preloaded element for the URL, removed from the cache (the player now owns it), or a new one. */
    take(url: string): AudioElementLike {
      const el = cache.get(url);
      if (el) {
        cache.delete(url);
        return el;
      }
      return createAudio(url);
    },
    has: (url: string) => cache.has(url),
    get size() {
      return cache.size;
    },
    clear() {
      for (const el of cache.values()) release(el);
      cache.clear();
    },
    release,
  };
}

export type ClipCache = ReturnType<typeof createClipCache>;

const defaultCreateAudio = (url: string): AudioElementLike => new Audio(url);

/** The queue's three actors, sharing one preload cache: `audioQueueMachine.provide({ actors: createAudioActors() })`. */
export function createAudioActors(deps: AudioDeps = {}) {
  const fetchFn = deps.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const cache = createClipCache(deps.createAudio ?? defaultCreateAudio, deps.cacheSize ?? AUDIO_BUFFER_SIZE);

  const checkAudio = fromPromise<CheckAudioResult, CheckAudioInput>(({ input, signal }) =>
    checkAudioUrl(input.url, fetchFn, signal),
  );

  /** Warms the clips the queue says come next; its end (speech off) releases them all. */
  const preloadClips = fromCallback<PreloadCommand>(({ receive }) => {
    receive((command) => {
      if (command.type === 'audio.preload') cache.warm(command.urls);
    });
    return () => cache.clear();
  });

  const playClip = fromCallback<ClipCommand, PlayClipInput>(({ input, sendBack, receive }) => {
    let disposed = false;
    const send = (e: ClipEvent) => {
      if (!disposed) sendBack(e);
    };
    const el = cache.take(input.url);
    let loaded = false;
    let paused = false;
    let ended = false;

    const applySettings = (speed?: number, volume?: number) => {
      if (speed !== undefined) {
        el.defaultPlaybackRate = clampPlaybackRate(speed);
        el.playbackRate = clampPlaybackRate(speed);
      }
      if (volume !== undefined) el.volume = clampVolume(volume);
    };
    applySettings(input.speed, input.volume);

    const play = () => {
      if (disposed || paused) return;
      let attempt: Promise<void> | undefined;
      try {
        attempt = el.play();
      } catch (e) {
        send({ type: 'clip.failed', reason: (e as Error)?.message });
        return;
      }
      attempt?.catch((e: unknown) => {
        const name = (e as { name?: string })?.name;
        if (name === 'NotAllowedError') send({ type: 'clip.blocked' });
        else if (name === 'AbortError')
          return; // a pause or a stop came first; not a failure
        else send({ type: 'clip.failed', reason: (e as Error)?.message });
      });
    };
    const onReady = () => {
      if (loaded) return;
      loaded = true;
      send({ type: 'clip.loaded' });
      play();
    };
    const onPlaying = () => send({ type: 'clip.playing' });
    const onEnded = () => {
      if (ended) return;
      ended = true;
      send({ type: 'clip.ended' });
    };
    const onError = () =>
      send({
        type: 'clip.failed',
        reason: el.error?.message || (el.error ? `media error ${el.error.code}` : undefined),
      });

    // The element reports its time about four times a second: the message playing it shows real progress.
    // (Read as optional: a test's fake element may not keep time.)
    const onTime = () => {
      const { duration = 0, currentTime = 0 } = el as Partial<Pick<HTMLAudioElement, 'duration' | 'currentTime'>>;
      send({ type: 'clip.progress', position: currentTime || 0, duration: Number.isFinite(duration) ? duration : 0 });
    };
    el.addEventListener('timeupdate', onTime);
    el.addEventListener('loadedmetadata', onTime);
    el.addEventListener('canplay', onReady);
    el.addEventListener('canplaythrough', onReady);
    el.addEventListener('playing', onPlaying);
    el.addEventListener('ended', onEnded);
    el.addEventListener('error', onError);
    if (el.error) queueMicrotask(onError);
    else if (el.readyState >= HAVE_FUTURE_DATA) queueMicrotask(onReady);
    else if (el.preload !== 'auto') {
      el.preload = 'auto';
      el.load();
    }

    receive((command) => {
      switch (command.type) {
        case 'clip.pause':
          paused = true;
          el.pause();
          break;
        case 'clip.resume':
          paused = false;
          if (loaded) play();
          break;
        case 'clip.settings':
          applySettings(command.speed, command.volume);
          break;
        case 'clip.stop':
          disposed = true;
          el.pause();
          break;
      }
    });

    return () => {
      disposed = true;
      el.removeEventListener('timeupdate', onTime);
      el.removeEventListener('loadedmetadata', onTime);
      el.removeEventListener('canplay', onReady);
      el.removeEventListener('canplaythrough', onReady);
      el.removeEventListener('playing', onPlaying);
      el.removeEventListener('ended', onEnded);
      el.removeEventListener('error', onError);
      cache.release(el);
    };
  });

  return { checkAudio, playClip, preloadClips };
}

export type AudioActors = ReturnType<typeof createAudioActors>;

/** The audio queue with the real browser actors: `spawn(createAudioQueueLogic(), { systemId: 'audioQueue' })`. */
export function createAudioQueueLogic(deps: AudioDeps = {}) {
  return audioQueueMachine.provide({ actors: createAudioActors(deps) });
}
