// The browser half of the audio queue over fakes: the HEAD check rules with a fake fetch, the player over a
// fake HTMLAudioElement (autoplay refusal, end, errors, pause, clean-up), the preload cache, and the provided
// queue end to end.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, setup, type AnyActorLogic, type AnyEventObject } from 'xstate';
import type { AudioQueueNotice } from '../../src/machines/audioQueue.machine';
import type { PlayClipInput } from '../../src/model/audioClip';
import { AUDIO_QUEUE_MESSAGES } from '../../src/machines/kit/audioQueue';
import {
  checkAudioUrl,
  createAudioActors,
  createAudioQueueLogic,
  createClipCache,
  type AudioElementLike,
} from '../../src/services/audioPlayer';
import { AUDIO_NEXT_AFTER_END_MS } from '../../src/schemas/constants';
import { flush } from '../support/harness';

type PlayOutcome = 'resolve' | 'notAllowed' | 'abort' | 'other' | 'pending';

/** An HTMLAudioElement double: the test fires its media events and decides what play() does. */
class FakeAudio extends EventTarget {
  static made: FakeAudio[] = [];
  readyState = 0;
  preload = '';
  playbackRate = 1;
  defaultPlaybackRate = 1;
  volume = 1;
  error: MediaError | null = null;
  src: string | null;
  plays = 0;
  pauses = 0;
  loads = 0;
  outcomes: PlayOutcome[] = [];
  listeners = 0;
  constructor(readonly url: string) {
    super();
    this.src = url;
    FakeAudio.made.push(this);
  }
  override addEventListener(...args: Parameters<EventTarget['addEventListener']>) {
    this.listeners++;
    super.addEventListener(...args);
  }
  override removeEventListener(...args: Parameters<EventTarget['removeEventListener']>) {
    this.listeners--;
    super.removeEventListener(...args);
  }
  play(): Promise<void> {
    this.plays++;
    const outcome = this.outcomes.shift() ?? 'resolve';
    if (outcome === 'resolve') {
      queueMicrotask(() => this.fire('playing'));
      return Promise.resolve();
    }
    if (outcome === 'pending') return new Promise(() => undefined);
    const name =
      outcome === 'notAllowed' ? 'NotAllowedError' : outcome === 'abort' ? 'AbortError' : 'NotSupportedError';
    return Promise.reject(new DOMException(`play() failed: ${name}`, name));
  }
  pause() {
    this.pauses++;
  }
  load() {
    this.loads++;
  }
  removeAttribute(name: string) {
    if (name === 'src') this.src = null;
  }
  fire(type: string) {
    this.dispatchEvent(new Event(type));
  }
}

const createAudio = (url: string) => new FakeAudio(url) as unknown as AudioElementLike;

/** Runs an actor logic as the child 'c' of a parent that records what the child sends back. */
function underRecorder(logic: AnyActorLogic, input: unknown) {
  const heard: AnyEventObject[] = [];
  const parent = setup({ actors: { c: logic } }).createMachine({
    invoke: { id: 'c', src: 'c', input: () => input },
    on: { '*': { actions: ({ event }) => void heard.push(event) } },
  });
  const root = createActor(parent).start();
  const child = root.getSnapshot().children.c!;
  return { root, child, heard, types: () => heard.map((e) => e.type) };
}

function headFetch(answer: { status?: number; headers?: Record<string, string> } | Error | 'hang') {
  return vi.fn((_url: string | URL | Request, init?: RequestInit) => {
    if (answer === 'hang') {
      return new Promise<Response>((_, reject) =>
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      );
    }
    if (answer instanceof Error) return Promise.reject(answer);
    return Promise.resolve(new Response(null, { status: answer.status ?? 200, headers: answer.headers ?? {} }));
  });
}

beforeEach(() => {
  FakeAudio.made = [];
});

