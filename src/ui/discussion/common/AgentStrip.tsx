// The participants strip: each selected agent with its status, the active speaker marked
// (docs/product.md#discussions-screens).
import { isKnownStatus } from '../../../model/agentDisplay';
import { STATUS_LOOKS } from '../../canvas/statusLook';
import { CANVAS_MESSAGES } from '../../../schemas/messages';

export interface StripAgent {
  id: string;
  name: string;
  role?: string | null;
  status: string;
}

export function AgentStrip({
  agents,
  activeSpeakerId,
  down = [],
  using = {},
}: {
  agents: StripAgent[];
  activeSpeakerId: string | null;
  /** agent id → the tool it is using now: its chip says 'using calculator…' (docs/tools.md). */
  using?: Readonly<Record<string, string>>;
  /** Names of the agents whose model server is not answering: an idle chip says 'Model down'. */
  down?: readonly string[];
}) {
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
        const isDown = a.status === 'idle' && down.includes(a.name);
        const tool = using[a.id];
        return (
          <li
            key={a.id}
            className={`agent-chip${speaking ? ' agent-chip--speaking' : ''}${isDown ? ' agent-chip--down' : ''}`}
            title={`${a.name} — ${a.role || 'Assistant'}: ${a.status}`}
          >
            <span className="agent-chip__dot" style={{ background: look.color }} aria-hidden="true" />
            <span className="agent-chip__name">{a.name}</span>
            <span className="agent-chip__status">
              {tool
                ? `using ${tool}…`
                : speaking
                  ? 'Active speaker'
                  : isDown
                    ? CANVAS_MESSAGES.modelNotAnswering
                    : look.label}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
