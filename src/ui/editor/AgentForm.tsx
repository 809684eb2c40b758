// Name, role, prompt, model, personality and the agent's look (colour, avatar). Every keystroke is an 'editor.field' event; the
// submit button is enabled exactly when the machine would accept 'editor.submit'.
import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { EditorActorRef, EditorField } from '../../machines/editor.machine';
import * as sel from '../../machines/editor.selectors';
import { AGENT_PERSONALITIES } from '../../schemas/constants';
import type { ModelOption } from '../../schemas/system';
import { Field } from './Field';
import { IdentityFields } from './IdentityFields';
import { CheckIcon } from '../common/icons';

export function AgentForm({ editor }: { editor: EditorActorRef }) {
  const mode = useSelector(editor, sel.selectMode);
  const fields = useSelector(editor, sel.selectFields);
  const agentId = useSelector(editor, (s) => s.context.agentId);
  const models = useSelector(editor, sel.selectModelOptions);
  const modelsLoading = useSelector(editor, sel.selectModelsLoading);
  const fromFallback = useSelector(editor, (s) => s.context.modelsFromFallback);
  const canSubmit = useSelector(editor, sel.selectCanSubmit);
  const blocker = useSelector(editor, sel.selectSubmitBlocker);
  const blockerId = useId();
  const saving = useSelector(editor, sel.selectIsSaving);
  const created = useSelector(editor, sel.selectWasCreated);
  const justSaved = useSelector(editor, sel.selectWasJustSaved);
  const locked = saving || created;

  const set = (field: EditorField) => (e: { target: { value: string } }) =>
    editor.send({ type: 'editor.field', field, value: e.target.value });
  const chosen = models.find((m) => m.value === fields.model);
  const offline = chosen?.offline;
  const option = (m: ModelOption) => (
    <option key={m.value} value={m.value}>
      {m.offline ? `${m.label} — offline` : m.unreachable ? `${m.label} (unreachable)` : m.label}
    </option>
  );

  return (
    <form
      className="agora-editor-form"
      aria-label={mode === 'create' ? 'Create agent' : 'Edit agent'}
      onSubmit={(e) => {
        e.preventDefault();
        editor.send({ type: 'editor.submit' });
      }}
    >
      <Field label="Name">
        {/* The editor opens on Name (the dialog's first question), not on its Close button. */}
        <input
          value={fields.name}
          onChange={set('name')}
          disabled={locked}
          placeholder="e.g. Ada"
          autoComplete="off"
          required
          autoFocus
          data-autofocus
        />
      </Field>
      <Field label="Role">
        <input
          value={fields.role}
          onChange={set('role')}
          disabled={locked}
          placeholder="e.g. Analyst"
          autoComplete="off"
          required
        />
      </Field>
      <Field label="Prompt">
        <textarea
          value={fields.prompt}
          onChange={set('prompt')}
          disabled={locked}
          rows={6}
          placeholder="Who is this agent and how does it think?"
          required
        />
      </Field>
      <Field label="Model">
        <select value={fields.model} onChange={set('model')} disabled={locked || modelsLoading} required>
          <option value="">{modelsLoading ? 'Loading models…' : 'Select a model'}</option>
          {sel.groupModelOptions(models).map((g) =>
            g.group ? (
              <optgroup key={g.group} label={g.unreachable ? `${g.group} (unreachable)` : g.group}>
                {g.options.map(option)}
              </optgroup>
            ) : (
              g.options.map(option)
            ),
          )}
        </select>
      </Field>
      {chosen?.unreachable && (
        <p className="agora-hint">
          This model’s connection did not answer just now; check it in Models before starting a discussion.
        </p>
      )}
      {offline && (
        <p className="agora-hint">
          This is the built-in offline model: it composes short, rule-based replies without an LLM.
        </p>
      )}
      {fromFallback && <p className="agora-hint">The model list could not be loaded; showing the default models.</p>}
      <Field label="Personality">
        <select value={fields.personality} onChange={set('personality')} disabled={locked}>
          <option value="">Not set</option>
          {AGENT_PERSONALITIES.map((p) => (
            <option key={p} value={p}>
              {p[0].toUpperCase() + p.slice(1)}
            </option>
          ))}
        </select>
      </Field>
      <IdentityFields editor={editor} fields={fields} agentId={agentId} locked={locked} />
      <div className="agora-editor-submit">
        <button
          type="submit"
          className="button button--primary"
          disabled={!canSubmit || locked}
          aria-describedby={blocker && !locked ? blockerId : undefined}
        >
          {saving ? 'Saving…' : mode === 'create' ? 'Create Agent' : 'Update Agent'}
        </button>
        {blocker && !locked && (
          <span id={blockerId} className="agora-submit-why">
            {blocker}
          </span>
        )}
        {/* Announced once per save; the editor chart clears it after a moment. */}
        <span className="agora-saved" role="status">
          {justSaved && (
            <>
              <CheckIcon size={15} />
              Saved
            </>
          )}
        </span>
      </div>
    </form>
  );
}
