// Model-based paths for the audio queue (xstate/graph). The chart is walked with the user's events, the
// events its actors would produce (the HEAD check's done/error, the player's clip.*) and its `after` timers;
// for each distinct state one shortest path is replayed against a running queue whose HEAD check is a held
// promise, whose player is a double that speaks when told, and whose timers are fake.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, initialTransition, transition, type AnyEventObject } from 'xstate';
import { TestModel } from 'xstate/graph';
import {
  audioQueueMachine,
  type AudioQueueEvent,
  type AudioQueueSnapshot,
} from '../../src/machines/audioQueue.machine';
import type { CheckAudioInput, CheckAudioResult, ClipEvent } from '../../src/model/audioClip';
import {
  AUDIO_LOAD_TIMEOUT_MS,
  AUDIO_NEXT_AFTER_END_MS,
  AUDIO_NEXT_AFTER_ERROR_MS,
  AUDIO_NEXT_AFTER_SKIP_MS,
  AUDIO_VERIFY_TIMEOUT_MS,
} from '../../src/schemas/constants';
import { deferred, flush } from '../support/harness';

type DoneCheck = { type: 'xstate.done.actor.checkAudio'; output: CheckAudioResult };
type FailCheck = { type: 'xstate.error.actor.checkAudio'; error: unknown };
type AfterEvent = { type: `xstate.after.${string}` };
type ModelEvent = AudioQueueEvent | ClipEvent | DoneCheck | FailCheck | AfterEvent;

const AFTER = {
  verifyTimeout: { type: 'xstate.after.verifyTimeout.audioQueue.on.flow.item.checking', ms: AUDIO_VERIFY_TIMEOUT_MS },
  loadTimeout: { type: 'xstate.after.loadTimeout.audioQueue.on.flow.item.clip.loading', ms: AUDIO_LOAD_TIMEOUT_MS },
  nextAfterEnd: { type: 'xstate.after.nextAfterEnd.audioQueue.on.flow.afterEnd', ms: AUDIO_NEXT_AFTER_END_MS },
  nextAfterError: { type: 'xstate.after.nextAfterError.audioQueue.on.flow.afterError', ms: AUDIO_NEXT_AFTER_ERROR_MS },
  nextAfterSkip: { type: 'xstate.after.nextAfterSkip.audioQueue.on.flow.afterSkip', ms: AUDIO_NEXT_AFTER_SKIP_MS },
} as const;

const item = (audioId: string, priority?: number) => ({
  audioId,
  url: `/media/tts/${audioId}.wav`,
  agentId: `agent-${audioId}`,
  priority,
});

// Two clips (the second one more urgent) keep the walk finite: an audioId plays once.
const events: ModelEvent[] = [
  { type: 'audio.enqueue', item: item('a') },
  { type: 'audio.enqueue', item: item('b', 1) },
  { type: 'audio.enable' },
  { type: 'audio.disable' },
  { type: 'audio.interrupt' },
  { type: 'audio.skip' },
  { type: 'audio.pause' },
  { type: 'audio.resume' },
  { type: 'audio.unblock' },
  { type: 'audio.clear' },
  { type: 'xstate.done.actor.checkAudio', output: { ok: true } },
  { type: 'xstate.done.actor.checkAudio', output: { ok: false, reason: 'Audio URL not accessible (HTTP 404)' } },
  { type: 'xstate.error.actor.checkAudio', error: new Error('boom') },
  { type: 'clip.loaded' },
  { type: 'clip.playing' },
  { type: 'clip.ended' },
  { type: 'clip.failed', reason: 'decode error' },
  { type: 'clip.blocked' },
  ...Object.values(AFTER).map((a) => ({ type: a.type })),
];

const ids = (xs: { audioId: string }[]) => xs.map((i) => i.audioId).join(',');
const serializeState = (s: AudioQueueSnapshot) =>
  JSON.stringify([
    s.value,
    ids(s.context.items),
    s.context.current && [s.context.current.audioId, s.context.current.status],
    s.context.history.map((h) => `${h.audioId}:${h.status}`),
  ]);

const inState = (s: AudioQueueSnapshot, id: string) => s._nodes.some((n) => n.id === id);

/** The player speaks only while it exists, and only what a real element can say in that phase. */
function canHappen(s: AudioQueueSnapshot, e: ModelEvent): boolean {
  if (e.type.startsWith('xstate.done.actor.') || e.type.startsWith('xstate.error.actor.'))
    return 'checkAudio' in s.children;
  const after = Object.values(AFTER).find((a) => a.type === e.type);
  if (after) return inState(s, after.type.split('.').slice(3).join('.'));
  const clip = 'audioQueue.on.flow.item.clip';
  switch (e.type) {
    case 'clip.loaded':
      return inState(s, `${clip}.loading`);
    case 'clip.playing':
      return inState(s, `${clip}.loading`) || inState(s, `${clip}.starting`);
    case 'clip.ended':
      return inState(s, `${clip}.playing`);
    case 'clip.blocked':
      return inState(s, `${clip}.starting`) || inState(s, `${clip}.playing`);
    case 'clip.failed':
      return 'player' in s.children;
    default:
      return true;
  }
}

