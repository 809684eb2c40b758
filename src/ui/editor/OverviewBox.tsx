// Edit-mode summary of the stored agent: status (Active unless the agent says otherwise), creation date,
// model (as modelName says it), and its capabilities with underscores read as spaces.
import type { Agent } from '../../schemas/agents';
import { capabilityLabel } from '../../machines/editor.selectors';
import { useModelName } from '../models/useModelName';

const formatDate = (iso: string | null | undefined) => {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
};

export function OverviewBox({ agent }: { agent: Agent | null }) {
  const capabilities = agent?.capabilities ?? [];
  const nameOf = useModelName();
  return (
    <section className="agora-editor-box" aria-label="Overview">
      <h3>Overview</h3>
      <dl className="agora-editor-overview">
        <dt>Status</dt>
        <dd>{agent?.status ? agent.status : 'Active'}</dd>
        <dt>Created</dt>
        <dd>{formatDate(agent?.created_at)}</dd>
        <dt>Model</dt>
        <dd>{agent ? nameOf(agent.model) : '—'}</dd>
        <dt>Voice</dt>
        <dd>{agent?.voice || 'Server default speech'}</dd>
      </dl>
      <h3>Capabilities</h3>
      {capabilities.length === 0 ? (
        <p className="agora-muted">No capabilities listed.</p>
      ) : (
        <ul className="agora-editor-capabilities" aria-label="Capabilities">
          {capabilities.map((c) => (
            <li key={c}>{capabilityLabel(c)}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
