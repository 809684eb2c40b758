// 'Stop at … tokens' (docs/protocol.md#costs): the discussion's own budget, empty for none. Both panels draw it;
// the server ends the run cleanly when its turns reach it and the feed says so.
import { useId, useState } from 'react';
import { TOKEN_BUDGET_BOUNDS } from '../../../schemas/usage';

const { min, max } = TOKEN_BUDGET_BOUNDS;

/** The typed text as a budget: null for empty, undefined when it is not one. */
export function budgetOfText(text: string): number | null | undefined {
  const t = text.replace(/[\s,_]/g, '');
  if (t === '') return null;
  if (!/^\d+$/.test(t)) return undefined;
  const n = Number(t);
  return n >= min && n <= max ? n : undefined;
}

export function TokenBudgetField({
  value,
  onChange,
  disabled,
}: {
  value: number | null;
  onChange: (next: number | null) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const hint = `${id}-hint`;
  const [draft, setDraft] = useState<string | null>(null);
  const shown = draft ?? (value === null ? '' : String(value));
  const valid = budgetOfText(shown) !== undefined;
  return (
    // Folded unless a budget is set: the start form stays short enough that Start is in view at 1024×700.
    <details className="field token-budget" open={value !== null || undefined}>
      <summary>Token budget{value === null ? ': none' : `: ${value.toLocaleString('en-US')}`}</summary>
      <label htmlFor={id}>Stop at … tokens</label>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        placeholder="No budget"
        value={shown}
        disabled={disabled}
        aria-invalid={!valid}
        aria-describedby={hint}
        onChange={(e) => {
          setDraft(e.target.value);
          const next = budgetOfText(e.target.value);
          if (next !== undefined) onChange(next);
        }}
        onBlur={() => setDraft(null)}
      />
      <span id={hint} className={valid ? 'field__hint muted' : 'field__error'}>
        {valid
          ? 'The discussion ends cleanly once it has spent this many tokens. Empty: no budget.'
          : `Enter a whole number from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}, or leave it empty.`}
      </span>
    </details>
  );
}
