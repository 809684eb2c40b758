// An agent's reference voices in the editor drawer (docs/product.md#workspace-screens 'Agent editor',
// #workspace-states, #workspace-validation): the list, upload, record,
// set default, delete (with its confirmation), transcribe one or all, and the list fetched again 3 s, 6 s and
// 10 s after a batch transcription starts. The editor spawns one per open drawer; the recorder is its child.
//   unsaved — a new agent has no id yet: nothing can be attached to it (the messages say so)
//   active  — list | ops | refetch, side by side
import { assign, raise, spawnChild, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { AUDIO_MESSAGES } from '../schemas/messages';
import {
  audioDeleteMessage,
  audioListMessage,
  audioSetDefaultMessage,
  audioUploadMessage,
  batchTranscribeMessage,
  transcribeMessage,
} from '../model/agentFailures';
import { initialReferenceAudio } from '../model/referenceAudio';
import { uploadOutcome, uploadRequest } from '../model/audioUpload';
import { referenceAudioSetup } from './referenceAudio.setup';

export type { ReferenceAudioContext, ReferenceAudioEvent, ReferenceAudioInput } from '../model/referenceAudio';

export const referenceAudioMachine = referenceAudioSetup.createMachine({
  id: 'referenceAudio',
  context: ({ input }) => initialReferenceAudio(input),
  initial: 'checking',
  on: {
    'audio.upload.name': { actions: 'setUploadName' },
    'audio.upload.file': { actions: 'setUploadFile' },
    'audio.dismiss': { actions: 'dismissAudioMessages' },
  },
  states: {
    checking: {
      always: [{ guard: 'hasSavedAgent', target: 'active' }, { target: 'unsaved' }],
    },
    // A new agent has no id yet: nothing can be attached to it.
    unsaved: {
      on: {
        'audio.upload.submit': [
          { guard: 'isUploadIncomplete', actions: 'reportNameAndFileRequired' },
          { actions: 'reportSaveBeforeUpload' },
        ],
        'audio.record': { actions: 'reportSaveBeforeRecord' },
      },
    },
    active: {
      type: 'parallel',
      entry: spawnChild('recorder', { id: 'recorder', input: ({ context }) => ({ agentId: context.agentId! }) }),
      on: {
        'audio.record': { actions: ['dismissAudioMessages', 'startRecorder'] },
        'audio.record.stop': { actions: 'stopRecorder' },
        'recorder.saved': { actions: ['refetchAudio', assign({ lastTranscript: null })] },
      },
      states: {
        list: {
          initial: 'loading',
          on: { 'audio.refetch': '.loading' },
          states: {
            loading: {
              tags: ['audioLoading'],
              invoke: {
                id: 'loadAudio',
                src: 'loadAudio',
                input: ({ context }) => ({ agentId: context.agentId! }),
                onDone: { target: 'ready', actions: assign({ audio: ({ event }) => event.output }) },
                onError: {
                  target: 'ready',
                  actions: assign({ audioError: ({ event }) => audioListMessage(event.error) }),
                },
              },
            },
            ready: {},
          },
        },

        ops: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'audio.upload.submit': [
                  { guard: 'isUploadIncomplete', actions: 'reportNameAndFileRequired' },
                  { target: 'uploading', actions: 'dismissAudioMessages' },
                ],
                'audio.delete': { guard: 'isKnownAudio', target: 'confirmingDelete', actions: 'pickTargetAudio' },
                'audio.setDefault': {
                  guard: 'isKnownAudio',
                  target: 'settingDefault',
                  actions: ['pickTargetAudio', 'dismissAudioMessages'],
                },
                'audio.transcribe': {
                  guard: 'isKnownAudio',
                  target: 'transcribing',
                  actions: ['pickTargetAudio', 'dismissAudioMessages'],
                },
                'audio.transcribeAll': { target: 'startingBatch', actions: 'dismissAudioMessages' },
              },
            },
            uploading: {
              tags: ['uploading'],
              invoke: {
                id: 'uploadAudio',
                src: 'uploadAudio',
                input: ({ context }) => uploadRequest(context.agentId!, context.upload),
                onDone: {
                  target: 'idle',
                  actions: [assign(({ event }) => uploadOutcome(event.output)), 'clearUpload', 'refetchAudio'],
                },
                onError: {
                  target: 'idle',
                  actions: assign({ audioError: ({ event }) => audioUploadMessage(event.error) }),
                },
              },
            },
            confirmingDelete: {
              on: {
                'audio.delete.confirm': 'deleting',
                'audio.delete.cancel': { target: 'idle', actions: 'forgetTargetAudio' },
              },
            },
            deleting: {
              tags: ['audioBusy'],
              invoke: {
                id: 'deleteAudio',
                src: 'deleteAudio',
                input: ({ context }) => ({ audioId: context.targetAudio!.id }),
                onDone: { target: 'idle', actions: ['forgetTargetAudio', 'refetchAudio'] },
                onError: {
                  target: 'idle',
                  actions: [
                    assign({ audioError: ({ event }) => audioDeleteMessage(event.error) }),
                    'forgetTargetAudio',
                  ],
                },
              },
            },
            settingDefault: {
              tags: ['audioBusy'],
              invoke: {
                id: 'setDefaultAudio',
                src: 'setDefaultAudio',
                input: ({ context }) => ({ audioId: context.targetAudio!.id }),
                onDone: { target: 'idle', actions: ['forgetTargetAudio', 'refetchAudio'] },
                onError: {
                  target: 'idle',
                  actions: [
                    assign({ audioError: ({ event }) => audioSetDefaultMessage(event.error) }),
                    'forgetTargetAudio',
                  ],
                },
              },
            },
            transcribing: {
              tags: ['audioBusy'],
              invoke: {
                id: 'transcribeAudio',
                src: 'transcribeAudio',
                input: ({ context }) => ({ audioId: context.targetAudio!.id }),
                onDone: [
                  {
                    guard: ({ event }) => event.output.success === true,
                    target: 'idle',
                    actions: [
                      assign(({ context, event }) => ({
                        lastTranscript: { name: context.targetAudio!.name, text: event.output.transcript ?? '' },
                      })),
                      'forgetTargetAudio',
                      'refetchAudio',
                    ],
                  },
                  {
                    target: 'idle',
                    actions: [
                      assign({
                        audioError: ({ event }) =>
                          AUDIO_MESSAGES.transcriptionFailed(event.output.message ?? 'unknown reason'),
                      }),
                      'forgetTargetAudio',
                    ],
                  },
                ],
                onError: {
                  target: 'idle',
                  actions: [assign({ audioError: ({ event }) => transcribeMessage(event.error) }), 'forgetTargetAudio'],
                },
              },
            },
            startingBatch: {
              tags: ['audioBusy'],
              invoke: {
                id: 'batchTranscribe',
                src: 'batchTranscribe',
                input: ({ context }) => ({ agentId: context.agentId! }),
                onDone: [
                  {
                    guard: ({ event }) => event.output.count > 0,
                    target: 'idle',
                    actions: [
                      assign({ audioNotice: ({ event }) => AUDIO_MESSAGES.batchStarted(event.output.count) }),
                      raise({ type: 'audio.batch.started' }),
                    ],
                  },
                  { target: 'idle', actions: assign({ audioNotice: AUDIO_MESSAGES.nothingToTranscribe }) },
                ],
                onError: {
                  target: 'idle',
                  actions: assign({ audioError: ({ event }) => batchTranscribeMessage(event.error) }),
                },
              },
            },
          },
        },

        // After a batch starts, the list is fetched again at 3 s, 6 s and 10 s (docs/product.md#workspace-states).
        refetch: {
          initial: 'off',
          on: { 'audio.batch.started': '.first' },
          states: {
            off: {},
            first: { after: { refetchFirst: { target: 'second', actions: 'refetchAudio' } } },
            second: { after: { refetchSecond: { target: 'third', actions: 'refetchAudio' } } },
            third: { after: { refetchThird: { target: 'off', actions: 'refetchAudio' } } },
          },
        },
      },
    },
  },
});

export type ReferenceAudioActorRef = ActorRefFrom<typeof referenceAudioMachine>;
export type ReferenceAudioSnapshot = SnapshotFrom<typeof referenceAudioMachine>;
