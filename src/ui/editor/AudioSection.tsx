// Reference voices of one agent: the list, the upload form, the recorder and 'Transcribe all'.
import { useCallback } from 'react';
import { useSelector } from '@xstate/react';
import type { EditorActorRef } from '../../machines/editor.machine';
import { selectReferenceAudioRef } from '../../machines/editor.selectors';
import type { ReferenceAudioActorRef } from '../../machines/referenceAudio.machine';
import * as sel from '../../machines/referenceAudio.selectors';
import { AUDIO_EXTENSIONS, DEFAULT_REFERENCE_TEXT } from '../../schemas/constants';
import { AUDIO_MESSAGES } from '../../schemas/messages';
import { AudioItemRow } from './AudioItemRow';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { DismissibleMessage } from '../common/DismissibleMessage';
import { Field } from './Field';
import { RecordButton } from './RecordButton';

const ACCEPT = AUDIO_EXTENSIONS.map((e) => `.${e}`).join(',');

/** The drawer's reference-audio chart is the editor's child; the section draws it (events go through the editor). */
export function AudioSection({ editor }: { editor: EditorActorRef }) {
  const audio = useSelector(editor, selectReferenceAudioRef);
  return audio ? <ReferenceAudioSection editor={editor} audio={audio} /> : null;
}

function ReferenceAudioSection({ editor, audio }: { editor: EditorActorRef; audio: ReferenceAudioActorRef }) {
  const enabled = useSelector(audio, sel.selectAudioEnabled);
  const unsaved = useSelector(audio, sel.selectIsAudioUnsaved);
  const items = useSelector(audio, sel.selectAudioItems);
  const loading = useSelector(audio, sel.selectIsAudioLoading);
  const busy = useSelector(audio, sel.selectIsAudioBusy);
  const uploading = useSelector(audio, sel.selectIsUploading);
  const targetId = useSelector(audio, sel.selectTargetAudioId);
  const error = useSelector(audio, sel.selectAudioError);
  const notice = useSelector(audio, sel.selectAudioNotice);
  const draft = useSelector(audio, sel.selectUploadDraft);
  const transcript = useSelector(audio, sel.selectLastTranscript);
  const pendingDelete = useSelector(audio, sel.selectPendingAudioDelete);
  const untranscribed = useSelector(audio, sel.selectUntranscribedCount);
  const recorder = useSelector(audio, sel.selectRecorderRef);

  const onSetDefault = useCallback((audioId: string) => editor.send({ type: 'audio.setDefault', audioId }), [editor]);
  const onDelete = useCallback((audioId: string) => editor.send({ type: 'audio.delete', audioId }), [editor]);
  const onTranscribe = useCallback((audioId: string) => editor.send({ type: 'audio.transcribe', audioId }), [editor]);
  const onDismiss = () => editor.send({ type: 'audio.dismiss' });

  // Before the agent exists nothing can be attached to it (docs/product.md#workspace-validation 'Please save the agent
  // first…'): the section says so instead of offering upload and record controls that could only fail.
  if (unsaved) {
    return (
      <section className="agora-editor-box agora-audio agora-audio--unsaved" aria-label="Reference audio">
        <h3>Reference voices</h3>
        <p className="agora-hint">Save the agent first, then open it again to upload or record its reference voice.</p>
        <p className="agora-hint">{AUDIO_MESSAGES.lengthHint}</p>
      </section>
    );
  }

  return (
    <section className="agora-editor-box agora-audio" aria-label="Reference audio">
      <h3>Reference voices</h3>
      <p className="agora-hint">{AUDIO_MESSAGES.lengthHint}</p>
      <p className="agora-hint">
        Default reference text: <q>{DEFAULT_REFERENCE_TEXT}</q>
      </p>

      {error && (
        <DismissibleMessage tone="error" onDismiss={onDismiss} dismissLabel="Dismiss audio message">
          {error}
        </DismissibleMessage>
      )}
      {notice && (
        <DismissibleMessage tone="notice" onDismiss={onDismiss} dismissLabel="Dismiss audio message">
          {notice}
        </DismissibleMessage>
      )}

      {enabled && (
        <>
          {loading && items.length === 0 ? (
            <p className="agora-muted" role="status">
              Loading reference audio…
            </p>
          ) : items.length === 0 ? (
            <p className="agora-muted">No reference audio yet.</p>
          ) : (
            <ul className="agora-audio-list" aria-label="Reference audio list">
              {items.map((item) => (
                <AudioItemRow
                  key={item.id}
                  item={item}
                  busy={busy}
                  working={busy && targetId === item.id}
                  onSetDefault={onSetDefault}
                  onDelete={onDelete}
                  onTranscribe={onTranscribe}
                />
              ))}
            </ul>
          )}
          <button
            type="button"
            className="button button--small agora-audio-all"
            onClick={() => editor.send({ type: 'audio.transcribeAll' })}
            disabled={busy || items.length === 0}
          >
            Transcribe all{untranscribed > 0 ? ` (${untranscribed})` : ''}
          </button>
        </>
      )}

      <form
        className="agora-audio-upload"
        aria-label="Upload reference audio"
        onSubmit={(e) => {
          e.preventDefault();
          editor.send({ type: 'audio.upload.submit' });
        }}
      >
        <Field label="Audio name">
          <input
            value={draft.name}
            onChange={(e) => editor.send({ type: 'audio.upload.name', value: e.target.value })}
            disabled={uploading}
          />
        </Field>
        <Field label="Audio file">
          <input
            // Remounted when the draft is cleared after an upload, since a file input cannot be reset by value.
            key={draft.file ? 'chosen' : 'empty'}
            type="file"
            accept={ACCEPT}
            disabled={uploading}
            onChange={(e) => {
              const file = e.target.files?.[0] ?? null;
              editor.send({ type: 'audio.upload.file', file, fileName: file?.name ?? '' });
            }}
          />
        </Field>
        <div className="agora-audio-upload-actions">
          <button type="submit" className="button button--small" disabled={uploading}>
            {uploading ? 'Uploading…' : 'Upload'}
          </button>
          <RecordButton editor={editor} recorder={recorder} />
        </div>
      </form>

      {transcript && (
        <p className="agora-audio-last-transcript" role="status">
          Transcript of “{transcript.name}”: {transcript.text}
        </p>
      )}

      {pendingDelete && (
        <ConfirmDialog
          message={AUDIO_MESSAGES.deleteConfirm(pendingDelete.name)}
          confirmLabel="Delete audio"
          onConfirm={() => editor.send({ type: 'audio.delete.confirm' })}
          onCancel={() => editor.send({ type: 'audio.delete.cancel' })}
        />
      )}
    </section>
  );
}
