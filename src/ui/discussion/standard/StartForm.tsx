// The standard panel's idle form (docs/product.md#discussions-screens 'When idle'): the shared start form
// (common/StartFormShell.tsx) on the context box, with the continuation above it, the Format setting, how many turns
// will run and the not-logged-in hint. Why that kind was chosen and the endpoints line are technical: they are in
// 'About this run'.
import type { ReactNode } from 'react';
import { StartFormShell } from '../common/StartFormShell';

const CONTEXT_BOX = {
  id: 'discussion-context',
  label: 'Discussion context',
  rows: 2,
  placeholder: 'What should the agents discuss? e.g. Should our town square be closed to cars on weekends?',
};

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
  return (
    <StartFormShell
      box={CONTEXT_BOX}
      text={p.context}
      onTextChange={p.onContextChange}
      problem={p.problem}
      blocked={p.blocked}
      busy={p.busy}
      startLabel={p.startLabel}
      onStart={p.onStart}
      lead={p.continuation}
      afterBox={p.format}
      afterStart={p.reason && <p className="start-form__reason muted">{p.reason}</p>}
      trail={!p.loggedIn && <p className="start-form__login muted">You must be logged in to start a discussion</p>}
    />
  );
}
