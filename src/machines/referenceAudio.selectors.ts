// What the drawer's reference-audio section shows, derived from the referenceAudio snapshot.
import { TRANSCRIPT_PREVIEW_CHARS } from '../schemas/constants';
import type { AudioItem } from '../schemas/audio';
import type { ReferenceAudioSnapshot } from './referenceAudio.machine';
import type { RecorderActorRef } from './recorder.machine';

export const selectAudioEnabled = (s: ReferenceAudioSnapshot) => s.matches('active');
/** The agent is not saved yet, so no reference audio can be attached to it. */
export const selectIsAudioUnsaved = (s: ReferenceAudioSnapshot) => s.matches('unsaved');
export const selectAudioItems = (s: ReferenceAudioSnapshot) => s.context.audio;
export const selectAudioError = (s: ReferenceAudioSnapshot) => s.context.audioError;
export const selectAudioNotice = (s: ReferenceAudioSnapshot) => s.context.audioNotice;
export const selectUploadDraft = (s: ReferenceAudioSnapshot) => s.context.upload;
export const selectLastTranscript = (s: ReferenceAudioSnapshot) => s.context.lastTranscript;
export const selectIsUploading = (s: ReferenceAudioSnapshot) => s.hasTag('uploading');
export const selectIsAudioBusy = (s: ReferenceAudioSnapshot) => s.hasTag('uploading') || s.hasTag('audioBusy');
export const selectIsAudioLoading = (s: ReferenceAudioSnapshot) => s.hasTag('audioLoading');
export const selectTargetAudioId = (s: ReferenceAudioSnapshot) => s.context.targetAudio?.id ?? null;
export const selectPendingAudioDelete = (s: ReferenceAudioSnapshot) =>
  s.matches({ active: { ops: 'confirmingDelete' } }) ? s.context.targetAudio : null;
export const selectUntranscribedCount = (s: ReferenceAudioSnapshot) => s.context.audio.filter(isUntranscribed).length;
export const selectRecorderRef = (s: ReferenceAudioSnapshot) => s.children.recorder as RecorderActorRef | undefined;

export const isUntranscribed = (a: AudioItem) => !a.transcript || a.transcript.trim() === '';

/** The first TRANSCRIPT_PREVIEW_CHARS characters, with an ellipsis when there was more. */
export function transcriptPreview(text: string): string {
  const chars = Array.from(text.trim());
  return chars.length > TRANSCRIPT_PREVIEW_CHARS
    ? `${chars.slice(0, TRANSCRIPT_PREVIEW_CHARS).join('')}…`
    : chars.join('');
}