const model = new TestModel(audioQueueMachine, {
  events,
  serializeState: serializeState as never,
  filterEvents: canHappen as never,
} as never);
const all = model.getShortestPaths({ allowDuplicatePaths: true });
// One (shortest) path per distinct state value and current status keeps the suite small but reaches every state.
const byKey = new Map<string, (typeof all)[number]>();
for (const p of all) {
  const s = p.state as AudioQueueSnapshot;
  const key = JSON.stringify([s.value, s.context.current?.status ?? null]);
  const seen = byKey.get(key);
  if (!seen || p.steps.length < seen.steps.length) byKey.set(key, p);
}
const paths = [...byKey.values()];

// Whole journeys through the faults the spec names, each ending with the queue going on to the next clip.
const ev = (type: string, extra: object = {}) => ({ type, ...extra }) as ModelEvent;
const ok = ev('xstate.done.actor.checkAudio', { output: { ok: true } });
const notOk = ev('xstate.done.actor.checkAudio', {
  output: { ok: false, reason: 'Audio URL not accessible (HTTP 404)' },
});
const two = [ev('audio.enqueue', { item: item('a') }), ev('audio.enqueue', { item: item('b') })];
const journeys = {
  'blocked autoplay, unblocked by the user, played to the end, then the next clip': [
    ...two,
    ok,
    ev('clip.loaded'),
    ev('clip.blocked'),
    ev('audio.unblock'),
    ev('clip.playing'),
    ev('clip.ended'),
    ev(AFTER.nextAfterEnd.type),
    ok,
  ],
  'interrupted mid-clip, a new clip held, enable plays it': [
    ...two,
    ok,
    ev('clip.loaded'),
    ev('clip.playing'),
    ev('audio.interrupt'),
    ev('audio.enqueue', { item: item('c') }),
    ev('audio.enable'),
    ok,
  ],
  'HEAD says not accessible, then the next clip 1 s later': [
    ...two,
    notOk,
    ev(AFTER.nextAfterError.type),
    ok,
    ev('clip.playing'),
  ],
  'HEAD never answers (10 s), then the next clip': [
    ...two,
    ev(AFTER.verifyTimeout.type),
    ev(AFTER.nextAfterError.type),
    ok,
  ],
  'never loads (15 s), then the next clip': [...two, ok, ev(AFTER.loadTimeout.type), ev(AFTER.nextAfterError.type), ok],
  'fails while playing, then the next clip': [
    ...two,
    ok,
    ev('clip.playing'),
    ev('clip.failed', { reason: 'decode error' }),
    ev(AFTER.nextAfterError.type),
    ok,
  ],
  'skipped while playing, then the next clip 50 ms later': [
    ...two,
    ok,
    ev('clip.playing'),
    ev('audio.skip'),
    ev(AFTER.nextAfterSkip.type),
    ok,
    ev('clip.playing'),
  ],
  'paused and resumed mid-clip, then ends': [
    ...two,
    ok,
    ev('clip.playing'),
    ev('audio.pause'),
    ev('audio.resume'),
    ev('clip.ended'),
    ev(AFTER.nextAfterEnd.type),
  ],
  'speech off mid-clip drops the queue; on again plays a new clip': [
    ...two,
    ok,
    ev('clip.playing'),
    ev('audio.disable'),
    ev('audio.enable'),
    ev('audio.enqueue', { item: item('c') }),
    ok,
  ],
};
const journeyPaths = Object.entries(journeys).map(([name, evs]) => {
  const [path] = model.getPathsFromEvents(evs as never, {});
  return { name, path, evs };
});

