// The reference voices chart's vocabulary (the chart itself: referenceAudio.machine.ts): the list, upload,
// delete, default and transcription calls it invokes, the recorder it spawns, the three refetch delays after a batch
// transcription, the guards it asks and the actions that change the upload form and the messages. When each runs
// is the chart's business.
import { assertEvent, assign, fromPromise, raise, sendTo, setup } from 'xstate';
import type { AudioItem, AudioUploadResponse, BatchTranscribeResponse, TranscribeResponse } from '../schemas/audio';
import { BATCH_TRANSCRIBE_REFETCH_MS } from '../schemas/constants';
import { AUDIO_MESSAGES } from '../schemas/messages';
import { notProvided } from './kit/actorKit';
import type { ReferenceAudioContext, ReferenceAudioEvent, ReferenceAudioInput } from '../model/referenceAudio';
import { emptyUpload, isUploadIncomplete } from '../model/audioUpload';
import { recorderMachine, type UploadRecordingInput } from './recorder.machine';

const [REFETCH_1, REFETCH_2, REFETCH_3] = BATCH_TRANSCRIBE_REFETCH_MS;

export const referenceAudioSetup = setup({
  types: {
    context: {} as ReferenceAudioContext,
    events: {} as ReferenceAudioEvent,
    input: {} as ReferenceAudioInput,
  },
  actors: {
    loadAudio: fromPromise<AudioItem[], { agentId: string }>(notProvided('referenceAudio', 'loadAudio')),
    uploadAudio: fromPromise<AudioUploadResponse, UploadRecordingInput>(notProvided('referenceAudio', 'uploadAudio')),
    deleteAudio: fromPromise<unknown, { audioId: string }>(notProvided('referenceAudio', 'deleteAudio')),
    setDefaultAudio: fromPromise<unknown, { audioId: string }>(notProvided('referenceAudio', 'setDefaultAudio')),
    transcribeAudio: fromPromise<TranscribeResponse, { audioId: string }>(
      notProvided('referenceAudio', 'transcribeAudio'),
    ),
    batchTranscribe: fromPromise<BatchTranscribeResponse, { agentId: string }>(
      notProvided('referenceAudio', 'batchTranscribe'),
    ),
    recorder: recorderMachine,
  },
  delays: {
    refetchFirst: REFETCH_1,
    refetchSecond: REFETCH_2 - REFETCH_1,
    refetchThird: REFETCH_3 - REFETCH_2,
  },
  guards: {
    hasSavedAgent: ({ context }) => context.agentId !== null,
    isUploadIncomplete: ({ context }) => isUploadIncomplete(context.upload),
    isKnownAudio: ({ context, event }) => {
      assertEvent(event, ['audio.delete', 'audio.setDefault', 'audio.transcribe']);
      return context.audio.some((a) => a.id === event.audioId);
    },
  },
  actions: {
    setUploadName: assign({
      upload: ({ context, event }) => {
        assertEvent(event, 'audio.upload.name');
        return { ...context.upload, name: event.value };
      },
    }),
    setUploadFile: assign({
      upload: ({ context, event }) => {
        assertEvent(event, 'audio.upload.file');
        return { ...context.upload, file: event.file, fileName: event.fileName };
      },
    }),
    clearUpload: assign({ upload: emptyUpload }),
    pickTargetAudio: assign({
      targetAudio: ({ context, event }) => {
        assertEvent(event, ['audio.delete', 'audio.setDefault', 'audio.transcribe']);
        return context.audio.find((a) => a.id === event.audioId) ?? null;
      },
    }),
    forgetTargetAudio: assign({ targetAudio: null }),
    dismissAudioMessages: assign({ audioError: null, audioNotice: null }),
    reportNameAndFileRequired: assign({ audioError: AUDIO_MESSAGES.nameAndFileRequired, audioNotice: null }),
    reportSaveBeforeUpload: assign({ audioError: AUDIO_MESSAGES.saveBeforeUpload, audioNotice: null }),
    reportSaveBeforeRecord: assign({ audioError: AUDIO_MESSAGES.saveBeforeRecord, audioNotice: null }),
    refetchAudio: raise({ type: 'audio.refetch' }),
    startRecorder: sendTo('recorder', { type: 'recorder.start' }),
    stopRecorder: sendTo('recorder', { type: 'recorder.stop' }),
  },
});
