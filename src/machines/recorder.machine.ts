// Records a reference voice and saves it to the agent (docs/product.md#workspace-states, #workspace-validation,
// #workspace-limits): idle → requestingPermission → recording → saving → idle, or error. The microphone itself is the
// `microphone` callback actor (real one in src/services/recorder.ts); it asks for permission, records webm/opus in 1 s
// chunks and, when told to stop, answers with the finished clip.
import { assertEvent, assign, fromCallback, fromPromise, sendParent, sendTo, setup, type ActorRefFrom } from 'xstate';
import type { AudioItem } from '../schemas/audio';
import { AUDIO_MESSAGES } from '../schemas/messages';
import { RECORDING_CHUNK_MS, RECORDING_MIME_TYPE, RECORDING_SAMPLE_RATE, recordingName } from '../schemas/constants';
import { recordingSaveMessage } from '../model/agentFailures';
import { notProvided } from './kit/actorKit';
import type { RecorderSavedEvent } from '../model/referenceAudio';

export interface RecordedClip {
  blob: Blob;
  mimeType: string;
  /** When the recording ended (epoch ms); the clip's name is made from it. */
  recordedAt: number;
}

export interface MicrophoneInput {
  mimeType: string;
  sampleRate: number;
  chunkMs: number;
}

/** What the microphone actor tells the recorder. */
export type MicrophoneEvent =
  | { type: 'recorder.permitted' }
  | { type: 'recorder.denied'; reason?: string }
  | { type: 'recorder.chunk'; size: number }
  | { type: 'recorder.finished'; clip: RecordedClip }
  | { type: 'recorder.failed'; reason?: string };

/** What the recorder tells the microphone actor. */
export type MicrophoneCommand = { type: 'microphone.stop' };

export type RecorderEvent =
  | { type: 'recorder.start' }
  | { type: 'recorder.stop' }
  | { type: 'recorder.dismiss' }
  | MicrophoneEvent;

export interface RecorderInput {
  agentId: string;
}

export interface RecorderContext {
  agentId: string;
  chunks: number;
  bytes: number;
  clip: RecordedClip | null;
  error: string | null;
}

export interface UploadRecordingInput {
  agentId: string;
  name: string;
  file: Blob;
  fileName: string;
}

export type { RecorderSavedEvent } from '../model/referenceAudio';

export const recorderMachine = setup({
  types: {
    context: {} as RecorderContext,
    events: {} as RecorderEvent,
    input: {} as RecorderInput,
  },
  actors: {
    microphone: fromCallback<MicrophoneCommand, MicrophoneInput>(notProvided('recorder', 'microphone')),
    uploadRecording: fromPromise<AudioItem, UploadRecordingInput>(notProvided('recorder', 'uploadRecording')),
  },
  actions: {
    resetTake: assign({ chunks: 0, bytes: 0, clip: null, error: null }),
    countChunk: assign(({ context, event }) => {
      assertEvent(event, 'recorder.chunk');
      return { chunks: context.chunks + 1, bytes: context.bytes + event.size };
    }),
    keepClip: assign({
      clip: ({ event }) => {
        assertEvent(event, 'recorder.finished');
        return event.clip;
      },
    }),
    stopMicrophone: sendTo('microphone', { type: 'microphone.stop' } satisfies MicrophoneCommand),
    reportMicrophoneDenied: assign({ error: AUDIO_MESSAGES.microphoneDenied }),
    reportRecordingFailed: assign({ error: AUDIO_MESSAGES.saveRecordingError }),
    forgetClip: assign({ clip: null }),
    clearError: assign({ error: null }),
    notifySaved: sendParent(
      (_, params: { item: AudioItem }) => ({ type: 'recorder.saved', item: params.item }) satisfies RecorderSavedEvent,
    ),
  },
  guards: {
    hasAudio: ({ event }) => {
      assertEvent(event, 'recorder.finished');
      return event.clip.blob.size > 0;
    },
  },
}).createMachine({
  id: 'recorder',
  context: ({ input }) => ({ agentId: input.agentId, chunks: 0, bytes: 0, clip: null, error: null }),
  initial: 'idle',
  states: {
    idle: {
      on: { 'recorder.start': { target: 'microphoneOpen', actions: 'resetTake' } },
    },
    // One microphone actor lives across asking and recording: it owns the stream it was granted, and leaving
    // this state (finished, failed, or the editor closing) releases it.
    microphoneOpen: {
      tags: ['busy'],
      invoke: {
        id: 'microphone',
        src: 'microphone',
        input: { mimeType: RECORDING_MIME_TYPE, sampleRate: RECORDING_SAMPLE_RATE, chunkMs: RECORDING_CHUNK_MS },
      },
      initial: 'requestingPermission',
      states: {
        requestingPermission: {
          on: {
            'recorder.permitted': 'recording',
            'recorder.denied': { target: '#recorder.error', actions: 'reportMicrophoneDenied' },
            'recorder.failed': { target: '#recorder.error', actions: 'reportMicrophoneDenied' },
            'recorder.stop': '#recorder.idle',
          },
        },
        recording: {
          tags: ['recording'],
          initial: 'capturing',
          states: {
            capturing: {
              on: { 'recorder.stop': { target: 'finishing', actions: 'stopMicrophone' } },
            },
            // Stop asked; the last chunk and the assembled clip are still on their way.
            finishing: {},
          },
          on: {
            'recorder.chunk': { actions: 'countChunk' },
            'recorder.finished': [
              { guard: 'hasAudio', target: '#recorder.saving', actions: 'keepClip' },
              { target: '#recorder.idle' },
            ],
            'recorder.failed': { target: '#recorder.error', actions: 'reportRecordingFailed' },
          },
        },
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'uploadRecording',
        src: 'uploadRecording',
        input: ({ context }) => ({
          agentId: context.agentId,
          name: recordingName(new Date(context.clip!.recordedAt)),
          file: context.clip!.blob,
          fileName: `recording-${context.clip!.recordedAt}.webm`,
        }),
        onDone: {
          target: 'idle',
          actions: ['forgetClip', { type: 'notifySaved', params: ({ event }) => ({ item: event.output }) }],
        },
        onError: {
          target: 'error',
          actions: ['forgetClip', assign({ error: ({ event }) => recordingSaveMessage(event.error) })],
        },
      },
    },
    error: {
      on: {
        'recorder.start': { target: 'microphoneOpen', actions: 'resetTake' },
        'recorder.dismiss': { target: 'idle', actions: 'clearError' },
      },
    },
  },
});

export type RecorderActorRef = ActorRefFrom<typeof recorderMachine>;
