// A connection's state in one word, for every section of the Models dialog that lists connections.
import type { ConnectionState } from '../../schemas/connectionKinds';

export function ConnectionStatePill({ status }: { status: ConnectionState }) {
  if (status.state === 'reachable') return <span className="badge badge--success">Reachable</span>;
  if (status.state === 'key_rejected') return <span className="badge badge--danger">Key rejected</span>;
  if (status.state === 'unreachable')
    return <span className="badge badge--danger">{status.reason === 'blocked' ? 'Not allowed' : 'Unreachable'}</span>;
  return <span className="badge">Not checked</span>;
}

/** Why a connection cannot be used, in the server's words; null when nothing is wrong. */
export const connectionProblem = (status: ConnectionState): string | null =>
  status.state === 'unreachable' || status.state === 'key_rejected' ? status.detail : null;
