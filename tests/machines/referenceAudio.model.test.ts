// Model-based paths for the reference audio of the editor drawer (xstate/graph), the same way as
// editor.model.test.ts: the chart is walked with the events its actors would produce; for each state value one
// shortest path is replayed against a running chart whose I/O actors are held promises settled by those events.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initialTransition, transition, type AnyEventObject } from 'xstate';
import { TestModel } from 'xstate/graph';
import {
  referenceAudioMachine,
  type ReferenceAudioEvent,
  type ReferenceAudioInput,
  type ReferenceAudioSnapshot,
} from '../../src/machines/referenceAudio.machine';
import { BATCH_TRANSCRIBE_REFETCH_MS } from '../../src/schemas/constants';
import { agentFixture, audioFixture, httpError, settle, startReferenceAudio, type FakeAgentApi } from './editorHarness';

type ActorId = keyof FakeAgentApi;
type DoneEvent = { type: `xstate.done.actor.${ActorId}`; output: unknown };
type ErrorEvent = { type: `xstate.error.actor.${ActorId}`; error: unknown };
type AfterEvent = { type: `xstate.after.${string}` };
type ModelEvent = ReferenceAudioEvent | DoneEvent | ErrorEvent | AfterEvent;

const done = (id: ActorId, output: unknown): DoneEvent => ({ type: `xstate.done.actor.${id}`, output });
const fail = (id: ActorId, error: unknown = httpError(500)): ErrorEvent => ({
  type: `xstate.error.actor.${id}`,
  error,
});

const AFTER: Record<string, { type: `xstate.after.${string}`; ms: number }> = {
  refetchFirst: {
    type: 'xstate.after.refetchFirst.referenceAudio.active.refetch.first',
    ms: BATCH_TRANSCRIBE_REFETCH_MS[0],
  },
  refetchSecond: {
    type: 'xstate.after.refetchSecond.referenceAudio.active.refetch.second',
    ms: BATCH_TRANSCRIBE_REFETCH_MS[1] - BATCH_TRANSCRIBE_REFETCH_MS[0],
  },
  refetchThird: {
    type: 'xstate.after.refetchThird.referenceAudio.active.refetch.third',
    ms: BATCH_TRANSCRIBE_REFETCH_MS[2] - BATCH_TRANSCRIBE_REFETCH_MS[1],
  },
};

const audioEvents: ModelEvent[] = [
  { type: 'audio.upload.name', value: 'Calm' },
  { type: 'audio.upload.file', file: new Blob(['RIFF']), fileName: 'calm.wav' },
  { type: 'audio.upload.submit' },
  { type: 'audio.delete', audioId: 'au2' },
  { type: 'audio.delete.confirm' },
  { type: 'audio.delete.cancel' },
  { type: 'audio.setDefault', audioId: 'au2' },
  { type: 'audio.transcribe', audioId: 'au2' },
  { type: 'audio.transcribeAll' },
  { type: 'audio.dismiss' },
  { type: 'recorder.saved', item: audioFixture[0] },
  done('loadAudio', audioFixture),
  fail('loadAudio'),
  done('uploadAudio', { ...audioFixture[0], id: 'au3', transcript: 'words' }),
  fail('uploadAudio'),
  done('deleteAudio', { success: true }),
  fail('deleteAudio'),
  done('setDefaultAudio', { success: true }),
  fail('setDefaultAudio'),
  done('transcribeAudio', { success: true, transcript: 'words' }),
  done('transcribeAudio', { success: false, message: 'No transcription engine configured' }),
  fail('transcribeAudio'),
  done('batchTranscribe', { count: 2 }),
  done('batchTranscribe', { count: 0 }),
  fail('batchTranscribe'),
  { type: AFTER.refetchFirst.type },
  { type: AFTER.refetchSecond.type },
  { type: AFTER.refetchThird.type },
];

// The walk tells states apart by value plus what the guards read; messages would only multiply states.
const serializeState = (s: ReferenceAudioSnapshot) =>
  JSON.stringify([
    s.value,
    s.status,
    s.context.upload.name !== '',
    s.context.upload.file !== null,
    s.context.audio.length > 0,
  ]);