function replay() {
  const check = deferred<CheckAudioResult, CheckAudioInput>();
  let playerSend: ((e: ClipEvent) => void) | null = null;
  const commands: string[] = [];
  const machine = audioQueueMachine.provide({
    actors: {
      checkAudio: check.logic,
      playClip: fromCallback(({ sendBack, receive }) => {
        playerSend = sendBack;
        receive((c) => void commands.push(c.type));
        return () => {
          playerSend = null;
        };
      }),
      // Preloading is the browser's business (audioPlayer.test.ts); here it does nothing.
      preloadClips: fromCallback(() => undefined),
    },
  });
  const actor = createActor(machine).start();
  const exec: Record<string, (step: { event: AnyEventObject }) => Promise<void>> = {};
  for (const e of events) {
    const after = Object.values(AFTER).find((a) => a.type === e.type);
    if (after)
      exec[e.type] = async () => {
        await vi.advanceTimersByTimeAsync(after.ms);
      };
    else if (e.type === 'xstate.done.actor.checkAudio')
      exec[e.type] = async ({ event }) => {
        check.resolve((event as DoneCheck).output);
        await flush();
      };
    else if (e.type === 'xstate.error.actor.checkAudio')
      exec[e.type] = async ({ event }) => {
        check.reject((event as FailCheck).error);
        await flush();
      };
    else if (e.type.startsWith('clip.'))
      exec[e.type] = async ({ event }) => {
        expect(playerSend, `${event.type} with no player`).not.toBeNull();
        playerSend!(event as ClipEvent);
        await flush();
      };
    else
      exec[e.type] = async ({ event }) => {
        actor.send(event as AudioQueueEvent);
        await flush();
      };
  }
  return { actor, exec, commands, check };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('audio queue model', () => {
  const reached = (pred: (s: AudioQueueSnapshot) => boolean) => paths.some((p) => pred(p.state as AudioQueueSnapshot));

  it('reaches blocked autoplay, interrupt, error, skip, pause and every phase of an item', () => {
    expect(reached((s) => s.hasTag('blocked') && s.context.current?.status === 'blocked')).toBe(true);
    expect(reached((s) => s.matches({ on: { flow: 'interrupted' } }))).toBe(true);
    expect(
      reached((s) => s.matches({ on: { flow: 'afterError' } }) && s.context.history.some((h) => h.status === 'error')),
    ).toBe(true);
    expect(
      reached((s) => s.matches({ on: { flow: 'afterSkip' } }) && s.context.history.some((h) => h.status === 'skipped')),
    ).toBe(true);
    expect(
      reached(
        (s) => s.matches({ on: { flow: 'afterEnd' } }) && s.context.history.some((h) => h.status === 'completed'),
      ),
    ).toBe(true);
    expect(reached((s) => s.matches('off'))).toBe(true);
    for (const phase of [
      'checking',
      'ready',
      { clip: 'loading' },
      { clip: 'starting' },
      { clip: 'playing' },
      { clip: 'blocked' },
    ]) {
      expect(
        reached((s) => s.matches({ on: { flow: { item: phase } } } as never)),
        JSON.stringify(phase),
      ).toBe(true);
    }
    expect(reached((s) => s.matches({ on: { playback: 'paused', flow: { item: { clip: 'playing' } } } }))).toBe(true);
  });

  it('every journey is a real path of the chart (each of its events is taken)', () => {
    for (const { name, path, evs } of journeyPaths)
      expect(
        path.steps.map((st) => st.event.type),
        name,
      ).toEqual(['xstate.init', ...evs.map((e) => e.type)]);
    const end = (name: keyof typeof journeys) =>
      journeyPaths.find((j) => j.name === name)!.path.state as AudioQueueSnapshot;
    expect(
      end('blocked autoplay, unblocked by the user, played to the end, then the next clip').context.history.map(
        (h) => h.status,
      ),
    ).toEqual(['completed']);
    expect(end('interrupted mid-clip, a new clip held, enable plays it').context.current?.audioId).toBe('c');
    expect(
      end('skipped while playing, then the next clip 50 ms later').context.history.map(
        (h) => `${h.audioId}:${h.status}`,
      ),
    ).toEqual(['a:skipped']);
  });

  // Paths are found on a coarse key, so each path's end state is recomputed exactly with the pure `transition`
  // over the same events, and that prediction is what the running queue must match at every step.
  const cases = [
    ...paths.map((p) => ({ name: p.description.replace(/\(\{.*?\}\)/g, ''), path: p })),
    ...journeyPaths.map((j) => ({ name: `journey: ${j.name}`, path: j.path })),
  ];
  for (const { name, path } of cases) {
    it(name, async () => {
      const { actor, exec } = replay();
      let [predicted] = initialTransition(audioQueueMachine);
      const predicting = Object.fromEntries(
        Object.entries(exec).map(([type, run]) => [
          type,
          async (step: { event: AnyEventObject }) => {
            [predicted] = transition(audioQueueMachine, predicted, step.event as never);
            await run(step);
          },
        ]),
      );
      await path.test({
        events: predicting as never,
        states: {
          '*': () => {
            const got = actor.getSnapshot();
            expect(got.value).toEqual(predicted.value);
            expect(got.context.current).toEqual(predicted.context.current);
            expect(ids(got.context.items)).toEqual(ids(predicted.context.items));
            expect(got.context.history).toEqual(predicted.context.history);
          },
        },
      });
      actor.stop();
    });
  }
});
