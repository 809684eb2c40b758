// The Models dialog's 'Speech' section (README 'Voices'): the speech servers agents speak through, each with what it
// can do ('lists 12 voices · can clone'), and the form to add one with Test and Save. It draws the
// speechConnections chart (a child of the models chart while the dialog is open) and sends it events.
import { useSelector } from '@xstate/react';
import type { ModelsActorRef } from '../../machines/models.machine';
import type { SpeechConnectionsActorRef, SpeechFormField } from '../../machines/speechConnections.machine';
import { API_KEY_MAX_BYTES } from '../../schemas/modelConnections';
import { SPEECH_KIND_LABELS, type SpeechConnection, type UserSpeechKind } from '../../schemas/speechConnections';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { ConnectionFormActions } from './ConnectionFormActions';
import { ConnectionStatePill, connectionProblem } from './ConnectionStatePill';

export function SpeechConnections({ models }: { models: ModelsActorRef }) {
  const actor = useSelector(models, (s) => s.children.speechConnections as SpeechConnectionsActorRef | undefined);
  return actor ? <SpeechSection actor={actor} /> : null;
}

function SpeechCard({ actor, c }: { actor: SpeechConnectionsActorRef; c: SpeechConnection }) {
  const reason = connectionProblem(c.status);
  return (
    <article className="models-card" aria-label={`Speech connection ${c.name}`}>
      <div className="models-card__head">
        <strong className="models-card__name">{c.name}</strong>
        <span className="badge badge--info">{SPEECH_KIND_LABELS[c.kind]}</span>
        <ConnectionStatePill status={c.status} />
        {!c.read_only && (
          <span className="models-card__actions">
            <button
              type="button"
              className="button button--small"
              onClick={() => actor.send({ type: 'speech.edit', id: c.id })}
            >
              Edit
            </button>
            <button
              type="button"
              className="button button--small button--danger"
              onClick={() => actor.send({ type: 'speech.delete', id: c.id })}
            >
              Delete
            </button>
          </span>
        )}
      </div>
      <p className="models-card__meta">
        <span className="models-card__url">{c.base_url}</span>
        {c.model && <span> · model {c.model}</span>}
        {c.api_key_hint && <span> · key {c.api_key_hint}</span>}
      </p>
      {reason ? <p className="models-card__reason">{reason}</p> : <p className="models-card__meta">It {c.summary}.</p>}
      {c.voices.length > 0 && (
        <p className="models-card__meta speech-voices" title={c.voices.join(', ')}>
          Voices: {c.voices.slice(0, 12).join(', ')}
          {c.voices.length > 12 ? ', …' : ''}
        </p>
      )}
    </article>
  );
}

