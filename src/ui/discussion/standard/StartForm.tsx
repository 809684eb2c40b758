// The idle panel (docs/product.md#discussions-screens 'When idle'): the context box, the Start button (it names the
// format that will run: 'Start council'), how many turns will run and the not-logged-in hint. Why that kind was
// chosen and the endpoints line are technical: they are in 'About this run'. Start is disabled while any start check fails; the first failing check is said under it.
import { useState, type ReactNode } from 'react';
import { problemToSay } from '../common/problemToSay';

export interface StartFormProps {
  context: string;
  problem: string | null;
  /** Start cannot run though no problem is said here (the agent strip says it: fewer than two agents). */
  blocked?: boolean;
  busy: boolean;
  loggedIn: boolean;
  startLabel: string;
  /** How the planned count comes about, when the Format line's number needs it (turnEstimate.ts). */
  reason: string | null;
  onContextChange: (text: string) => void;
  /** History's 'Continue from here', when the next Start continues a stored discussion (shown above the context). */
  continuation?: ReactNode;
  /** The 'Format' setting, shown under the context. */
  format?: ReactNode;
  onStart: () => void;
}

export function StartForm(p: StartFormProps) {
  // Whether the person has typed in or left the context box, or tried to start: only then is an empty box a problem.
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
      {p.continuation}
      <label className="start-form__label" htmlFor="discussion-context">
        Discussion context
      </label>
      <textarea
        id="discussion-context"
        className="start-form__context"
        rows={2}
        placeholder="What should the agents discuss? e.g. Should our town square be closed to cars on weekends?"
        value={p.context}
        onChange={(e) => {
          setTouched(true);
          p.onContextChange(e.target.value);
        }}
        onBlur={() => setTouched(true)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) tryStart();
        }}
      />
      {p.format}
      <button
        type="submit"
        className="button button--primary button--block"
        disabled={p.problem !== null || !!p.blocked || p.busy}
      >
        {p.busy ? 'Starting…' : p.startLabel}
      </button>
      {p.reason && <p className="start-form__reason muted">{p.reason}</p>}
      <p className="start-form__hint" aria-live="polite">
        {said && <span className="start-form__problem">{said}</span>}
      </p>
      {!p.loggedIn && <p className="start-form__login muted">You must be logged in to start a discussion</p>}
    </form>
  );
}
