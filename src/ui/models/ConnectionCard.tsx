// One connection in the Models dialog: its name, kind, address, key hint, state, models and (for the user's own
// Ollama, and the server's for its operator) pulls with their progress bars.
import { useSelector } from '@xstate/react';
import { useState, type ReactNode } from 'react';
import type { ModelsActorRef } from '../../machines/models.machine';
import { formatBytes, jobPercent, selectIsStartingPull, selectJobsOf } from '../../machines/models.selectors';
import { connectionTag } from '../../model/connectionTag';
import type { ModelConnection, ModelJob } from '../../schemas/modelConnections';

const kindLabel = (c: ModelConnection) => connectionTag(c);

function StatePill({ c }: { c: ModelConnection }) {
  const s = c.status;
  if (s.state === 'reachable') return <span className="badge badge--success">Reachable</span>;
  if (s.state === 'key_rejected') return <span className="badge badge--danger">Key rejected</span>;
  if (s.state === 'unreachable')
    return <span className="badge badge--danger">{s.reason === 'blocked' ? 'Not allowed' : 'Unreachable'}</span>;
  return <span className="badge">Not checked</span>;
}

function PullRow({ models, job }: { models: ModelsActorRef; job: ModelJob }) {
  const pct = jobPercent(job);
  const label = `Pulling ${job.model}`;
  return (
    <li className={`models-job models-job--${job.status}`}>
      <div className="models-job__line">
        <strong>{job.model}</strong>
        <span className="models-job__phase">
          {job.status === 'running' &&
            (job.total > 0 ? `${formatBytes(job.completed)} of ${formatBytes(job.total)} · ${pct}%` : job.phase)}
          {job.status === 'done' && 'Pulled'}
          {job.status === 'cancelled' && 'Cancelled'}
          {job.status === 'failed' && `Failed: ${job.error ?? 'unknown error'}`}
        </span>
        {job.status === 'running' && (
          <button
            type="button"
            className="button button--small"
            onClick={() => models.send({ type: 'models.pull.cancel', jobId: job.id })}
          >
            Cancel
          </button>
        )}
      </div>
      {job.status === 'running' && (
        <div
          className="models-progress"
          role="progressbar"
          aria-label={label}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct}
          aria-valuetext={`${pct}%`}
        >
          <div className="models-progress__bar" style={{ width: `${pct}%` }} />
        </div>
      )}
      {job.status === 'running' && job.total > 0 && <span className="models-job__status">{job.phase}</span>}
    </li>
  );
}

/** `children` replaces the list of model names with a section that manages them (the Built-in engine's files). */
export function ConnectionCard({
  models,
  connection: c,
  children,
}: {
  models: ModelsActorRef;
  connection: ModelConnection;
  children?: ReactNode;
}) {
  const jobs = useSelector(models, (s) => selectJobsOf(s, c.id));
  const starting = useSelector(models, selectIsStartingPull);
  // The model name being typed is this field's own until Pull sends it.
  const [pullName, setPullName] = useState('');
  const canManage = c.kind === 'ollama' && c.manage_models;
  const reason = c.status.state === 'unreachable' || c.status.state === 'key_rejected' ? c.status.detail : null;

  return (
    <article className="models-card" aria-label={`Connection ${c.name}`}>
      <div className="models-card__head">
        <strong className="models-card__name">{c.name}</strong>
        <span className="badge badge--info">{kindLabel(c)}</span>
        <StatePill c={c} />
        {!c.read_only && (
          <span className="models-card__actions">
            <button
              type="button"
              className="button button--small"
              onClick={() => models.send({ type: 'models.edit', id: c.id })}
            >
              Edit
            </button>
            <button
              type="button"
              className="button button--small button--danger"
              onClick={() => models.send({ type: 'models.connection.delete', id: c.id })}
            >
              Delete
            </button>
          </span>
        )}
      </div>
      <p className="models-card__meta">
        {/* The server's own address is its operator's to know; others read who set it up. */}
        {c.base_url ? (
          <span className="models-card__url">{c.base_url}</span>
        ) : (
          <span>Set up by the server’s operator</span>
        )}
        {c.api_key_hint && <span> · key {c.api_key_hint}</span>}
      </p>
      {reason && <p className="models-card__reason">{reason}</p>}
      {children ? (
        <div className="models-card__section">{children}</div>
      ) : c.models.length > 0 ? (
        <ul className="models-list" aria-label={`Models of ${c.name}`}>
          {c.models.map((m) => (
            <li key={m.id} className={c.stale ? 'models-list__item models-list__item--stale' : 'models-list__item'}>
              <span>{m.name}</span>
              {canManage && !c.stale && (
                <button
                  type="button"
                  className="link-button models-list__delete"
                  aria-label={`Delete ${m.name}`}
                  onClick={() => models.send({ type: 'models.model.delete', connectionId: c.id, model: m.name })}
                >
                  Delete
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : (
        c.status.state === 'reachable' && (
          <p className="models-card__meta">{canManage ? 'No models yet: pull one below.' : 'It lists no models.'}</p>
        )
      )}
      {c.stale && <p className="models-card__meta">Models it listed when it last answered.</p>}
      {jobs.length > 0 && (
        <ul className="models-jobs">
          {jobs.map((j) => (
            <PullRow key={j.id} models={models} job={j} />
          ))}
        </ul>
      )}
      {canManage && (
        <form
          className="models-pull"
          onSubmit={(e) => {
            e.preventDefault();
            models.send({ type: 'models.pull', connectionId: c.id, model: pullName });
            setPullName('');
          }}
        >
          <label htmlFor={`pull-${c.id}`}>Pull a model</label>
          <input
            id={`pull-${c.id}`}
            value={pullName}
            placeholder="e.g. qwen2.5:0.5b, llama3.2:1b"
            onChange={(e) => setPullName(e.target.value)}
            spellCheck={false}
            autoComplete="off"
          />
          <button type="submit" className="button button--small" disabled={!pullName.trim() || starting}>
            Pull
          </button>
        </form>
      )}
    </article>
  );
}
