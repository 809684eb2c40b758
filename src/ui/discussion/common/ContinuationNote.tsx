// Above the start form when History's 'Continue from here' chose a turn: what the next Start continues, and a way
// back to a fresh start. The agents and the topic stay editable (the canvas selection and the context box).
import type { Continuation } from '../../../model/panelRun';

export function ContinuationNote({ continuation, onCancel }: { continuation: Continuation; onCancel: () => void }) {
  return (
    <div className="continuation-note" role="note" aria-label="Continuation">
      <span>
        Continues <q>{continuation.title}</q> from turn {continuation.turn}: the agents first hear that discussion up to
        there. Change the topic or select other agents on the canvas before Start.
      </span>
      <button type="button" className="link-button link-button--small" onClick={onCancel}>
        Start fresh instead
      </button>
    </div>
  );
}
