// The participants strip: each selected agent with its status, the active speaker marked
// (docs/product.md#discussions-screens).
import { isKnownStatus } from '../../../model/agentDisplay';
import { STATUS_LOOKS } from '../../canvas/statusLook';

export interface StripAgent {
  id: string;
  name: string;
  role?: string | null;
  status: string;
}

export function AgentStrip({ agents, activeSpeakerId }: { agents: StripAgent[]; activeSpeakerId: string | null }) {
  if (agents.length === 0) {
    return (
      <p className="agent-strip agent-strip--empty muted">Select two or more agents on the canvas to take part.</p>
    );
  }
  return (
    <ul className="agent-strip" aria-label="Participants">
      {agents.map((a) => {
        const speaking = a.id === activeSpeakerId;
        const look = STATUS_LOOKS[isKnownStatus(a.status) ? a.status : 'idle'];
        return (
          <li
            key={a.id}
            className={`agent-chip${speaking ? ' agent-chip--speaking' : ''}`}
            title={`${a.name} — ${a.role || 'Assistant'}: ${a.status}`}
          >
            <span className="agent-chip__dot" style={{ background: look.color }} aria-hidden="true" />
            <span className="agent-chip__name">{a.name}</span>
            <span className="agent-chip__status">{speaking ? 'Active speaker' : look.label}</span>
          </li>
        );
      })}
    </ul>
  );
}
