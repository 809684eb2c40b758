// The agent's 'Voice' (README 'Voices'): the server's default speech, a stock voice of a speech connection with a
// Play sample button, or 'Clone from this agent's reference recording' behind the consent box. It draws the
// editor's agentVoice child and sends 'voice.*' events through the editor; the agent's Save saves it too.
import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { AgentVoiceActorRef } from '../../machines/agentVoice.machine';
import type { EditorActorRef } from '../../machines/editor.machine';
import { selectReferenceAudioRef } from '../../machines/editor.selectors';
import type { ReferenceAudioActorRef } from '../../machines/referenceAudio.machine';
import { VOICE_CONSENT_LABEL, type VoiceMode } from '../../schemas/speechConnections';
import { pickableVoices } from '../../model/agentVoice';
import { DismissibleMessage } from '../common/DismissibleMessage';
import { Field } from './Field';
import './voice.css';

export const CLONE_LABEL = 'Clone from this agent’s reference recording';

export function VoiceField({ editor }: { editor: EditorActorRef }) {
  const voice = useSelector(editor, (s) => s.children.agentVoice as AgentVoiceActorRef | undefined);
  const audio = useSelector(editor, selectReferenceAudioRef);
  return voice ? <VoiceBox editor={editor} voice={voice} audio={audio} /> : null;
}

const WARNING = 'Cloning needs a default reference recording: record or upload one above and make it the default.';

/** Says so when the agent has no default reference recording to clone (read from the drawer's audio chart). */
function RecordingCheck({ audio }: { audio: ReferenceAudioActorRef }) {
  const has = useSelector(audio, (s) => s.context.audio.some((a) => a.is_default));
  return has ? null : <p className="agora-hint agora-voice-warning">{WARNING}</p>;
}

function VoiceBox({
  editor,
  voice,
  audio,
}: {
  editor: EditorActorRef;
  voice: AgentVoiceActorRef;
  audio: ReferenceAudioActorRef | undefined;
}) {
  const loading = useSelector(voice, (s) => s.hasTag('loading') || s.matches('checking'));
  const unsaved = useSelector(voice, (s) => s.matches('unsaved'));
  const failed = useSelector(voice, (s) => s.matches('failed'));
  const connections = useSelector(voice, (s) => s.context.connections);
  const draft = useSelector(voice, (s) => s.context.draft);
  const saved = useSelector(voice, (s) => s.context.saved);
  const error = useSelector(voice, (s) => s.context.error);
  const sampleUrl = useSelector(voice, (s) => s.context.sampleUrl);
  const saving = useSelector(voice, (s) => s.hasTag('saving'));
  const sampling = useSelector(voice, (s) => s.hasTag('sampling'));
  const modeName = useId();
  const send = editor.send;

  if (unsaved) {
    return (
      <section className="agora-editor-box agora-voice" aria-label="Voice">
        <h3>Voice</h3>
        <p className="agora-hint">Save the agent first; then choose the voice it speaks with.</p>
      </section>
    );
  }
  const chosen = connections.find((c) => c.id === draft.connectionId);
  const busy = saving || loading;

  return (
    <section className="agora-editor-box agora-voice" aria-label="Voice">
      <h3>Voice</h3>
      <p className="agora-hint">
        {saved ? (
          <>
            Speaks with <strong>{saved.label}</strong>.
          </>
        ) : (
          'Speaks with the server’s default speech.'
        )}
      </p>
      {failed && (
        <div className="agora-inline-error" role="alert">
          <p>The voices could not be loaded: {error}</p>
          <button type="button" className="button button--small" onClick={() => send({ type: 'voice.retry' })}>
            Retry
          </button>
        </div>
      )}
      {!failed && error && (
        <DismissibleMessage
          tone="error"
          onDismiss={() => send({ type: 'voice.dismiss' })}
          dismissLabel="Dismiss voice message"
        >
          {error}
        </DismissibleMessage>
      )}
      <Field label="Voice server">
        <select
          value={draft.connectionId}
          disabled={busy}
          onChange={(e) => send({ type: 'voice.connection', id: e.target.value })}
        >
          <option value="">{loading ? 'Loading voices…' : 'Server default speech'}</option>
          {connections.map((c) => (
            <option key={c.id} value={c.id} disabled={c.status.state !== 'reachable'}>
              {c.name} — {c.status.state === 'reachable' ? c.summary : 'not reachable'}
            </option>
          ))}
        </select>
      </Field>
      {connections.length === 0 && !loading && !failed && (
        <p className="agora-hint">Add a speech connection in Models → Speech to choose a voice.</p>
      )}
      {chosen && (
        <fieldset className="agora-voice-modes" disabled={busy}>
          <legend className="visually-hidden">How it speaks</legend>
          <label>
            <input
              type="radio"
              name={modeName}
              checked={draft.mode === 'stock'}
              onChange={() => send({ type: 'voice.mode', mode: 'stock' as VoiceMode })}
            />
            One of {chosen.name}’s voices
          </label>
          <label className={!chosen.can_clone ? 'is-disabled' : undefined}>
            <input
              type="radio"
              name={modeName}
              checked={draft.mode === 'clone'}
              disabled={!chosen.can_clone}
              onChange={() => send({ type: 'voice.mode', mode: 'clone' as VoiceMode })}
            />
            {CLONE_LABEL}
          </label>
          {!chosen.can_clone && (
            <p className="agora-hint">This server cannot clone voices; a voice-cloning server (Chatterbox API) can.</p>
          )}
        </fieldset>
      )}
      {chosen && draft.mode === 'stock' && (
        <div className="agora-voice-stock">
          <Field label="Voice">
            <select
              value={draft.voice}
              disabled={busy}
              onChange={(e) => send({ type: 'voice.pick', voice: e.target.value })}
            >
              {!draft.voice && <option value="">Choose a voice</option>}
              {[...new Set([...(draft.voice ? [draft.voice] : []), ...pickableVoices(chosen)])].map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
          </Field>
          <button
            type="button"
            className="button button--small"
            disabled={!draft.voice || sampling || busy}
            onClick={() => send({ type: 'voice.sample' })}
          >
            {sampling ? 'Speaking…' : 'Play sample'}
          </button>
          {sampleUrl && <audio key={sampleUrl} src={sampleUrl} autoPlay controls aria-label="Voice sample" />}
        </div>
      )}
      {chosen && draft.mode === 'clone' && (
        <div className="agora-voice-clone">
          {audio ? <RecordingCheck audio={audio} /> : <p className="agora-hint agora-voice-warning">{WARNING}</p>}
          <label className="agora-voice-consent">
            <input
              type="checkbox"
              checked={draft.consent}
              disabled={busy}
              onChange={(e) => send({ type: 'voice.consent', checked: e.target.checked })}
            />
            {VOICE_CONSENT_LABEL}
          </label>
          <p className="agora-hint">
            {chosen.voice_library
              ? 'Saving registers the clone on the voice server under a name of this agent and recording; a new default recording replaces it, and deleting the agent deletes it there.'
              : 'This server keeps no voice library: the recording is sent with every turn.'}
          </p>
        </div>
      )}
      <div className="agora-voice-actions">
        <button
          type="button"
          className="button button--small button--primary"
          disabled={busy}
          onClick={() => send({ type: 'voice.save' })}
        >
          {saving ? 'Saving voice…' : 'Save voice'}
        </button>
      </div>
    </section>
  );
}
