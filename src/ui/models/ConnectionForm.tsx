// Add or edit a connection: Kind (with the OpenAI-compatible presets), Name, Base URL, API key; Test lists the
// models found or says what failed; Save. Every keystroke is an event; the chart keeps the fields.
import { useSelector } from '@xstate/react';
import type { FormField, FormKind, ModelsActorRef } from '../../machines/models.machine';
import {
  selectCanSave,
  selectCanTest,
  selectForm,
  selectFormError,
  selectIsSaving,
  selectIsTesting,
  selectTestResult,
} from '../../machines/models.selectors';
import { API_KEY_MAX_BYTES, OPENAI_PRESETS } from '../../schemas/modelConnections';
import { ConnectionFormActions } from './ConnectionFormActions';

const KINDS: Array<{ id: FormKind; label: string }> = [
  { id: 'ollama', label: 'Ollama' },
  { id: 'openai', label: 'OpenAI-compatible' },
  { id: 'builtin', label: 'Built-in (llama.cpp)' },
];

const FAILURE_TITLES: Record<string, string> = {
  dns: 'Name not found',
  refused: 'Connection refused',
  timeout: 'No answer in time',
  key_rejected: 'Key rejected',
  not_compatible: 'Not the expected kind of server',
  http: 'The server answered with an error',
  blocked: 'Address not allowed',
  unreachable: 'Unreachable',
};

/** `children`: what the 'Built-in' kind shows instead of the address fields (the engine's files section). */
export function ConnectionForm({ models, children }: { models: ModelsActorRef; children?: React.ReactNode }) {
  const form = useSelector(models, selectForm);
  const testing = useSelector(models, selectIsTesting);
  const saving = useSelector(models, selectIsSaving);
  const canTest = useSelector(models, selectCanTest);
  const canSave = useSelector(models, selectCanSave);
  const test = useSelector(models, selectTestResult);
  const error = useSelector(models, selectFormError);
  if (!form) return null;
  const busy = testing || saving;
  const set = (field: FormField) => (e: React.ChangeEvent<HTMLInputElement>) =>
    models.send({ type: 'models.form.field', field, value: e.target.value });
  const preset = OPENAI_PRESETS.find((p) => p.id === form.preset);

  return (
    <div className="models-form">
      <form
        aria-label={form.mode === 'create' ? 'Add connection' : `Edit ${form.name}`}
        onSubmit={(e) => {
          e.preventDefault();
          models.send({ type: 'models.form.save' });
        }}
      >
        <h3 className="models-form__title">{form.mode === 'create' ? 'Add connection' : `Edit connection`}</h3>
        <div className="models-form__grid">
          <label className="models-field">
            <span>Kind</span>
            <select
              value={form.kind}
              disabled={form.mode === 'edit' || busy}
              onChange={(e) => models.send({ type: 'models.form.kind', kind: e.target.value as FormKind })}
            >
              {KINDS.map((k) => (
                <option key={k.id} value={k.id}>
                  {k.label}
                </option>
              ))}
            </select>
          </label>
          {form.kind === 'openai' && (
            <label className="models-field">
              <span>Service</span>
              <select
                value={form.preset}
                disabled={busy}
                onChange={(e) => models.send({ type: 'models.form.preset', preset: e.target.value })}
              >
                {OPENAI_PRESETS.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.label}
                  </option>
                ))}
              </select>
            </label>
          )}
        </div>
        {form.kind === 'builtin' ? (
          <p className="models-form__note">
            The built-in engine runs GGUF models inside this server with llama.cpp. There is nothing to add: it is
            always listed as “Built-in” under “This server’s connections”, and every GGUF file below is one of its
            models.
          </p>
        ) : (
          <>
            <div className="models-form__grid">
              <label className="models-field">
                <span>Name</span>
                <input value={form.name} onChange={set('name')} disabled={busy} maxLength={60} required />
              </label>
              <label className="models-field models-field--wide">
                <span>Base URL</span>
                <input
                  value={form.base_url}
                  onChange={set('base_url')}
                  disabled={busy}
                  placeholder="http://127.0.0.1:11434"
                  spellCheck={false}
                  required
                />
              </label>
            </div>
            {form.kind === 'openai' && (
              <label className="models-field">
                <span>API key{preset && !preset.needsKey ? ' (if the server asks for one)' : ''}</span>
                <input
                  type="password"
                  value={form.api_key}
                  onChange={set('api_key')}
                  disabled={busy}
                  autoComplete="off"
                  placeholder={form.keyHint ? `Stored: ${form.keyHint} (leave empty to keep it)` : 'sk-…'}
                  maxLength={API_KEY_MAX_BYTES + 1}
                />
              </label>
            )}
          </>
        )}
        {test && (
          <div className={test.ok ? 'models-test models-test--ok' : 'models-test models-test--fail'} role="status">
            {test.ok ? (
              <>
                <strong>Connected.</strong>{' '}
                {test.models.length === 0
                  ? 'It lists no models yet.'
                  : `${test.models.length} model${test.models.length === 1 ? '' : 's'}: ${test.models.slice(0, 8).join(', ')}${test.models.length > 8 ? ', …' : ''}`}
              </>
            ) : (
              <>
                <strong>{FAILURE_TITLES[test.reason] ?? 'Failed'}.</strong> {test.detail}
              </>
            )}
          </div>
        )}
        {form.kind === 'builtin' ? (
          error && (
            <p className="models-form__error" role="alert">
              {error}
            </p>
          )
        ) : (
          <ConnectionFormActions
            error={error}
            testing={testing}
            saving={saving}
            canTest={canTest}
            canSave={canSave}
            onTest={() => models.send({ type: 'models.form.test' })}
            onCancel={() => models.send({ type: 'models.form.cancel' })}
          />
        )}
      </form>
      {/* After the form, not in it: the section has forms of its own. */}
      {children}
      {form.kind === 'builtin' && (
        <div className="button-row models-form__after">
          <button type="button" className="button" onClick={() => models.send({ type: 'models.form.cancel' })}>
            Done
          </button>
        </div>
      )}
    </div>
  );
}
