// One evaluation: its progress per method (questions, tokens, time left), the chart and figures, the panels' first
// vote against their final answer, and its actions (stop, resume, export, delete).
import type { EvaluationActorRef } from '../../machines/evaluation.machine';
import type { EvalRun } from '../../schemas/eval';
import { resultKey, resultLabel } from '../../schemas/evalConstants';
import { EvalChart } from './EvalChart';

const STATUS: Record<EvalRun['status'], string> = {
  running: 'Running',
  stopping: 'Stopping…',
  stopped: 'Stopped',
  done: 'Done',
  failed: 'Failed',
};

const seconds = (s: number | null | undefined) =>
  s === null || s === undefined ? null : s < 90 ? `about ${s} s left` : `about ${Math.round(s / 60)} min left`;

export function EvalRunView({ actor, run, busy }: { actor: EvaluationActorRef; run: EvalRun; busy: boolean }) {
  const live = run.status === 'running' || run.status === 'stopping';
  const panels = run.results.filter((r) => r.first_vote);
  return (
    <section className="eval-run" aria-label={`Evaluation ${run.name}`}>
      <div className="eval-run__head">
        <div>
          <h3 className="eval-run__title">{run.name}</h3>
          <p className="eval-run__meta">
            {run.tasks.label} · agents {run.models.length} · rounds {run.rounds}
            {run.equal_tokens ? ' · equal tokens' : ''} · {run.tokens_used.toLocaleString('en')} tokens
            {run.budget_tokens ? ` of ${run.budget_tokens.toLocaleString('en')}` : ''}
          </p>
        </div>
        <span className={`eval-status eval-status--${run.status}`} data-testid="eval-status">
          {STATUS[run.status]}
        </span>
      </div>
      {run.detail && (
        <p className={run.status === 'failed' ? 'eval-run__detail eval-run__detail--error' : 'eval-run__detail'}>
          {run.detail}
        </p>
      )}
      <div className="eval-run__actions">
        {live ? (
          <button
            type="button"
            className="button button--small"
            disabled={busy || run.status === 'stopping'}
            onClick={() => actor.send({ type: 'evaluation.stop', id: run.id })}
          >
            Stop
          </button>
        ) : run.status !== 'done' ? (
          <button
            type="button"
            className="button button--small button--primary"
            disabled={busy}
            onClick={() => actor.send({ type: 'evaluation.resume', id: run.id })}
          >
            Resume
          </button>
        ) : null}
        <button
          type="button"
          className="button button--small"
          disabled={busy}
          onClick={() => actor.send({ type: 'evaluation.export', id: run.id, format: 'csv' })}
        >
          Export CSV
        </button>
        <button
          type="button"
          className="button button--small"
          disabled={busy}
          onClick={() => actor.send({ type: 'evaluation.export', id: run.id, format: 'json' })}
        >
          Export JSON
        </button>
        <button
          type="button"
          className="button button--small button--danger"
          disabled={busy}
          onClick={() => actor.send({ type: 'evaluation.delete', id: run.id })}
        >
          Delete
        </button>
      </div>
      <ul className="eval-progress" aria-label="Progress per method">
        {run.results.map((r) => (
          <li key={resultKey(r)}>
            <div className="eval-progress__line">
              <span className="eval-progress__name">{resultLabel(r)}</span>
              <span className="eval-progress__figures">
                {r.done}/{r.total} questions · {r.tokens.toLocaleString('en')} tokens
                {live && r.done > 0 && r.done < r.total && seconds(r.eta_seconds) ? ` · ${seconds(r.eta_seconds)}` : ''}
                {live && r.done === 0 ? ' · not started' : ''}
              </span>
            </div>
            <progress
              max={r.total}
              value={r.done}
              aria-label={`${resultLabel(r)}: ${r.done} of ${r.total} questions`}
            />
          </li>
        ))}
      </ul>
      <EvalChart
        results={run.results}
        title={`Accuracy per method with 95 % intervals, and tokens per question: ${run.name}`}
      />
      {panels.length > 0 && (
        <table className="eval-table" aria-label="First vote and final answer">
          <caption>
            Did the discussion help? The agents’ first vote (majority of their first answers) against the final answer.
          </caption>
          <thead>
            <tr>
              <th scope="col">Panel</th>
              <th scope="col">First vote right</th>
              <th scope="col">Final right</th>
              <th scope="col">Helped</th>
              <th scope="col">Hurt</th>
              <th scope="col">Agents right→wrong</th>
              <th scope="col">Agents wrong→right</th>
            </tr>
          </thead>
          <tbody>
            {panels.map((r) => (
              <tr key={resultKey(r)}>
                <th scope="row">{resultLabel(r)}</th>
                <td>{`${r.first_vote!.first_correct}/${r.first_vote!.n}`}</td>
                <td>{`${r.first_vote!.final_correct}/${r.first_vote!.n}`}</td>
                <td>{r.first_vote!.helped}</td>
                <td>{r.first_vote!.hurt}</td>
                <td>{r.first_vote!.right_to_wrong}</td>
                <td>{r.first_vote!.wrong_to_right}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {run.results.some((r) => r.estimated_calls > 0) && (
        <p className="eval-note">
          Some models reported no token usage: their tokens are estimated at one per 4 characters.
        </p>
      )}
    </section>
  );
}
