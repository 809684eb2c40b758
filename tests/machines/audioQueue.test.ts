// The audio queue with fake timers, the real HEAD check over a fake fetch, and a scripted player per URL:
// clips that end, fail, hang (time-outs) and are blocked. The queue runs the way the app runs it (a child
// with systemId 'audioQueue'); the stand-in parent is the owner that hears the notices.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromCallback, type AnyEventObject } from 'xstate';
import {
  audioQueueMachine,
  type AudioQueueActorRef,
  type AudioQueueItemInput,
  type AudioQueueNotice,
} from '../../src/machines/audioQueue.machine';
import type { ClipCommand, ClipEvent, PlayClipInput, PreloadCommand } from '../../src/model/audioClip';
import { AUDIO_HISTORY_LIMIT, AUDIO_QUEUE_MESSAGES } from '../../src/machines/kit/audioQueue';
import {
  selectCurrentItem,
  selectFlags,
  selectHistory,
  selectIsBlocked,
  selectIsPaused,
  selectIsPlaying,
  selectQueueLength,
  selectQueueList,
  selectSettings,
  selectSpeakingAgentId,
  sameFlags,
} from '../../src/machines/audioQueue.selectors';
import { createAudioActors } from '../../src/services/audioPlayer';
import {
  AUDIO_LOAD_TIMEOUT_MS,
  AUDIO_NEXT_AFTER_END_MS,
  AUDIO_NEXT_AFTER_ERROR_MS,
  AUDIO_NEXT_AFTER_SKIP_MS,
  AUDIO_VERIFY_TIMEOUT_MS,
} from '../../src/schemas/constants';
import { flush, underParent } from '../support/harness';

/** How the fake player behaves for a URL: `/end-1000.wav` plays 1 s and ends; see `behaviour`. */
type Behaviour = { kind: 'end' | 'fail' | 'hang' | 'block'; ms: number };
function behaviour(url: string): Behaviour {
  const m = /\/(end|fail|hang|block)(?:-(\d+))?/.exec(url);
  return { kind: (m?.[1] ?? 'end') as Behaviour['kind'], ms: Number(m?.[2] ?? 1000) };
}

interface PlayerRecord {
  url: string;
  input: PlayClipInput;
  startedAt: number;
  stoppedAt: number | null;
  commands: ClipCommand['type'][];
  settings: ClipCommand[];
}

/** What the HEAD check answers, by the URL's last segment's prefix; the default is a good audio/wav. */
type HeadAnswer = { status?: number; type?: string | null; length?: string | null; hang?: boolean; throws?: boolean };
function head(url: string): HeadAnswer {
  if (url.includes('notfound')) return { status: 404 };
  if (url.includes('html')) return { type: 'text/html; charset=utf-8' };
  if (url.includes('empty')) return { length: '0' };
  if (url.includes('slowhead')) return { hang: true };
  if (url.includes('offline')) return { throws: true };
  return {};
}

