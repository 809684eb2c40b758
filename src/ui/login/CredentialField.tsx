// One login input with its label and its validation message, tied together so a screen reader reads the
// message with the field.
export function CredentialField({
  id,
  label,
  type,
  autoComplete,
  value,
  error,
  disabled,
  hint,
  autoFocus,
  onChange,
}: {
  id: string;
  label: string;
  type: 'email' | 'password';
  autoComplete: string;
  value: string;
  error: string | undefined;
  disabled: boolean;
  /** Shown under the field until there is an error to show instead (same place, so nothing moves). */
  hint?: string;
  /** The sign-in page focuses its first field (Email) so typing can start at once. */
  autoFocus?: boolean;
  onChange: (value: string) => void;
}) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = error ? errorId : hint ? hintId : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        autoComplete={autoComplete}
        value={value}
        disabled={disabled}
        autoFocus={autoFocus}
        aria-invalid={Boolean(error)}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value)}
      />
      {/* One line is always reserved for the hint or the error, so the card does not jump when one appears. */}
      <p id={error ? errorId : hintId} className={error ? 'field__error' : 'field__hint'}>
        {error ?? hint ?? ''}
      </p>
    </div>
  );
}
