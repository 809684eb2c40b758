import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromPromise, setup, type AnyActorRef } from 'xstate';
import {
  recorderMachine,
  type RecorderSavedEvent,
  type UploadRecordingInput,
} from '../../src/machines/recorder.machine';
import { createMicrophoneActor, type MediaDeps } from '../../src/services/recorder';
import type { AudioItem } from '../../src/schemas/audio';
import { AUDIO_MESSAGES } from '../../src/schemas/messages';
import {
  RECORDING_CHUNK_MS,
  RECORDING_MIME_TYPE,
  RECORDING_SAMPLE_RATE,
  recordingName,
} from '../../src/schemas/constants';

/** A MediaRecorder double: emits a chunk per `tick()`, and on stop a last chunk then `onstop`. */
class FakeMediaRecorder {
  static instances: FakeMediaRecorder[] = [];
  state: 'inactive' | 'recording' = 'inactive';
  timeslice: number | undefined;
  ondataavailable: ((e: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;
  constructor(
    readonly stream: MediaStream,
    readonly options?: MediaRecorderOptions,
  ) {
    FakeMediaRecorder.instances.push(this);
  }
  get mimeType() {
    return this.options?.mimeType ?? 'audio/webm';
  }
  start(timeslice?: number) {
    this.timeslice = timeslice;
    this.state = 'recording';
  }
  tick(bytes = 100) {
    this.ondataavailable?.({ data: new Blob([new Uint8Array(bytes)]) });
  }
  stop() {
    this.tick(10);
    this.state = 'inactive';
    this.onstop?.();
  }
}

function fakeStream() {
  const track = { stop: vi.fn() };
  return { stream: { getTracks: () => [track] } as unknown as MediaStream, track };
}

function fakeDeps(opts: { deny?: boolean } = {}) {
  const { stream, track } = fakeStream();
  const getUserMedia = vi.fn((_c: MediaStreamConstraints) =>
    opts.deny ? Promise.reject(new DOMException('Permission denied', 'NotAllowedError')) : Promise.resolve(stream),
  );
  const deps: MediaDeps = {
    getUserMedia,
    createRecorder: (s, o) => new FakeMediaRecorder(s, o) as never,
    isTypeSupported: (t) => t === RECORDING_MIME_TYPE,
    now: () => Date.UTC(2025, 0, 2, 3, 4, 5),
  };
  return { deps, getUserMedia, track };
}

const savedItem: AudioItem = { id: 'a1', name: 'x', audio_url: '/media/x', is_default: false };

/** The recorder under a stand-in parent, so its 'recorder.saved' can be observed. */
function start(deps: MediaDeps, upload: (input: UploadRecordingInput) => Promise<AudioItem>) {
  const saved: RecorderSavedEvent[] = [];
  const recorder = recorderMachine.provide({
    actors: {
      microphone: createMicrophoneActor(deps),
      uploadRecording: fromPromise<AudioItem, UploadRecordingInput>(({ input }) => upload(input)),
    },
  });
  const parent = setup({ actors: { recorder } }).createMachine({
    invoke: { id: 'recorder', src: 'recorder', input: { agentId: 'agent-1' } },
    on: {
      'recorder.saved': { actions: ({ event }) => saved.push(event as RecorderSavedEvent) },
    },
  });
  const actor = createActor(parent).start();
  const rec = actor.getSnapshot().children.recorder as AnyActorRef;
  return { actor, rec, saved };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('recorder machine with a fake MediaRecorder', () => {
  beforeEach(() => {
    FakeMediaRecorder.instances = [];
  });

  it('asks for the microphone at 44.1 kHz, records webm/opus in 1 s chunks and saves "Recording {date}"', async () => {
    const { deps, getUserMedia, track } = fakeDeps();
    const uploads: UploadRecordingInput[] = [];
    let release!: (a: AudioItem) => void;
    const { rec, saved } = start(deps, (input) => {
      uploads.push(input);
      return new Promise((r) => (release = r));
    });

    expect(rec.getSnapshot().value).toBe('idle');
    rec.send({ type: 'recorder.start' });
    expect(rec.getSnapshot().value).toEqual({ microphoneOpen: 'requestingPermission' });
    expect(getUserMedia.mock.calls[0][0]).toMatchObject({ audio: { sampleRate: RECORDING_SAMPLE_RATE } });

    await flush();
    expect(rec.getSnapshot().matches({ microphoneOpen: 'recording' })).toBe(true);
    expect(rec.getSnapshot().hasTag('recording')).toBe(true);
    const mr = FakeMediaRecorder.instances[0];
    expect(mr.options?.mimeType).toBe(RECORDING_MIME_TYPE);
    expect(mr.timeslice).toBe(RECORDING_CHUNK_MS);

    mr.tick();
    mr.tick();
    expect(rec.getSnapshot().context.chunks).toBe(2);

    rec.send({ type: 'recorder.stop' });
    expect(rec.getSnapshot().value).toBe('saving');
    expect(track.stop).toHaveBeenCalled();
    expect(uploads).toHaveLength(1);
    expect(uploads[0].agentId).toBe('agent-1');
    expect(uploads[0].name).toBe(recordingName(new Date(Date.UTC(2025, 0, 2, 3, 4, 5))));
    expect(uploads[0].name.startsWith('Recording ')).toBe(true);
    expect(uploads[0].file.size).toBe(210);
    expect(uploads[0].file.type).toBe(RECORDING_MIME_TYPE);

    release(savedItem);
    await flush();
    expect(rec.getSnapshot().value).toBe('idle');
    expect(saved).toEqual([{ type: 'recorder.saved', item: savedItem }]);
  });

  it('denied permission ends in error with the microphone message; start again retries', async () => {
    const { deps } = fakeDeps({ deny: true });
    const { rec } = start(deps, async () => savedItem);
    rec.send({ type: 'recorder.start' });
    await flush();
    expect(rec.getSnapshot().value).toBe('error');
    expect(rec.getSnapshot().context.error).toBe(AUDIO_MESSAGES.microphoneDenied);
    rec.send({ type: 'recorder.dismiss' });
    expect(rec.getSnapshot().value).toBe('idle');
    expect(rec.getSnapshot().context.error).toBeNull();
  });

  it('a failed save reads "Failed to save recording" (server said no) or "Error saving recording" (unreachable)', async () => {
    const { deps } = fakeDeps();
    let n = 0;
    const { rec } = start(deps, async () => {
      n += 1;
      if (n === 1) throw Object.assign(new Error('HTTP 500'), { status: 500 });
      throw new TypeError('Failed to fetch');
    });
    for (const expected of [AUDIO_MESSAGES.saveRecordingFailed, AUDIO_MESSAGES.saveRecordingError]) {
      rec.send({ type: 'recorder.start' });
      await flush();
      rec.send({ type: 'recorder.stop' });
      await flush();
      expect(rec.getSnapshot().value).toBe('error');
      expect(rec.getSnapshot().context.error).toBe(expected);
    }
  });

  it('stopping the recorder mid-take releases the microphone without saving', async () => {
    const { deps, track } = fakeDeps();
    const upload = vi.fn(async () => savedItem);
    const { actor, rec } = start(deps, upload);
    rec.send({ type: 'recorder.start' });
    await flush();
    actor.stop();
    expect(track.stop).toHaveBeenCalled();
    expect(upload).not.toHaveBeenCalled();
  });

  it('permission granted after the recorder went away releases the stream at once', async () => {
    const { stream, track } = fakeStream();
    let grant!: (s: MediaStream) => void;
    const { deps } = fakeDeps();
    deps.getUserMedia = () => new Promise((r) => (grant = r));
    const { actor, rec } = start(deps, async () => savedItem);
    rec.send({ type: 'recorder.start' });
    actor.stop();
    grant(stream);
    await flush();
    expect(track.stop).toHaveBeenCalled();
    expect(FakeMediaRecorder.instances).toHaveLength(0);
  });

  it('an empty take (no bytes) goes back to idle without an upload', () => {
    const upload = vi.fn();
    const machine = recorderMachine.provide({
      actors: {
        microphone: createMachine({}) as never,
        uploadRecording: fromPromise(async () => {
          upload();
          return savedItem;
        }),
      },
    });
    const actor = createActor(machine, { input: { agentId: 'a' } }).start();
    actor.send({ type: 'recorder.start' });
    actor.send({ type: 'recorder.permitted' });
    actor.send({ type: 'recorder.finished', clip: { blob: new Blob([]), mimeType: 'audio/webm', recordedAt: 0 } });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(upload).not.toHaveBeenCalled();
  });
});