describe('checkAudioUrl: the HEAD rules', () => {
  const audio = { 'content-type': 'audio/wav', 'content-length': '32044' };
  it('is accessible: OK, audio/*, non-zero length (or no length given)', async () => {
    const f = headFetch({ headers: audio });
    expect(await checkAudioUrl('/media/tts/a.wav', f as never)).toEqual({ ok: true });
    expect(f.mock.calls[0][0]).toBe('/media/tts/a.wav');
    expect(f.mock.calls[0][1]).toMatchObject({ method: 'HEAD', cache: 'no-store' });
    expect(await checkAudioUrl('/x', headFetch({ headers: { 'content-type': 'Audio/MPEG' } }) as never)).toEqual({
      ok: true,
    });
  });
  it('is not accessible when the answer is not OK', async () => {
    expect(await checkAudioUrl('/x', headFetch({ status: 404, headers: audio }) as never)).toEqual({
      ok: false,
      reason: AUDIO_QUEUE_MESSAGES.notAccessible('HTTP 404'),
    });
    expect(await checkAudioUrl('/x', headFetch({ status: 500, headers: audio }) as never)).toMatchObject({ ok: false });
  });
  it('is not accessible when the content type is not audio (or missing)', async () => {
    expect(
      await checkAudioUrl(
        '/x',
        headFetch({ headers: { 'content-type': 'text/html', 'content-length': '10' } }) as never,
      ),
    ).toEqual({
      ok: false,
      reason: AUDIO_QUEUE_MESSAGES.notAccessible('content type text/html, not audio'),
    });
    expect(await checkAudioUrl('/x', headFetch({ headers: { 'content-length': '10' } }) as never)).toEqual({
      ok: false,
      reason: AUDIO_QUEUE_MESSAGES.notAccessible('content type missing, not audio'),
    });
  });
  it('is not accessible when the length is zero', async () => {
    expect(
      await checkAudioUrl(
        '/x',
        headFetch({ headers: { 'content-type': 'audio/wav', 'content-length': '0' } }) as never,
      ),
    ).toEqual({
      ok: false,
      reason: AUDIO_QUEUE_MESSAGES.notAccessible('empty file'),
    });
  });
  it('a network failure is an answer, not a throw', async () => {
    expect(await checkAudioUrl('/x', headFetch(new TypeError('Failed to fetch')) as never)).toEqual({
      ok: false,
      reason: AUDIO_QUEUE_MESSAGES.notAccessible('Failed to fetch'),
    });
  });
  it('the checkAudio actor aborts its HEAD when the queue gives up (its 10 s time-out)', async () => {
    const f = headFetch('hang');
    const { checkAudio } = createAudioActors({ fetch: f as never });
    const actor = createActor(checkAudio, { input: { url: '/slow' } }).start();
    await flush();
    const signal = f.mock.calls[0][1]!.signal!;
    expect(signal.aborted).toBe(false);
    actor.stop();
    expect(signal.aborted).toBe(true);
  });
});

describe('playClip over a fake audio element', () => {
  const input: PlayClipInput = { url: '/media/tts/a.wav', speed: 1.5, volume: 0.8 };
  const run = (i: PlayClipInput = input, deps = { createAudio }) => {
    const actors = createAudioActors(deps);
    const r = underRecorder(actors.playClip, i);
    return { ...r, el: FakeAudio.made.at(-1)!, actors };
  };

  it('sets rate and volume (clamped), says loaded when it can play, calls play(), says playing, then ended', async () => {
    const { el, types } = run({ url: '/a.wav', speed: 9, volume: 3 });
    expect(el.url).toBe('/a.wav');
    expect([el.playbackRate, el.defaultPlaybackRate, el.volume]).toEqual([2, 2, 1]);
    expect(types()).toEqual([]);
    el.readyState = 4;
    el.fire('canplay');
    el.fire('canplaythrough');
    expect(types()).toEqual(['clip.loaded']);
    expect(el.plays).toBe(1);
    await flush();
    expect(types()).toEqual(['clip.loaded', 'clip.playing']);
    el.fire('ended');
    expect(types()).toEqual(['clip.loaded', 'clip.playing', 'clip.ended']);
  });

  it('play() rejected with NotAllowedError → clip.blocked; clip.resume (the unblock) plays it', async () => {
    const { el, child, types } = run();
    el.outcomes = ['notAllowed', 'resolve'];
    el.fire('canplay');
    await flush();
    expect(types()).toEqual(['clip.loaded', 'clip.blocked']);
    child.send({ type: 'clip.resume' });
    await flush();
    expect(el.plays).toBe(2);
    expect(types()).toEqual(['clip.loaded', 'clip.blocked', 'clip.playing']);
  });

  it('an AbortError (a pause came first) is not a failure; another rejection is', async () => {
    const a = run();
    a.el.outcomes = ['abort'];
    a.el.fire('canplay');
    await flush();
    expect(a.types()).toEqual(['clip.loaded']);
    const b = run();
    b.el.outcomes = ['other'];
    b.el.fire('canplay');
    await flush();
    expect(b.heard.at(-1)).toEqual({ type: 'clip.failed', reason: 'play() failed: NotSupportedError' });
  });

  it("a media 'error' event → clip.failed with the element's message", () => {
    const { el, heard } = run();
    el.error = { code: 4, message: 'MEDIA_ELEMENT_ERROR: Format error' } as MediaError;
    el.fire('error');
    expect(heard).toEqual([{ type: 'clip.failed', reason: 'MEDIA_ELEMENT_ERROR: Format error' }]);
  });

  it('pause pauses the element and holds play until resume; settings change rate and volume live', async () => {
    const { el, child, types } = run();
    child.send({ type: 'clip.pause' });
    el.fire('canplay');
    expect(el.pauses).toBe(1);
    expect(el.plays).toBe(0);
    child.send({ type: 'clip.resume' });
    expect(el.plays).toBe(1);
    await flush();
    expect(types()).toEqual(['clip.loaded', 'clip.playing']);
    child.send({ type: 'clip.settings', speed: 0.2, volume: 0.3 });
    expect([el.playbackRate, el.volume]).toEqual([0.5, 0.3]);
    child.send({ type: 'clip.settings', volume: 0.9 });
    expect([el.playbackRate, el.volume]).toEqual([0.5, 0.9]);
  });

  it('stopping the player stops the sound, removes its listeners and frees the element; later events are not told', async () => {
    const { el, root, heard } = run();
    el.fire('canplay');
    await flush();
    const before = heard.length;
    root.stop();
    expect(el.pauses).toBeGreaterThan(0);
    expect(el.src).toBeNull();
    expect(el.loads).toBeGreaterThan(0);
    expect(el.listeners).toBe(0);
    el.fire('ended');
    expect(heard).toHaveLength(before);
  });

  it('takes a preloaded element for its URL: already loaded, it plays at once without a new element', async () => {
    const actors = createAudioActors({ createAudio });
    const pre = createActor(actors.preloadClips).start();
    pre.send({ type: 'audio.preload', urls: ['/n1.wav', '/n2.wav'] });
    expect(FakeAudio.made.map((a) => [a.url, a.preload])).toEqual([
      ['/n1.wav', 'auto'],
      ['/n2.wav', 'auto'],
    ]);
    FakeAudio.made[0].readyState = 4;
    const r = underRecorder(actors.playClip, { url: '/n1.wav', speed: 1, volume: 1 });
    expect(FakeAudio.made).toHaveLength(2);
    await flush();
    expect(r.types()).toEqual(['clip.loaded', 'clip.playing']);
    expect(FakeAudio.made[0].plays).toBe(1);
    // Warming the same URLs again makes nothing new (n1 is the player's now, so it is fetched again).
    pre.send({ type: 'audio.preload', urls: ['/n2.wav'] });
    expect(FakeAudio.made).toHaveLength(2);
    // The preloader's end (speech off) frees what it held.
    pre.stop();
    expect(FakeAudio.made[1].src).toBeNull();
    expect(FakeAudio.made[0].src).toBe('/n1.wav');
  });
});