function start() {
  const players: PlayerRecord[] = [];
  const preloads: string[][] = [];
  const heads: string[] = [];
  const fakeFetch = vi.fn((url: string | URL | Request, init?: RequestInit) => {
    heads.push(`${init?.method} ${String(url)}`);
    const a = head(String(url));
    if (a.throws) return Promise.reject(new TypeError('Failed to fetch'));
    if (a.hang) return new Promise<Response>(() => undefined);
    const headers = new Headers();
    if (a.type !== null) headers.set('content-type', a.type ?? 'audio/wav');
    if (a.length !== null) headers.set('content-length', a.length ?? '32044');
    return Promise.resolve(new Response(null, { status: a.status ?? 200, headers }));
  });
  const { checkAudio } = createAudioActors({ fetch: fakeFetch as unknown as typeof fetch });

  const playClip = fromCallback<ClipCommand, PlayClipInput>(({ input, sendBack, receive }) => {
    const rec: PlayerRecord = {
      url: input.url,
      input,
      startedAt: Date.now(),
      stoppedAt: null,
      commands: [],
      settings: [],
    };
    players.push(rec);
    const send = (e: ClipEvent) => sendBack(e);
    const b = behaviour(input.url);
    const timers: ReturnType<typeof setTimeout>[] = [];
    let remaining = b.ms;
    let playingSince = 0;
    const playFor = () => {
      playingSince = Date.now();
      send({ type: 'clip.playing' });
      timers.push(
        setTimeout(
          () => send(b.kind === 'fail' ? { type: 'clip.failed', reason: 'decode error' } : { type: 'clip.ended' }),
          remaining,
        ),
      );
    };
    if (b.kind !== 'hang') send({ type: 'clip.loaded' });
    if (b.kind === 'end' || b.kind === 'fail') playFor();
    if (b.kind === 'block') send({ type: 'clip.blocked' });
    receive((c) => {
      rec.commands.push(c.type);
      if (c.type === 'clip.settings') rec.settings.push(c);
      if (c.type === 'clip.pause') {
        timers.splice(0).forEach(clearTimeout);
        remaining -= Date.now() - playingSince;
      }
      if (c.type === 'clip.resume') playFor();
    });
    return () => {
      rec.stoppedAt = Date.now();
      timers.forEach(clearTimeout);
    };
  });
  const preloadClips = fromCallback<PreloadCommand>(({ receive }) => {
    receive((c) => void preloads.push(c.urls));
  });

  const logic = audioQueueMachine.provide({ actors: { checkAudio, playClip, preloadClips } });
  const h = underParent<AudioQueueActorRef>(logic, 'audioQueue');
  const queue = h.child;
  const notices = () => h.heard.filter((e: AnyEventObject) => e.type.startsWith('audio.')) as AudioQueueNotice[];
  const enqueue = (item: Partial<AudioQueueItemInput> & { audioId: string }) =>
    queue.send({
      type: 'audio.enqueue',
      item: { url: `/media/tts/${item.audioId}.wav`, agentId: `agent-${item.audioId}`, ...item },
      replyTo: h.root,
    });
  const startsOf = () => players.map((p) => [p.url.replace('/media/tts/', ''), p.startedAt]);
  const playedIds = () => players.map((p) => p.url.replace(/^.*\//, '').replace(/\.wav$/, ''));
  return { ...h, queue, players, preloads, heads, fakeFetch, notices, enqueue, startsOf, playedIds };
}

/** Moves fake time forward, letting promise callbacks (the HEAD answers) run. */
const tick = (ms: number) => vi.advanceTimersByTimeAsync(ms);

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(0);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('audio queue: order and the gaps between clips', () => {
  it('plays in arrival order; each clip starts 200 ms after the previous one ended', async () => {
    const t = start();
    t.enqueue({ audioId: 'end-1000-a', url: '/media/tts/end-1000-a.wav' });
    t.enqueue({ audioId: 'end-500-b', url: '/media/tts/end-500-b.wav' });
    t.enqueue({ audioId: 'end-700-c', url: '/media/tts/end-700-c.wav' });
    await flush();
    expect(t.heads[0]).toBe('HEAD /media/tts/end-1000-a.wav');
    expect(selectIsPlaying(t.queue.getSnapshot())).toBe(true);
    expect(selectCurrentItem(t.queue.getSnapshot())).toMatchObject({ audioId: 'end-1000-a', status: 'playing' });
    expect(selectQueueList(t.queue.getSnapshot()).map((i) => [i.audioId, i.status])).toEqual([
      ['end-1000-a', 'playing'],
      ['end-500-b', 'queued'],
      ['end-700-c', 'queued'],
    ]);

    await tick(1000);
    expect(t.players).toHaveLength(1);
    expect(selectFlags(t.queue.getSnapshot())).toMatchObject({ playing: false, processing: true });
    await tick(AUDIO_NEXT_AFTER_END_MS - 1);
    expect(t.players).toHaveLength(1);
    await tick(1);
    expect(t.players).toHaveLength(2);
    await tick(500 + AUDIO_NEXT_AFTER_END_MS);
    await tick(700);
    expect(t.startsOf()).toEqual([
      ['end-1000-a.wav', 0],
      ['end-500-b.wav', 1200],
      ['end-700-c.wav', 1900],
    ]);
    expect(selectHistory(t.queue.getSnapshot()).map((i) => i.status)).toEqual(['completed', 'completed', 'completed']);
    expect(selectFlags(t.queue.getSnapshot())).toMatchObject({ playing: false, processing: true });
    await tick(AUDIO_NEXT_AFTER_END_MS);
    expect(selectFlags(t.queue.getSnapshot())).toEqual({
      enabled: true,
      paused: false,
      interrupted: false,
      processing: false,
      playing: false,
      blocked: false,
    });
  });

  it('orders by priority (higher first), then by arrival', async () => {
    const t = start();
    t.enqueue({ audioId: 'first' });
    t.enqueue({ audioId: 'low-1' });
    t.enqueue({ audioId: 'high-1', priority: 5 });
    t.enqueue({ audioId: 'low-2', priority: 0 });
    t.enqueue({ audioId: 'high-2', priority: 5 });
    t.enqueue({ audioId: 'mid', priority: 2 });
    await tick(10_000);
    expect(t.playedIds()).toEqual(['first', 'high-1', 'high-2', 'mid', 'low-1', 'low-2']);
  });

  it('the next clip starts 1 s after an error, and the owner hears error (agent idle)', async () => {
    const t = start();
    t.enqueue({ audioId: 'fail-300' });
    t.enqueue({ audioId: 'next' });
    await tick(300);
    expect(t.queue.getSnapshot().context.current).toBeNull();
    const last = t.notices().at(-1)!;
    expect(last).toMatchObject({
      type: 'audio.finished',
      status: 'error',
      item: { audioId: 'fail-300', status: 'error', error: AUDIO_QUEUE_MESSAGES.playbackFailed('decode error') },
    });
    await tick(AUDIO_NEXT_AFTER_ERROR_MS - 1);
    expect(t.players).toHaveLength(1);
    await tick(1);
    expect(t.startsOf()).toEqual([
      ['fail-300.wav', 0],
      ['next.wav', 300 + AUDIO_NEXT_AFTER_ERROR_MS],
    ]);
  });

  it('a skip stops the clip (skipped) and the next starts 50 ms later', async () => {
    const t = start();
    t.enqueue({ audioId: 'a' });
    t.enqueue({ audioId: 'b' });
    await tick(400);
    t.queue.send({ type: 'audio.skip' });
    expect(t.players[0].stoppedAt).toBe(400);
    expect(t.notices().at(-1)).toMatchObject({
      type: 'audio.finished',
      status: 'skipped',
      item: { audioId: 'a', status: 'skipped' },
    });
    await tick(AUDIO_NEXT_AFTER_SKIP_MS - 1);
    expect(t.players).toHaveLength(1);
    await tick(1);
    expect(t.startsOf()).toEqual([
      ['a.wav', 0],
      ['b.wav', 400 + AUDIO_NEXT_AFTER_SKIP_MS],
    ]);
  });

  it('a skip while the URL is still being checked skips that item too', async () => {
    const t = start();
    t.enqueue({ audioId: 'slowhead' });
    t.enqueue({ audioId: 'b' });
    await tick(100);
    expect(t.queue.getSnapshot().matches({ on: { flow: { item: 'checking' } } })).toBe(true);
    t.queue.send({ type: 'audio.skip' });
    await tick(AUDIO_NEXT_AFTER_SKIP_MS);
    expect(t.playedIds()).toEqual(['b']);
    expect(selectHistory(t.queue.getSnapshot())[0]).toMatchObject({ audioId: 'slowhead', status: 'skipped' });
  });
});

describe('audio queue: HEAD check and time-outs', () => {
  const cases: [string, string][] = [
    ['notfound', AUDIO_QUEUE_MESSAGES.notAccessible('HTTP 404')],
    ['html', AUDIO_QUEUE_MESSAGES.notAccessible('content type text/html; charset=utf-8, not audio')],
    ['empty', AUDIO_QUEUE_MESSAGES.notAccessible('empty file')],
    ['offline', AUDIO_QUEUE_MESSAGES.notAccessible('Failed to fetch')],
  ];
  for (const [id, message] of cases) {
    it(`${id}: the item is an error without a player, the owner hears it, the next plays 1 s later`, async () => {
      const t = start();
      t.enqueue({ audioId: id });
      t.enqueue({ audioId: 'good' });
      await flush();
      expect(t.players).toHaveLength(0);
      expect(selectHistory(t.queue.getSnapshot())[0]).toMatchObject({ audioId: id, status: 'error', error: message });
      expect(t.notices()).toEqual([
        {
          type: 'audio.finished',
          status: 'error',
          item: expect.objectContaining({ audioId: id, status: 'error', error: message }),
        },
      ]);
      await tick(AUDIO_NEXT_AFTER_ERROR_MS - 1);
      expect(t.players).toHaveLength(0);
      await tick(1);
      expect(t.playedIds()).toEqual(['good']);
    });
  }

  it('a HEAD that never answers fails after 10 s', async () => {
    const t = start();
    t.enqueue({ audioId: 'slowhead' });
    await tick(AUDIO_VERIFY_TIMEOUT_MS - 1);
    expect(t.queue.getSnapshot().context.current).toMatchObject({ audioId: 'slowhead', status: 'loading' });
    await tick(1);
    expect(selectHistory(t.queue.getSnapshot())[0]).toMatchObject({
      status: 'error',
      error: AUDIO_QUEUE_MESSAGES.verifyTimedOut,
    });
    expect(t.notices().map((n) => n.type === 'audio.finished' && n.status)).toEqual(['error']);
  });

  it('a clip that never loads fails after 15 s; its element is released', async () => {
    const t = start();
    t.enqueue({ audioId: 'hang' });
    t.enqueue({ audioId: 'after' });
    await tick(AUDIO_LOAD_TIMEOUT_MS - 1);
    expect(t.queue.getSnapshot().matches({ on: { flow: { item: { clip: 'loading' } } } })).toBe(true);
    await tick(1);
    expect(t.players[0].stoppedAt).toBe(AUDIO_LOAD_TIMEOUT_MS);
    expect(selectHistory(t.queue.getSnapshot())[0]).toMatchObject({
      audioId: 'hang',
      status: 'error',
      error: AUDIO_QUEUE_MESSAGES.loadTimedOut,
    });
    await tick(AUDIO_NEXT_AFTER_ERROR_MS);
    expect(t.startsOf()[1]).toEqual(['after.wav', AUDIO_LOAD_TIMEOUT_MS + AUDIO_NEXT_AFTER_ERROR_MS]);
  });
});

describe('audio queue: autoplay blocked', () => {
  it('marks the item blocked, waits, and one "Enable audio" click plays it, then the queue goes on', async () => {
    const t = start();
    t.enqueue({ audioId: 'block-800' });
    t.enqueue({ audioId: 'b' });
    await flush();
    const s = t.queue.getSnapshot();
    expect(selectIsBlocked(s)).toBe(true);
    expect(selectCurrentItem(s)).toMatchObject({
      audioId: 'block-800',
      status: 'blocked',
      error: AUDIO_QUEUE_MESSAGES.blocked,
    });
    expect(t.notices()).toEqual([
      {
        type: 'audio.finished',
        status: 'blocked',
        item: expect.objectContaining({ audioId: 'block-800', status: 'blocked' }),
      },
    ]);

    await tick(60_000);
    expect(t.players).toHaveLength(1);
    expect(selectIsBlocked(t.queue.getSnapshot())).toBe(true);

    t.queue.send({ type: 'audio.unblock' });
    expect(t.players[0].commands).toEqual(['clip.resume']);
    expect(selectIsBlocked(t.queue.getSnapshot())).toBe(false);
    expect(selectCurrentItem(t.queue.getSnapshot())).toMatchObject({ status: 'playing' });
    expect(t.notices().at(-1)).toMatchObject({
      type: 'audio.started',
      item: { audioId: 'block-800', status: 'playing' },
    });
    await tick(800);
    expect(t.notices().at(-1)).toMatchObject({ type: 'audio.finished', status: 'completed' });
    await tick(AUDIO_NEXT_AFTER_END_MS);
    expect(t.playedIds()).toEqual(['block-800', 'b']);
  });

  it('a blocked item can be skipped instead', async () => {
    const t = start();
    t.enqueue({ audioId: 'block' });
    t.enqueue({ audioId: 'b' });
    await flush();
    t.queue.send({ type: 'audio.skip' });
    await tick(AUDIO_NEXT_AFTER_SKIP_MS);
    expect(t.playedIds()).toEqual(['block', 'b']);
    expect(
      t
        .notices()
        .filter((n) => n.type === 'audio.finished')
        .map((n) => n.type === 'audio.finished' && n.status),
    ).toEqual(['blocked', 'skipped']);
  });
});

describe('audio queue: interrupt, disable/enable, clear, pause', () => {
  it('interrupt stops the current clip (stopped), clears the queue, and holds new items until enable', async () => {
    const t = start();
    t.enqueue({ audioId: 'a' });
    t.enqueue({ audioId: 'b' });
    t.enqueue({ audioId: 'c' });
    await tick(300);
    t.queue.send({ type: 'audio.interrupt' });
    const s = t.queue.getSnapshot();
    expect(t.players[0].stoppedAt).toBe(300);
    expect(selectFlags(s)).toMatchObject({ interrupted: true, playing: false, processing: false });
    expect(selectQueueList(s)).toEqual([]);
    expect(t.notices().at(-1)).toMatchObject({
      type: 'audio.finished',
      status: 'stopped',
      item: { audioId: 'a', status: 'stopped' },
    });
    // b and c never started: no notices for them.
    expect(t.notices().filter((n) => n.item.audioId !== 'a')).toEqual([]);

    t.enqueue({ audioId: 'd' });
    await tick(5_000);
    expect(t.playedIds()).toEqual(['a']);
    expect(selectQueueList(t.queue.getSnapshot()).map((i) => i.audioId)).toEqual(['d']);
    t.queue.send({ type: 'audio.enable' });
    await flush();
    expect(t.playedIds()).toEqual(['a', 'd']);
    expect(selectFlags(t.queue.getSnapshot()).interrupted).toBe(false);
  });

  it('disable stops playback and clears the queue; enqueues while disabled are dropped; enable plays new ones', async () => {
    const t = start();
    t.enqueue({ audioId: 'a' });
    t.enqueue({ audioId: 'b' });
    await tick(100);
    t.queue.send({ type: 'audio.disable' });
    expect(t.players[0].stoppedAt).toBe(100);
    expect(selectFlags(t.queue.getSnapshot())).toMatchObject({ enabled: false, playing: false });
    expect(selectQueueList(t.queue.getSnapshot())).toEqual([]);
    expect(t.notices().at(-1)).toMatchObject({ type: 'audio.finished', status: 'stopped' });
    t.enqueue({ audioId: 'dropped' });
    await tick(5_000);
    expect(selectQueueList(t.queue.getSnapshot())).toEqual([]);
    t.queue.send({ type: 'audio.enable' });
    expect(selectFlags(t.queue.getSnapshot()).enabled).toBe(true);
    t.enqueue({ audioId: 'c' });
    await flush();
    expect(t.playedIds()).toEqual(['a', 'c']);
  });

  it('enable also clears an interruption', async () => {
    const t = start();
    t.queue.send({ type: 'audio.interrupt' });
    t.enqueue({ audioId: 'x' });
    await tick(1000);
    expect(t.players).toHaveLength(0);
    t.queue.send({ type: 'audio.enable' });
    await flush();
    expect(t.playedIds()).toEqual(['x']);
  });

  it('clear (Stop in a panel) stops the clip, empties the queue, and lifts a pause; the next item plays at once', async () => {
    const t = start();
    t.enqueue({ audioId: 'a' });
    t.enqueue({ audioId: 'b' });
    await tick(100);
    t.queue.send({ type: 'audio.pause' });
    t.queue.send({ type: 'audio.clear' });
    const s = t.queue.getSnapshot();
    expect(t.players[0].stoppedAt).toBe(100);
    expect(selectQueueList(s)).toEqual([]);
    expect(selectFlags(s)).toMatchObject({ paused: false, playing: false, processing: false, interrupted: false });
    expect(t.notices().at(-1)).toMatchObject({ type: 'audio.finished', status: 'stopped', item: { audioId: 'a' } });
    t.enqueue({ audioId: 'c' });
    await flush();
    expect(t.playedIds()).toEqual(['a', 'c']);
  });

  it('pause pauses the element and holds the queue; resume continues the same clip', async () => {
    const t = start();
    t.enqueue({ audioId: 'a' });
    t.enqueue({ audioId: 'b' });
    await tick(400);
    t.queue.send({ type: 'audio.pause' });
    expect(selectIsPaused(t.queue.getSnapshot())).toBe(true);
    expect(t.players[0].commands).toEqual(['clip.pause']);
    await tick(5_000);
    expect(t.players).toHaveLength(1);
    t.queue.send({ type: 'audio.resume' });
    expect(t.players[0].commands).toEqual(['clip.pause', 'clip.resume']);
    // 600 ms of the clip were left.
    await tick(600 + AUDIO_NEXT_AFTER_END_MS);
    expect(t.startsOf()).toEqual([
      ['a.wav', 0],
      ['b.wav', 5_400 + 600 + AUDIO_NEXT_AFTER_END_MS],
    ]);
    // Only the first 'playing' is a start; the one after resume is not told again.
    expect(
      t
        .notices()
        .filter((n) => n.type === 'audio.started')
        .map((n) => n.item.audioId),
    ).toEqual(['a', 'b']);
  });

  it('a pause between clips holds the next one until resume; a checked clip opens no element while paused', async () => {
    const t = start();
    t.enqueue({ audioId: 'end-100' });
    t.enqueue({ audioId: 'b' });
    await tick(100);
    t.queue.send({ type: 'audio.pause' });
    await tick(AUDIO_NEXT_AFTER_END_MS + 1000);
    expect(t.players).toHaveLength(1);
    expect(selectQueueList(t.queue.getSnapshot()).map((i) => i.audioId)).toEqual(['b']);
    t.queue.send({ type: 'audio.resume' });
    await flush();
    expect(t.playedIds()).toEqual(['end-100', 'b']);

    // Paused during the HEAD check: the item waits, checked, in 'ready'.
    const u = start();
    u.enqueue({ audioId: 'c' });
    u.queue.send({ type: 'audio.pause' });
    await flush();
    expect(u.queue.getSnapshot().matches({ on: { flow: { item: 'ready' } } })).toBe(true);
    expect(u.players).toHaveLength(0);
    u.queue.send({ type: 'audio.resume' });
    expect(u.playedIds()).toEqual(['c']);
  });
});

describe('audio queue: notices, settings, duplicates, preloading', () => {
  it('tells the owner started then finished/completed, with the item, so it can set speaking / idle and ack', async () => {
    const t = start();
    t.enqueue({ audioId: 'au1', messageId: 'm1', agentName: 'Ada', text: 'Hello', requiresAck: true });
    await flush();
    expect(selectSpeakingAgentId(t.queue.getSnapshot())).toBe('agent-au1');
    await tick(1000);
    expect(selectSpeakingAgentId(t.queue.getSnapshot())).toBeNull();
    expect(t.notices()).toEqual([
      {
        type: 'audio.started',
        item: expect.objectContaining({
          audioId: 'au1',
          messageId: 'm1',
          agentId: 'agent-au1',
          agentName: 'Ada',
          status: 'playing',
          requiresAck: true,
        }),
      },
      {
        type: 'audio.finished',
        status: 'completed',
        item: expect.objectContaining({ audioId: 'au1', status: 'completed' }),
      },
    ]);
    // The owner is forgotten once the item is finished.
    expect(t.queue.getSnapshot().context.owners).toEqual({});
  });

  it('items without a replyTo play without notices', async () => {
    const t = start();
    t.queue.send({ type: 'audio.enqueue', item: { audioId: 'x', url: '/media/tts/x.wav', agentId: 'a' } });
    await tick(2000);
    expect(t.playedIds()).toEqual(['x']);
    expect(t.notices()).toEqual([]);
  });

  it('speed and volume are clamped (0.5–2, 0–1); the item wins over the setting; changes reach the playing clip', async () => {
    const t = start();
    t.queue.send({ type: 'audio.settings', speed: 5, volume: -1 });
    t.enqueue({ audioId: 'a' });
    t.enqueue({ audioId: 'b', speed: 0.75, volume: 0.5 });
    await flush();
    expect(t.players[0].input).toEqual({ url: '/media/tts/a.wav', speed: 2, volume: 0 });
    t.queue.send({ type: 'audio.settings', speed: 0.1 });
    expect(t.players[0].settings).toEqual([{ type: 'clip.settings', speed: 0.5, volume: undefined }]);
    expect(t.queue.getSnapshot().context).toMatchObject({ speed: 0.5, volume: 0 });
    await tick(1000 + AUDIO_NEXT_AFTER_END_MS);
    expect(t.players[1].input).toEqual({ url: '/media/tts/b.wav', speed: 0.75, volume: 0.5 });
  });

  it('an audioId already queued, playing or recently played is ignored', async () => {
    const t = start();
    t.enqueue({ audioId: 'a' });
    t.enqueue({ audioId: 'b' });
    t.enqueue({ audioId: 'a' });
    t.enqueue({ audioId: 'b' });
    await tick(5_000);
    t.enqueue({ audioId: 'a' });
    await tick(5_000);
    expect(t.playedIds()).toEqual(['a', 'b']);
  });

  it('keeps at most AUDIO_HISTORY_LIMIT finished items', async () => {
    const t = start();
    for (let i = 0; i < AUDIO_HISTORY_LIMIT + 3; i++) t.enqueue({ audioId: `end-1-${i}` });
    await tick((AUDIO_HISTORY_LIMIT + 3) * 300);
    const history = selectHistory(t.queue.getSnapshot());
    expect(history).toHaveLength(AUDIO_HISTORY_LIMIT);
    expect(history[0].audioId).toBe('end-1-3');
  });

  it('tells the preloader which clips come next, soonest first', async () => {
    const t = start();
    t.enqueue({ audioId: 'a' });
    t.enqueue({ audioId: 'b' });
    t.enqueue({ audioId: 'c' });
    t.enqueue({ audioId: 'd' });
    await flush();
    // After a was taken: b and c are next.
    expect(t.preloads.at(-1)).toEqual(['/media/tts/b.wav', '/media/tts/c.wav']);
    await tick(1000 + AUDIO_NEXT_AFTER_END_MS);
    expect(t.preloads.at(-1)).toEqual(['/media/tts/c.wav', '/media/tts/d.wav']);
  });
});

describe('audio queue selectors', () => {
  it('derive the flags, the list and the settings from the snapshot', async () => {
    const t = start();
    const s0 = t.queue.getSnapshot();
    expect(selectFlags(s0)).toEqual({
      enabled: true,
      paused: false,
      interrupted: false,
      processing: false,
      playing: false,
      blocked: false,
    });
    expect([selectQueueLength(s0), selectCurrentItem(s0), selectSpeakingAgentId(s0)]).toEqual([0, null, null]);
    t.enqueue({ audioId: 'a' });
    t.enqueue({ audioId: 'b' });
    await flush();
    const s1 = t.queue.getSnapshot();
    expect(selectQueueLength(s1)).toBe(2);
    expect(sameFlags(selectFlags(s0), selectFlags(s1))).toBe(false);
    expect(sameFlags(selectFlags(s1), selectFlags(t.queue.getSnapshot()))).toBe(true);
    t.queue.send({ type: 'audio.settings', volume: 0.4 });
    expect(selectSettings(t.queue.getSnapshot())).toEqual({ speed: 1, volume: 0.4 });
    t.queue.send({ type: 'audio.disable' });
    expect(selectFlags(t.queue.getSnapshot())).toEqual({
      enabled: false,
      paused: false,
      interrupted: false,
      processing: false,
      playing: false,
      blocked: false,
    });
  });
});
