// The real microphone behind the recorder machine: getUserMedia at 44.1 kHz, a MediaRecorder writing
// webm/opus in 1 s chunks, and the finished clip handed back when the machine says stop. The browser pieces
// are injected so tests can run it with a fake MediaRecorder.
import { fromCallback } from 'xstate';
import type { MicrophoneCommand, MicrophoneEvent, MicrophoneInput } from '../machines/recorder.machine';

type RecorderLike = Pick<MediaRecorder, 'start' | 'stop' | 'state' | 'mimeType'> & {
  ondataavailable: ((e: { data: Blob }) => void) | null;
  onstop: (() => void) | null;
  onerror: ((e: unknown) => void) | null;
};

export interface MediaDeps {
  getUserMedia: (constraints: MediaStreamConstraints) => Promise<MediaStream>;
  createRecorder: (stream: MediaStream, options?: MediaRecorderOptions) => RecorderLike;
  isTypeSupported: (mimeType: string) => boolean;
  now: () => number;
}

export function browserMediaDeps(): MediaDeps {
  return {
    getUserMedia: (c) => {
      if (!navigator.mediaDevices?.getUserMedia) return Promise.reject(new Error('getUserMedia is not available'));
      return navigator.mediaDevices.getUserMedia(c);
    },
    createRecorder: (stream, options) => new MediaRecorder(stream, options) as unknown as RecorderLike,
    isTypeSupported: (t) => typeof MediaRecorder !== 'undefined' && MediaRecorder.isTypeSupported(t),
    now: () => Date.now(),
  };
}

const releaseStream = (stream: MediaStream | null) => stream?.getTracks().forEach((t) => t.stop());

export function createMicrophoneActor(deps: MediaDeps = browserMediaDeps()) {
  return fromCallback<MicrophoneCommand, MicrophoneInput>(({ sendBack, receive, input }) => {
    const send = (e: MicrophoneEvent) => sendBack(e);
    let stream: MediaStream | null = null;
    let recorder: RecorderLike | null = null;
    let disposed = false;
    const chunks: Blob[] = [];

    deps
      .getUserMedia({
        audio: { sampleRate: input.sampleRate, channelCount: 1, echoCancellation: true, noiseSuppression: true },
      })
      .then(
        (granted) => {
          if (disposed) return releaseStream(granted);
          stream = granted;
          try {
            // A browser without webm/opus records in its own default; the server checks the real content type.
            const options = deps.isTypeSupported(input.mimeType) ? { mimeType: input.mimeType } : undefined;
            recorder = deps.createRecorder(granted, options);
          } catch (e) {
            releaseStream(granted);
            send({ type: 'recorder.failed', reason: (e as Error).message });
            return;
          }
          const mimeType = recorder.mimeType || input.mimeType;
          recorder.ondataavailable = (e) => {
            if (e.data.size === 0) return;
            chunks.push(e.data);
            send({ type: 'recorder.chunk', size: e.data.size });
          };
          recorder.onstop = () => {
            releaseStream(stream);
            if (disposed) return;
            send({
              type: 'recorder.finished',
              clip: { blob: new Blob(chunks, { type: mimeType }), mimeType, recordedAt: deps.now() },
            });
          };
          recorder.onerror = (e) =>
            send({
              type: 'recorder.failed',
              reason: String((e as { error?: Error })?.error?.message ?? 'recorder error'),
            });
          recorder.start(input.chunkMs);
          send({ type: 'recorder.permitted' });
        },
        (e: unknown) => {
          if (!disposed) send({ type: 'recorder.denied', reason: (e as Error)?.message });
        },
      );

    receive((command) => {
      if (command.type === 'microphone.stop' && recorder && recorder.state !== 'inactive') recorder.stop();
    });

    return () => {
      disposed = true;
      if (recorder && recorder.state !== 'inactive') recorder.stop();
      releaseStream(stream);
    };
  });
}
