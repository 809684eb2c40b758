// Model-based paths for the recorder: xstate/graph walks the chart (feeding the events its actors would
// produce), and every shortest path is replayed against a running recorder whose microphone and upload are
// test doubles driven by those same events.
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, type SnapshotFrom } from 'xstate';
import { TestModel } from 'xstate/graph';
import {
  recorderMachine,
  type MicrophoneEvent,
  type RecorderEvent,
  type UploadRecordingInput,
} from '../../src/machines/recorder.machine';
import type { AudioItem } from '../../src/schemas/audio';
import { deferred } from '../support/harness';
import { reachedValues, replayEachPath } from '../support/modelPaths';

type Snap = SnapshotFrom<typeof recorderMachine>;
type DoneUpload = { type: 'xstate.done.actor.uploadRecording'; output: AudioItem };
type FailUpload = { type: 'xstate.error.actor.uploadRecording'; error: unknown };
type ModelEvent = RecorderEvent | DoneUpload | FailUpload;

const item: AudioItem = { id: 'a1', name: 'Recording', audio_url: '/media/a1', is_default: false };
const clip = { blob: new Blob([new Uint8Array(4)]), mimeType: 'audio/webm', recordedAt: 0 };

// One fixture per event the recorder can receive; `satisfies` makes a new event without a fixture a type error.
const fixtures = {
  'recorder.start': [{ type: 'recorder.start' }],
  'recorder.stop': [{ type: 'recorder.stop' }],
  'recorder.dismiss': [{ type: 'recorder.dismiss' }],
  'recorder.permitted': [{ type: 'recorder.permitted' }],
  'recorder.denied': [{ type: 'recorder.denied', reason: 'NotAllowedError' }],
  'recorder.chunk': [{ type: 'recorder.chunk', size: 4 }],
  'recorder.finished': [{ type: 'recorder.finished', clip }],
  'recorder.failed': [{ type: 'recorder.failed', reason: 'boom' }],
  'xstate.done.actor.uploadRecording': [{ type: 'xstate.done.actor.uploadRecording', output: item }],
  'xstate.error.actor.uploadRecording': [{ type: 'xstate.error.actor.uploadRecording', error: { status: 500 } }],
} satisfies { [K in ModelEvent['type']]: Extract<ModelEvent, { type: K }>[] };

const allEvents = Object.values(fixtures).flat() as ModelEvent[];

// States are told apart by value, error and whether a clip is held (chunk counts would make the graph infinite).
const serializeState = (s: Snap) => JSON.stringify([s.value, s.context.error, s.context.clip !== null]);

function sut() {
  let micSend: ((e: MicrophoneEvent) => void) | null = null;
  const upload = deferred<AudioItem, UploadRecordingInput>();
  const machine = standalone.provide({
    actors: {
      microphone: fromCallback(({ sendBack, receive }) => {
        micSend = sendBack;
        receive(() => undefined);
        return () => {
          micSend = null;
        };
      }),
      uploadRecording: upload.logic,
    },
  });
  const actor = createActor(machine, { input: { agentId: 'agent-1' } }).start();
  const flush = () => new Promise((r) => setTimeout(r, 0));
  const fromMicrophone = async (e: MicrophoneEvent) => {
    // The real microphone can only speak while it is open; the model may try otherwise, and then it's a no-op.
    if (micSend) micSend(e);
    else actor.send(e);
    await flush();
  };
  return {
    actor,
    exec: {
      'recorder.start': async () => actor.send({ type: 'recorder.start' }),
      'recorder.stop': async () => actor.send({ type: 'recorder.stop' }),
      'recorder.dismiss': async () => actor.send({ type: 'recorder.dismiss' }),
      'recorder.permitted': ({ event }: { event: ModelEvent }) => fromMicrophone(event as MicrophoneEvent),
      'recorder.denied': ({ event }: { event: ModelEvent }) => fromMicrophone(event as MicrophoneEvent),
      'recorder.chunk': ({ event }: { event: ModelEvent }) => fromMicrophone(event as MicrophoneEvent),
      'recorder.finished': ({ event }: { event: ModelEvent }) => fromMicrophone(event as MicrophoneEvent),
      'recorder.failed': ({ event }: { event: ModelEvent }) => fromMicrophone(event as MicrophoneEvent),
      'xstate.done.actor.uploadRecording': async () => {
        upload.resolve(item);
        await flush();
      },
      'xstate.error.actor.uploadRecording': async () => {
        upload.reject({ status: 500 });
        await flush();
      },
    } satisfies Record<ModelEvent['type'], unknown>,
  };
}

// Standalone (no parent to tell), so the parent notification is a no-op here; recorder.test.ts covers it.
const standalone = recorderMachine.provide({ actions: { notifySaved: () => undefined } });

describe('recorder model', () => {
  const model = new TestModel(standalone, {
    input: { agentId: 'agent-1' },
    events: allEvents,
    serializeState: serializeState as never,
    // Done/error events only exist while the upload runs; anywhere else the real actor cannot produce them.
    filterEvents: (s: Snap, e: ModelEvent) => !e.type.startsWith('xstate.') || s.matches('saving'),
  } as never);
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches every state the chart has', () => {
    expect(reachedValues(paths)).toEqual(
      [
        '"idle"',
        '"saving"',
        '"error"',
        '{"microphoneOpen":"requestingPermission"}',
        '{"microphoneOpen":{"recording":"capturing"}}',
        '{"microphoneOpen":{"recording":"finishing"}}',
      ].sort(),
    );
  });

  replayEachPath<Snap>(paths, sut, (got, expected) => {
    expect(got.value).toEqual(expected.value);
    expect(got.context.error).toEqual(expected.context.error);
  });
});