describe('the clip cache', () => {
  it('keeps at most its size, dropping (and freeing) the oldest', () => {
    const cache = createClipCache(createAudio, 2);
    cache.warm(['/a', '/b', '/c']);
    expect(cache.size).toBe(2);
    expect([cache.has('/a'), cache.has('/b'), cache.has('/c')]).toEqual([false, true, true]);
    expect(FakeAudio.made[0].src).toBeNull();
    const b = cache.take('/b');
    expect(b).toBe(FakeAudio.made[1]);
    expect(cache.has('/b')).toBe(false);
    const fresh = cache.take('/zzz');
    expect((fresh as unknown as FakeAudio).url).toBe('/zzz');
  });
});

describe('createAudioQueueLogic: the queue with the real actors over fakes', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('HEAD, load, play, end, notices; the next clip comes from the preload cache 200 ms later', async () => {
    const fetch = headFetch({ headers: { 'content-type': 'audio/wav', 'content-length': '100' } });
    const logic = createAudioQueueLogic({ fetch: fetch as never, createAudio });
    const notices: AudioQueueNotice[] = [];
    const owner = createActor(
      createMachine({ on: { '*': { actions: ({ event }) => void notices.push(event as AudioQueueNotice) } } }),
    ).start();
    const queue = createActor(logic).start();
    queue.send({
      type: 'audio.enqueue',
      item: { audioId: 'a', url: '/media/tts/a.wav', agentId: 'ag1' },
      replyTo: owner,
    });
    queue.send({
      type: 'audio.enqueue',
      item: { audioId: 'b', url: '/media/tts/b.wav', agentId: 'ag2' },
      replyTo: owner,
    });
    await vi.advanceTimersByTimeAsync(0);
    // Each clip was warmed when it was enqueued; a's player took a's warmed element, b waits in the cache.
    expect(FakeAudio.made.map((a) => a.url)).toEqual(['/media/tts/a.wav', '/media/tts/b.wav']);
    const [elA, elB] = FakeAudio.made;
    elA.fire('canplay');
    await vi.advanceTimersByTimeAsync(0);
    expect(notices.map((n) => n.type)).toEqual(['audio.started']);
    elB.readyState = 4;
    elA.fire('ended');
    expect(notices.at(-1)).toMatchObject({ type: 'audio.finished', status: 'completed', item: { audioId: 'a' } });
    await vi.advanceTimersByTimeAsync(AUDIO_NEXT_AFTER_END_MS);
    expect(FakeAudio.made).toHaveLength(2);
    expect(elB.plays).toBe(1);
    expect(notices.at(-1)).toMatchObject({ type: 'audio.started', item: { audioId: 'b', agentId: 'ag2' } });
    expect(fetch.mock.calls.map((c) => c[0])).toEqual(['/media/tts/a.wav', '/media/tts/b.wav']);
    queue.stop();
  });
});
