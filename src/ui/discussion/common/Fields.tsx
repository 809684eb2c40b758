// Small labelled inputs for the settings forms. A number field keeps what the user typed locally and reports a
// value only when it is inside the schema's bounds, so an out-of-range number can never be sent.
import { useId, useState } from 'react';

export function CheckField({
  label,
  checked,
  onChange,
  hint,
  disabled,
}: {
  label: string;
  checked: boolean;
  onChange: (v: boolean) => void;
  hint?: string;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="field field--check">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
      {hint && <span className="field__hint muted">{hint}</span>}
    </div>
  );
}

export function SelectField<T extends string>({
  label,
  value,
  options,
  onChange,
  labels,
  disabled,
}: {
  label: string;
  value: T;
  options: readonly T[];
  onChange: (v: T) => void;
  labels?: Partial<Record<T, string>>;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value as T)}>
        {options.map((o) => (
          <option key={o} value={o}>
            {labels?.[o] ?? o.replace(/_/g, ' ')}
          </option>
        ))}
      </select>
    </div>
  );
}

export interface Bounds {
  min: number;
  max: number;
  step: number;
}

/** A slider for fractional settings; its own bounds make an out-of-range value impossible. */
export function RangeField({
  label,
  value,
  bounds,
  onChange,
  format,
  disabled,
}: {
  label: string;
  value: number;
  bounds: Bounds;
  onChange: (v: number) => void;
  format?: (v: number) => string;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>
        {/* Not an <output>: that is a live region, and a screen reader would announce every step of the slider. */}
        {label} <span className="field__value">{format ? format(value) : value}</span>
      </label>
      <input
        id={id}
        type="range"
        min={bounds.min}
        max={bounds.max}
        step={bounds.step}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(Number(e.target.value))}
      />
    </div>
  );
}

const acceptable = (text: string, bounds?: Partial<Bounds>) => {
  const n = Number(text);
  return (
    text.trim() !== '' &&
    Number.isFinite(n) &&
    (bounds?.min === undefined || n >= bounds.min) &&
    (bounds?.max === undefined || n <= bounds.max) &&
    (bounds?.step !== 1 || Number.isInteger(n))
  );
};

export function NumberField({
  label,
  value,
  bounds,
  onChange,
  disabled,
}: {
  label: string;
  value: number;
  bounds?: Partial<Bounds>;
  onChange: (v: number) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const shown = draft ?? String(value);
  const valid = acceptable(shown, bounds);
  const range = bounds?.min !== undefined && bounds?.max !== undefined ? `${bounds.min}–${bounds.max}` : null;
  return (
    <div className="field">
      <label htmlFor={id}>
        {label} {range && <span className="muted">({range})</span>}
      </label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={bounds?.min}
        max={bounds?.max}
        step={bounds?.step}
        value={shown}
        disabled={disabled}
        aria-invalid={!valid}
        onChange={(e) => {
          const text = e.target.value;
          setDraft(text);
          if (acceptable(text, bounds)) onChange(Number(text));
        }}
        onBlur={() => setDraft(null)}
      />
      {!valid && (
        <span className="field__error">
          {range ? `Enter a number from ${bounds!.min} to ${bounds!.max}.` : 'Enter a number.'}
        </span>
      )}
    </div>
  );
}
