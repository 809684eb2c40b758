// What the editor drawer shows, derived from its snapshot (never stored in context).
import { AGENT_MESSAGES } from '../schemas/messages';
import { TRANSCRIPT_PREVIEW_CHARS } from '../schemas/constants';
import type { AudioItem } from '../schemas/audio';
import type { ModelOption } from '../schemas/system';
import type { EditorSnapshot } from './editor.machine';
import type { RecorderActorRef } from './recorder.machine';

export const selectMode = (s: EditorSnapshot) => s.context.mode;
export const selectFields = (s: EditorSnapshot) => s.context.fields;
export const selectIsLoading = (s: EditorSnapshot) => s.hasTag('loading');
export const selectIsSaving = (s: EditorSnapshot) => s.hasTag('saving');
export const selectIsDeleting = (s: EditorSnapshot) => s.hasTag('deleting');
export const selectWasCreated = (s: EditorSnapshot) => s.hasTag('created');
/** An update just succeeded (for SAVED_NOTICE_MS): the drawer says 'Saved'. */
export const selectWasJustSaved = (s: EditorSnapshot) => s.hasTag('saved');
export const selectCanSubmit = (s: EditorSnapshot) => s.can({ type: 'editor.submit' });
export const selectLoadError = (s: EditorSnapshot) => s.context.loadError;
export const selectFormError = (s: EditorSnapshot) => s.context.formError;
export const selectIsConfirmingDelete = (s: EditorSnapshot) => s.matches({ open: { form: 'confirmingDelete' } });
export const selectModelsLoading = (s: EditorSnapshot) => s.matches({ open: { models: 'loading' } });

/** The options of the model select: the list, plus the agent's own model when the list does not have it. */
export function selectModelOptions(s: EditorSnapshot): ModelOption[] {
  const { models, fields } = s.context;
  if (!fields.model || models.some((m) => m.value === fields.model)) return models;
  return [...models, { value: fields.model, label: fields.model, offline: false }];
}

/** Title shown in the drawer; an agent that could not be fetched reads 'Agent' + the tail of its id. */
export function selectAgentHeading(s: EditorSnapshot): { name: string; role: string } {
  const { agent, agentId, mode, loadError } = s.context;
  if (mode === 'create') return { name: 'Create Agent', role: '' };
  if (loadError && agentId) return { name: AGENT_MESSAGES.fallbackName(agentId), role: AGENT_MESSAGES.fallbackRole };
  return { name: agent?.name ?? (agentId ? AGENT_MESSAGES.fallbackName(agentId) : ''), role: agent?.role ?? '' };
}

export const selectDeleteConfirmation = (s: EditorSnapshot) =>
  AGENT_MESSAGES.deleteConfirm(s.context.agent?.name ?? s.context.fields.name, s.context.audio.length);

// ── Reference audio ─────────────────────────────────────────────────────────
export const selectAudioEnabled = (s: EditorSnapshot) => s.matches({ open: { audio: 'active' } });
/** The agent is not saved yet, so no reference audio can be attached to it. */
export const selectIsAudioUnsaved = (s: EditorSnapshot) => s.matches({ open: { audio: 'unsaved' } });
export const selectAudioItems = (s: EditorSnapshot) => s.context.audio;
export const selectAudioError = (s: EditorSnapshot) => s.context.audioError;
export const selectAudioNotice = (s: EditorSnapshot) => s.context.audioNotice;
export const selectUploadDraft = (s: EditorSnapshot) => s.context.upload;
export const selectLastTranscript = (s: EditorSnapshot) => s.context.lastTranscript;
export const selectIsUploading = (s: EditorSnapshot) => s.hasTag('uploading');
export const selectIsAudioBusy = (s: EditorSnapshot) => s.hasTag('uploading') || s.hasTag('audioBusy');
export const selectIsAudioLoading = (s: EditorSnapshot) => s.hasTag('audioLoading');
export const selectTargetAudioId = (s: EditorSnapshot) => s.context.targetAudio?.id ?? null;
export const selectPendingAudioDelete = (s: EditorSnapshot) =>
  s.matches({ open: { audio: { active: { ops: 'confirmingDelete' } } } }) ? s.context.targetAudio : null;
export const selectUntranscribedCount = (s: EditorSnapshot) => s.context.audio.filter(isUntranscribed).length;
export const selectRecorderRef = (s: EditorSnapshot) => s.children.recorder as RecorderActorRef | undefined;

export const isUntranscribed = (a: AudioItem) => !a.transcript || a.transcript.trim() === '';

/** The first TRANSCRIPT_PREVIEW_CHARS characters, with an ellipsis when there was more. */
export function transcriptPreview(text: string): string {
  const chars = Array.from(text.trim());
  return chars.length > TRANSCRIPT_PREVIEW_CHARS ? `${chars.slice(0, TRANSCRIPT_PREVIEW_CHARS).join('')}…` : chars.join('');
}

/** Capability names read with spaces (part 1 §2). */
export const capabilityLabel = (c: string) => c.replace(/_/g, ' ');
