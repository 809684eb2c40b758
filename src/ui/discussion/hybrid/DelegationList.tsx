// Who handed what to whom (docs/product.md#discussions-entities 'Delegation'): from → to, reason or task, time.
import type { DelegationEntry } from '../../../model/feed';
import { EmptyState } from '../common/EmptyState';

export function DelegationList({ delegations }: { delegations: readonly DelegationEntry[] }) {
  if (delegations.length === 0)
    return (
      <EmptyState title="No delegations yet">When an agent hands a task to another, it is listed here.</EmptyState>
    );
  return (
    <ol className="delegation-list" aria-label="Delegations">
      {delegations.map((d) => (
        <li key={d.key} className="delegation">
          <span className="delegation__route">
            <strong>{d.from}</strong> → <strong>{d.to}</strong>
          </span>
          {(d.reason ?? d.task) && <span className="delegation__reason">{d.reason ?? d.task}</span>}
          {d.timestamp && <time className="delegation__time muted">{new Date(d.timestamp).toLocaleTimeString()}</time>}
        </li>
      ))}
    </ol>
  );
}
