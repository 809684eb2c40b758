import type { ReactNode } from 'react';

// The parts every large dialog repeats (Models, Panels, API tokens, Evaluate): its header (title, a line on what it is for,
// Close) and an alert line with one action (Dismiss, Retry); and what the small naming dialogs repeat (Save as panel,
// the profile): one named field with its hint or error, and Cancel beside a Save that says 'Saving…' while busy.
// Each dialog keeps its own class prefix for its look.

export function DialogHeader(props: {
  /** The dialog's class prefix: `<prefix>__header`, `<prefix>__lead`. */
  prefix: string;
  titleId: string;
  title: string;
  lead: ReactNode;
  onClose: () => void;
  /** Focus Close when the dialog opens (a dialog whose first field is not the natural start). */
  focusClose?: boolean;
}) {
  return (
    <div className={`${props.prefix}__header`}>
      <div>
        <h2 id={props.titleId}>{props.title}</h2>
        <p className={`${props.prefix}__lead`}>{props.lead}</p>
      </div>
      <button type="button" className="button button--small" onClick={props.onClose} autoFocus={props.focusClose}>
        Close
      </button>
    </div>
  );
}

export function AlertLine(props: { className: string; children: ReactNode; action: string; onAction: () => void }) {
  return (
    <div className={props.className} role="alert">
      <span>{props.children}</span>
      <button type="button" className="link-button" onClick={props.onAction}>
        {props.action}
      </button>
    </div>
  );
}

export function NameField(props: {
  /** The dialog's id: the input is `${id}-name`, its hint `${id}-hint`. */
  id: string;
  label: string;
  value: string;
  error: string | null;
  hint: ReactNode;
  disabled: boolean;
  autoComplete: string;
  maxLength?: number;
  onChange: (value: string) => void;
}) {
  const { id, error } = props;
  return (
    <div className="field">
      <label htmlFor={`${id}-name`}>{props.label}</label>
      <input
        id={`${id}-name`}
        value={props.value}
        maxLength={props.maxLength}
        autoComplete={props.autoComplete}
        data-autofocus
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint`}
        onChange={(e) => props.onChange(e.target.value)}
        disabled={props.disabled}
      />
      {error ? (
        <p id={`${id}-hint`} className="field__error" role="alert">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="field__hint">
          {props.hint}
        </p>
      )}
    </div>
  );
}

export function FormActions(props: { busy: boolean; submit: string; onCancel: () => void }) {
  return (
    <div className="panels-dialog__actions">
      <button type="button" className="button" onClick={props.onCancel} disabled={props.busy}>
        Cancel
      </button>
      <button type="submit" className="button button--primary" disabled={props.busy}>
        {props.busy ? 'Saving…' : props.submit}
      </button>
    </div>
  );
}