function SpeechForm({ actor }: { actor: SpeechConnectionsActorRef }) {
  const form = useSelector(actor, (s) => s.context.form);
  const test = useSelector(actor, (s) => s.context.test);
  const error = useSelector(actor, (s) => s.context.formError);
  const testing = useSelector(actor, (s) => s.hasTag('testing'));
  const saving = useSelector(actor, (s) => s.hasTag('saving'));
  const canTest = useSelector(actor, (s) => s.can({ type: 'speech.form.test' }));
  if (!form) return null;
  const busy = testing || saving;
  const set = (field: SpeechFormField) => (e: React.ChangeEvent<HTMLInputElement>) =>
    actor.send({ type: 'speech.form.field', field, value: e.target.value });
  return (
    <form
      className="models-form"
      aria-label={form.mode === 'create' ? 'Add speech connection' : `Edit ${form.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'speech.form.save' });
      }}
    >
      <h4 className="models-form__title">
        {form.mode === 'create' ? 'Add speech connection' : 'Edit speech connection'}
      </h4>
      <div className="models-form__grid">
        <label className="models-field">
          <span>Kind</span>
          <select
            value={form.kind}
            disabled={form.mode === 'edit' || busy}
            onChange={(e) => actor.send({ type: 'speech.form.kind', kind: e.target.value as UserSpeechKind })}
          >
            <option value="chatterbox">{SPEECH_KIND_LABELS.chatterbox}</option>
            <option value="openai">{SPEECH_KIND_LABELS.openai}</option>
          </select>
        </label>
        <label className="models-field">
          <span>Name</span>
          <input value={form.name} onChange={set('name')} disabled={busy} maxLength={60} required />
        </label>
        <label className="models-field models-field--wide">
          <span>Base URL</span>
          <input value={form.base_url} onChange={set('base_url')} disabled={busy} spellCheck={false} required />
        </label>
        {form.kind === 'openai' && (
          <label className="models-field">
            <span>Model (tts-1, kokoro…)</span>
            <input value={form.model} onChange={set('model')} disabled={busy} spellCheck={false} placeholder="tts-1" />
          </label>
        )}
        <label className="models-field">
          <span>API key (if the server asks for one)</span>
          <input
            type="password"
            value={form.api_key}
            onChange={set('api_key')}
            disabled={busy}
            autoComplete="off"
            placeholder={form.keyHint ? `Stored: ${form.keyHint} (leave empty to keep it)` : ''}
            maxLength={API_KEY_MAX_BYTES + 1}
          />
        </label>
      </div>
      <p className="models-form__note">
        {form.kind === 'chatterbox'
          ? 'The Chatterbox TTS API clones a voice from a few seconds of a recording (README “Voices”: it runs next to Agora on port 4123).'
          : 'OpenAI, openedai-speech or Kokoro-FastAPI: agents pick one of the server’s voices.'}
      </p>
      {test && (
        <div className={test.ok ? 'models-test models-test--ok' : 'models-test models-test--fail'} role="status">
          {test.ok ? (
            <>
              <strong>Connected.</strong> It {test.summary}.
            </>
          ) : (
            <>
              <strong>Failed.</strong> {test.detail}
            </>
          )}
        </div>
      )}
      <ConnectionFormActions
        error={error}
        testing={testing}
        saving={saving}
        canTest={canTest}
        canSave={canTest}
        onTest={() => actor.send({ type: 'speech.form.test' })}
        onCancel={() => actor.send({ type: 'speech.form.cancel' })}
      />
    </form>
  );
}

function SpeechSection({ actor }: { actor: SpeechConnectionsActorRef }) {
  const connections = useSelector(actor, (s) => s.context.connections);
  const loading = useSelector(actor, (s) => s.hasTag('listLoading'));
  const listError = useSelector(actor, (s) => s.context.listError);
  const actionError = useSelector(actor, (s) => s.context.actionError);
  const formOpen = useSelector(actor, (s) => s.hasTag('formOpen'));
  const pending = useSelector(actor, (s) => s.context.pendingDelete);
  const deleting = useSelector(actor, (s) => s.hasTag('deleting'));
  const mine = connections.filter((c) => !c.read_only);
  const server = connections.filter((c) => c.read_only);

  return (
    <section aria-labelledby="models-speech" className="speech-section">
      <h3 id="models-speech" className="models-section-title">
        Speech <span className="models-section-note">the voices agents speak with</span>
      </h3>
      {(listError || actionError) && (
        <div className="models-alert" role="alert">
          <span>{listError ? `The speech connections could not be loaded: ${listError}` : actionError}</span>
          <button
            type="button"
            className="link-button"
            onClick={() => actor.send(listError ? { type: 'speech.refresh' } : { type: 'speech.error.dismiss' })}
          >
            {listError ? 'Retry' : 'Dismiss'}
          </button>
        </div>
      )}
      {formOpen ? (
        <SpeechForm actor={actor} />
      ) : (
        <div className="models-toolbar">
          <button type="button" className="button" onClick={() => actor.send({ type: 'speech.add' })}>
            Add speech connection
          </button>
        </div>
      )}
      {loading && connections.length === 0 && <p className="models-empty">Checking the speech servers…</p>}
      {mine.length === 0 && !loading && (
        <p className="models-empty">
          None of your own yet. Add a voice-cloning server (Chatterbox TTS API) to let each agent speak in a voice
          cloned from its reference recording, or an OpenAI-compatible speech server (Kokoro-FastAPI, openedai-speech,
          OpenAI) for its stock voices.
        </p>
      )}
      {[...mine, ...server].map((c) => (
        <SpeechCard key={c.id} actor={actor} c={c} />
      ))}
      {pending && (
        <ConfirmDialog
          message={`Delete the speech connection "${pending.name}" and its stored key? Agents speaking through it go back to the server’s default speech, and voices cloned there are deleted from it.`}
          confirmLabel="Delete"
          busy={deleting}
          onConfirm={() => actor.send({ type: 'speech.delete.confirm' })}
          onCancel={() => actor.send({ type: 'speech.delete.cancel' })}
        />
      )}
    </section>
  );
}