/** Timers fire and actors answer only while they exist; the model is offered exactly those events. */
function canHappen(s: ReferenceAudioSnapshot, e: ModelEvent): boolean {
  if (s.status !== 'active') return false;
  const m = /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(e.type);
  if (m) return m[1] in s.children;
  const after = Object.values(AFTER).find((a) => a.type === e.type);
  if (after) {
    const stateId = after.type.split('.').slice(3).join('.');
    return s._nodes.some((n) => n.id === stateId);
  }
  return true;
}

function pathsFor(input: ReferenceAudioInput, events: ModelEvent[]) {
  const model = new TestModel(referenceAudioMachine, {
    input,
    events,
    serializeState: serializeState as never,
    filterEvents: canHappen as never,
  } as never);
  const all = model.getShortestPaths({ allowDuplicatePaths: true });
  // One (shortest) path per distinct state value keeps the suite small while still reaching every state.
  const byValue = new Map<string, (typeof all)[number]>();
  for (const p of all) {
    const key = JSON.stringify([(p.state as ReferenceAudioSnapshot).value, (p.state as ReferenceAudioSnapshot).status]);
    const seen = byValue.get(key);
    if (!seen || p.steps.length < seen.steps.length) byValue.set(key, p);
  }
  return [...byValue.values()];
}

function replay(input: ReferenceAudioInput) {
  const h = startReferenceAudio(input.agentId, (api) => Object.values(api).forEach((fake) => fake.hold()));
  const exec: Record<string, (step: { event: AnyEventObject }) => Promise<void>> = {};
  const send = async ({ event }: { event: AnyEventObject }) => {
    h.audio.send(event as ReferenceAudioEvent);
    await settle();
  };
  for (const e of audioEvents) {
    const m = /^xstate\.(done|error)\.actor\.(.+)$/.exec(e.type);
    const after = Object.values(AFTER).find((a) => a.type === e.type);
    if (m) {
      const fake = h.api[m[2] as ActorId] as { resolve: (v: unknown) => void; reject: (e: unknown) => void };
      exec[e.type] = async ({ event }) => {
        if (m[1] === 'done') fake.resolve((event as DoneEvent).output);
        else fake.reject((event as ErrorEvent).error);
        await settle();
      };
    } else if (after) {
      exec[e.type] = async () => {
        await vi.advanceTimersByTimeAsync(after.ms);
      };
    } else {
      exec[e.type] = send;
    }
  }
  return { ...h, exec };
}

// Paths are found on a coarse state key, so the snapshot a path ends in is recomputed exactly (pure
// `transition` over the same events) and that prediction is what the running chart must match.
function check(paths: ReturnType<typeof pathsFor>, input: ReferenceAudioInput) {
  for (const path of paths) {
    it(path.description.replace(/\(\{.*?\}\)/g, ''), async () => {
      const { audio, exec } = replay(input);
      let [predicted] = initialTransition(referenceAudioMachine, input);
      const predicting = Object.fromEntries(
        Object.entries(exec).map(([type, run]) => [
          type,
          async (step: { event: AnyEventObject }) => {
            [predicted] = transition(referenceAudioMachine, predicted, step.event as never);
            await run(step);
          },
        ]),
      );
      await settle();
      await path.test({
        events: predicting as never,
        states: {
          '*': () => {
            const got = audio.getSnapshot();
            expect(got.status).toBe(predicted.status);
            if (predicted.status === 'active') expect(got.value).toEqual(predicted.value);
            expect(got.context.audioError).toEqual(predicted.context.audioError);
            expect(got.context.audioNotice).toEqual(predicted.context.audioNotice);
          },
        },
      });
      audio.stop();
    });
  }
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('reference audio model', () => {
  const input: ReferenceAudioInput = { agentId: agentFixture.id };
  const paths = pathsFor(input, audioEvents);
  it('reaches every audio operation and every refetch step', () => {
    const values = paths.map((p) => JSON.stringify((p.state as ReferenceAudioSnapshot).value));
    for (const name of [
      'uploading',
      'confirmingDelete',
      'deleting',
      'settingDefault',
      'transcribing',
      'startingBatch',
      'first',
      'second',
      'third',
    ]) {
      expect(values.some((v) => v.includes(`"${name}"`))).toBe(true);
    }
  });
  check(paths, input);
});
