// The reference-audio upload form of the editor drawer (docs/product.md#workspace-screens, #workspace-states): the
// draft, when it may be sent, what is sent, and what the server's answer leaves on screen. referenceAudio.machine.ts
// runs the upload itself.
import type { AudioUploadResponse } from '../schemas/audio';

export interface UploadDraft {
  name: string;
  file: Blob | null;
  fileName: string;
}

export const emptyUpload: UploadDraft = { name: '', file: null, fileName: '' };

/** The server needs both a name and a file; a name of spaces is no name. */
export const isUploadIncomplete = (draft: UploadDraft) => draft.name.trim() === '' || draft.file === null;

/** Only called once the draft is complete; a file that came without a name is sent as 'audio'. */
export const uploadRequest = (agentId: string, draft: UploadDraft) => ({
  agentId,
  name: draft.name.trim(),
  file: draft.file!,
  fileName: draft.fileName || 'audio',
});

/** Auto-transcription's result: the transcript to show under the form, or why there is none. */
export const uploadOutcome = (answer: AudioUploadResponse) => ({
  lastTranscript: answer.transcript ? { name: answer.name, text: answer.transcript } : null,
  audioNotice: answer.transcription_error ?? null,
});
