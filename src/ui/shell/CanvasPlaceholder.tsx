// The left area until the agent canvas lands: an honest empty state that already shows the live agent list.
import { useSelector } from '@xstate/react';
import type { AppActorRef } from '../../machines/app.machine';
import { selectWorkspace } from '../../machines/app.selectors';
import { selectLoadError } from '../../machines/workspace.selectors';

export function CanvasPlaceholder({ app }: { app: AppActorRef }) {
  const workspace = useSelector(app, selectWorkspace);
  const agents = useSelector(workspace, (s) => s?.context.agents ?? []);
  const loadError = useSelector(workspace, (s) => (s ? selectLoadError(s) : null));
  return (
    <section className="placeholder" aria-label="Agent canvas">
      <h2>Agent canvas</h2>
      <p className="muted">The agent canvas arrives with the agents feature. Until then, your agents are listed here as they change.</p>
      {loadError && (
        <p className="form-message form-message--error" role="alert">
          {loadError}
        </p>
      )}
      <p>
        {agents.length} agent{agents.length === 1 ? '' : 's'}
      </p>
      {agents.length > 0 && (
        <ul className="placeholder__list">
          {agents.map((a) => (
            <li key={a.id}>
              <strong>{a.name}</strong>
              {a.role ? <span className="muted"> · {a.role}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
