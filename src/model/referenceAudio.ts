// The reference voices of one agent (the editor drawer's audio part): what the chart holds and hears.
// Pure; the chart is src/machines/referenceAudio.machine.ts.
import type { AudioItem } from '../schemas/audio';
import { emptyUpload, type UploadDraft } from './audioUpload';

/** The recorder tells its parent (the editor) once the clip is stored. */
export type RecorderSavedEvent = { type: 'recorder.saved'; item: AudioItem };

export interface ReferenceAudioInput {
  /** The agent the voices belong to; null while the agent is not saved yet. */
  agentId: string | null;
}

export interface ReferenceAudioContext {
  agentId: string | null;
  audio: AudioItem[];
  audioError: string | null;
  audioNotice: string | null;
  upload: UploadDraft;
  /** The transcript the last upload or transcription returned, shown under the form. */
  lastTranscript: { name: string; text: string } | null;
  /** The item an operation (delete, set default, transcribe) is working on. */
  targetAudio: AudioItem | null;
}

export type ReferenceAudioEvent =
  | { type: 'audio.upload.name'; value: string }
  | { type: 'audio.upload.file'; file: Blob | null; fileName: string }
  | { type: 'audio.upload.submit' }
  | { type: 'audio.delete'; audioId: string }
  | { type: 'audio.delete.confirm' }
  | { type: 'audio.delete.cancel' }
  | { type: 'audio.setDefault'; audioId: string }
  | { type: 'audio.transcribe'; audioId: string }
  | { type: 'audio.transcribeAll' }
  | { type: 'audio.record' }
  | { type: 'audio.record.stop' }
  | { type: 'audio.dismiss' }
  | { type: 'audio.refetch' }
  | { type: 'audio.batch.started' }
  | RecorderSavedEvent;

export const initialReferenceAudio = (input: ReferenceAudioInput): ReferenceAudioContext => ({
  agentId: input.agentId,
  audio: [],
  audioError: null,
  audioNotice: null,
  upload: emptyUpload,
  lastTranscript: null,
  targetAudio: null,
});
