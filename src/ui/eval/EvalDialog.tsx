// The Evaluate dialog (README 'Does the panel help?'): a new run's settings on the left, the user's stored runs
// and the chosen one's progress and figures on the right. It only draws the evaluation chart's snapshot and sends
// its events.
import { useSelector } from '@xstate/react';
import type { EvaluationActorRef } from '../../machines/evaluation.machine';
import {
  selectEvalActionError,
  selectEvalLoadError,
  selectEvalRuns,
  selectIsEvalBusy,
  selectIsEvalLoading,
  selectSelectedRun,
} from '../../machines/evaluation.selectors';
import { AlertLine, DialogHeader } from '../common/DialogParts';
import { EvalFormView } from './EvalFormView';
import { EvalRunView } from './EvalRunView';
import './eval.css';

export function EvalDialog({ actor }: { actor: EvaluationActorRef }) {
  const runs = useSelector(actor, selectEvalRuns);
  const selected = useSelector(actor, selectSelectedRun);
  const loading = useSelector(actor, selectIsEvalLoading);
  const loadError = useSelector(actor, selectEvalLoadError);
  const actionError = useSelector(actor, selectEvalActionError);
  const busy = useSelector(actor, selectIsEvalBusy);
  const close = () => actor.send({ type: 'evaluation.close' });
  return (
    <div className="eval-backdrop" onClick={close}>
      <div
        className="eval-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="eval-title"
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === 'Escape') close();
        }}
      >
        <DialogHeader
          prefix="eval-dialog"
          titleId="eval-title"
          title="Evaluate"
          lead="Does the panel help? Run your panel against one model on the same questions, at equal tokens."
          onClose={close}
          focusClose
        />
        <div className="eval-dialog__body">
          {actionError && (
            <AlertLine
              className="eval-alert"
              action="Dismiss"
              onAction={() => actor.send({ type: 'evaluation.error.dismiss' })}
            >
              {actionError}
            </AlertLine>
          )}
          {loadError && (
            <AlertLine className="eval-alert" action="Retry" onAction={() => actor.send({ type: 'evaluation.retry' })}>
              {loadError}
            </AlertLine>
          )}
          <div className="eval-columns">
            <EvalFormView actor={actor} />
            <div className="eval-runs">
              <h3 className="eval-section-title">Your evaluations</h3>
              {loading && <p className="eval-note">Loading…</p>}
              {!loading && runs.length === 0 && (
                <p className="eval-empty">
                  None yet. Choose a task set, your models and the methods, then Start evaluation.
                </p>
              )}
              {runs.length > 0 && (
                <ul className="eval-run-list" aria-label="Stored evaluations">
                  {runs.map((r) => (
                    <li key={r.id}>
                      <button
                        type="button"
                        className={r.id === selected?.id ? 'eval-run-item eval-run-item--selected' : 'eval-run-item'}
                        aria-pressed={r.id === selected?.id}
                        onClick={() => actor.send({ type: 'evaluation.select', id: r.id })}
                      >
                        <span className="eval-run-item__name">{r.name}</span>
                        <span className={`eval-status eval-status--${r.status}`}>{r.status}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              )}
              {selected && <EvalRunView actor={actor} run={selected} busy={busy} />}
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}

export default EvalDialog;
