// The start form both panels draw (docs/product.md#discussions-screens): a labelled box for what to discuss, Start (it
// names the format that will run: 'Start council'), disabled while a start check fails, and the first failing check
// under it once the person has typed in or left the box, or tried to start. Ctrl+Enter in the box starts. What the
// spec makes differ comes in as slots: the standard panel's continuation note, Format, turn count and login hint, the
// hybrid panel's templates.
import { useState, type ReactNode } from 'react';
import { problemToSay } from './problemToSay';

export interface StartFormShellProps {
  /** The box: its id (the label's target), label, rows and placeholder. */
  box: { id: string; label: string; rows: number; placeholder: string };
  text: string;
  onTextChange: (text: string) => void;
  problem: string | null;
  /** Start cannot run though no problem is said here (the agent strip says it: fewer than two agents). */
  blocked?: boolean;
  busy?: boolean;
  startLabel: string;
  onStart: () => void;
  /** Above the label (the continuation chosen in History). */
  lead?: ReactNode;
  /** Between the label and the box (the templates). */
  beforeBox?: ReactNode;
  /** Between the box and Start (the Format setting). */
  afterBox?: ReactNode;
  /** Right under Start (how many turns will run). */
  afterStart?: ReactNode;
  /** Under the start check (the not-logged-in hint). */
  trail?: ReactNode;
}

export function StartFormShell(p: StartFormShellProps) {
  const [touched, setTouched] = useState(false);
  const said = problemToSay(p.problem, touched);
  const tryStart = () => {
    setTouched(true);
    if (!p.problem && !p.blocked && !p.busy) p.onStart();
  };
  return (
    <form
      className="start-form"
      onSubmit={(e) => {
        e.preventDefault();
        tryStart();
      }}
    >
      {p.lead}
      <label className="start-form__label" htmlFor={p.box.id}>
        {p.box.label}
      </label>
      {p.beforeBox}
      <textarea
        id={p.box.id}
        className="start-form__context"
        rows={p.box.rows}
        placeholder={p.box.placeholder}
        value={p.text}
        onChange={(e) => {
          setTouched(true);
          p.onTextChange(e.target.value);
        }}
        onBlur={() => setTouched(true)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) tryStart();
        }}
      />
      {p.afterBox}
      <button
        type="submit"
        className="button button--primary button--block"
        disabled={p.problem !== null || !!p.blocked || !!p.busy}
      >
        {p.busy ? 'Starting…' : p.startLabel}
      </button>
      {p.afterStart}
      <p className="start-form__hint" aria-live="polite">
        {said && <span className="start-form__problem">{said}</span>}
      </p>
      {p.trail}
    </form>
  );
}
