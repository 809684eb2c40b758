// The one connection form (model, speech and tool servers alike), drawn from its surface's descriptor
// (src/model/connectionForm.ts): Kind, the kind's fields, a note, what Test found, then Test, Save and Cancel.
// Every keystroke goes out through `onField`; the surface's chart keeps the fields.
import { useSelector } from '@xstate/react';
import type { AnyActorRef, AnyEventObject } from 'xstate';
import {
  type ConnectionFormDescriptor,
  type DescribedForm,
  type FieldSpec,
  labelOf,
  placeholderOf,
  type TestOutcomeView,
} from '../../model/connectionForm';
import { ConnectionFormActions } from './ConnectionFormActions';

/** What any chart with a connection form holds (the Models chart, each section chart). */
interface FormSnapshot<F, T> {
  context: { form: F | null; test: T | null; formError: string | null };
  hasTag(tag: string): boolean;
  can(event: AnyEventObject): boolean;
}
export type FormActor<F, T> = Pick<AnyActorRef, 'subscribe'> & { getSnapshot(): FormSnapshot<F, T> };

/** The form's state from its chart, whose events are `<prefix>.form.test` and `<prefix>.form.save`. */
export function useConnectionForm<F, T>(actor: FormActor<F, T>, prefix: string) {
  return {
    form: useSelector(actor, (s) => s.context.form),
    test: useSelector(actor, (s) => s.context.test),
    error: useSelector(actor, (s) => s.context.formError),
    testing: useSelector(actor, (s) => s.hasTag('testing')),
    saving: useSelector(actor, (s) => s.hasTag('saving')),
    canTest: useSelector(actor, (s) => s.can({ type: `${prefix}.form.test` })),
    canSave: useSelector(actor, (s) => s.can({ type: `${prefix}.form.save` })),
  };
}

export interface ConnectionFormViewProps<F extends DescribedForm, T> {
  descriptor: ConnectionFormDescriptor<F, T>;
  form: F;
  test: T | null;
  error: string | null;
  testing: boolean;
  saving: boolean;
  canTest: boolean;
  canSave: boolean;
  onKind: (kind: string) => void;
  onField: (field: string, value: string) => void;
  onSave: () => void;
  onTest: () => void;
  onCancel: () => void;
  /** What follows the form, outside it (the built-in engine's files have forms of their own). */
  children?: React.ReactNode;
}

export function ConnectionFormView<F extends DescribedForm, T>(p: ConnectionFormViewProps<F, T>) {
  const { descriptor: d, form } = p;
  const busy = p.testing || p.saving;
  const instead = d.nothingToAdd?.(form) ?? null;
  const note = d.note?.(form) ?? null;
  return (
    <div className="models-form">
      <form
        aria-label={d.label(form)}
        onSubmit={(e) => {
          e.preventDefault();
          p.onSave();
        }}
      >
        <h4 className="models-form__title">{d.title(form.mode)}</h4>
        <div className="models-form__grid">
          {d.kinds && (
            <label className="models-field">
              <span>Kind</span>
              <select
                value={form.kind}
                disabled={form.mode === 'edit' || busy}
                onChange={(e) => p.onKind(e.target.value)}
              >
                {d.kinds.map((k) => (
                  <option key={k.value} value={k.value}>
                    {k.label}
                  </option>
                ))}
              </select>
            </label>
          )}
          {!instead &&
            d.fields
              .filter((s) => !s.when || s.when(form))
              .map((s) => <Field key={s.field} spec={s} form={form} busy={busy} onField={p.onField} />)}
        </div>
        {(instead ?? note) && <p className="models-form__note">{instead ?? note}</p>}
        {p.test !== null && <TestOutcome outcome={d.outcome(p.test)} />}
        {instead ? (
          p.error && (
            <p className="models-form__error" role="alert">
              {p.error}
            </p>
          )
        ) : (
          <ConnectionFormActions
            error={p.error}
            testing={p.testing}
            saving={p.saving}
            canTest={p.canTest}
            canSave={p.canSave}
            onTest={p.onTest}
            onCancel={p.onCancel}
          />
        )}
      </form>
      {p.children}
      {instead && (
        <div className="button-row models-form__after">
          <button type="button" className="button" onClick={p.onCancel}>
            Done
          </button>
        </div>
      )}
    </div>
  );
}

function Field<F extends DescribedForm>(p: {
  spec: FieldSpec<F>;
  form: F;
  busy: boolean;
  onField: (field: string, value: string) => void;
}) {
  const { spec, form } = p;
  const value = String(form[spec.field] ?? '');
  const onChange = (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    p.onField(spec.field, e.target.value);
  return (
    <label className={spec.wide ? 'models-field models-field--wide' : 'models-field'}>
      <span>{labelOf(spec, form)}</span>
      {spec.options ? (
        <select value={value} disabled={p.busy} onChange={onChange}>
          {spec.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          type={spec.secret ? 'password' : undefined}
          value={value}
          onChange={onChange}
          disabled={p.busy}
          placeholder={placeholderOf(spec, form)}
          spellCheck={spec.field === 'name' ? undefined : false}
          autoComplete={spec.secret ? 'off' : undefined}
          maxLength={spec.maxLength}
          required={spec.required}
        />
      )}
    </label>
  );
}

function TestOutcome({ outcome: o }: { outcome: TestOutcomeView }) {
  return (
    <div className={o.ok ? 'models-test models-test--ok' : 'models-test models-test--fail'} role="status">
      <strong>{o.title}.</strong> {o.text}
      {o.items && o.items.length > 0 && (
        <ul className="tool-test-list">
          {o.items.map((t) => (
            <li key={t.name}>
              <code>{t.name}</code>
              {t.description && <span> — {t.description}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
