// Add Agent, Auto-Connect, Auto-layout, Clear Selection (n); counts of agents, connections and selected, and once
// there are connections what they do; the active speaker.
import { CANVAS_MESSAGES } from '../../schemas/messages';
import { LayoutIcon, LinkIcon } from '../common/icons';

interface Props {
  agentCount: number;
  connectionCount: number;
  selectedCount: number;
  activeSpeaker: string | null;
  autoConnecting: boolean;
  onAdd: () => void;
  onAutoConnect: () => void;
  onAutoLayout: () => void;
  onClearSelection: () => void;
}

export function ControlsBox(p: Props) {
  return (
    <section className="agora-canvas-box agora-controls" aria-label="Canvas controls">
      <div className="agora-controls-buttons">
        <button
          type="button"
          className="agora-btn agora-btn--primary agora-controls-add"
          onClick={p.onAdd}
          data-focus-home
        >
          + Add Agent
        </button>
        <button
          type="button"
          className="agora-btn"
          onClick={p.onAutoConnect}
          disabled={p.autoConnecting || p.agentCount < 2}
          title="Connect agents automatically"
        >
          <LinkIcon size={14} />
          {p.autoConnecting ? 'Connecting…' : 'Auto-Connect'}
        </button>
        <button
          type="button"
          className="agora-btn"
          onClick={p.onAutoLayout}
          disabled={p.agentCount < 2}
          title="Arrange agents by their connections"
        >
          <LayoutIcon size={14} />
          Auto-layout
        </button>
        <button
          type="button"
          className="agora-btn agora-controls-clear"
          onClick={p.onClearSelection}
          disabled={p.selectedCount === 0}
        >
          Clear Selection ({p.selectedCount})
        </button>
      </div>
      <dl className="agora-controls-counts">
        <div>
          <dt>Agents</dt>
          <dd data-testid="canvas-count-agents">{p.agentCount}</dd>
        </div>
        <div>
          <dt>Connections</dt>
          <dd data-testid="canvas-count-connections">{p.connectionCount}</dd>
        </div>
        <div>
          <dt>Selected</dt>
          <dd data-testid="canvas-count-selected">{p.selectedCount}</dd>
        </div>
      </dl>
      {p.connectionCount > 0 && <p className="agora-controls-note">{CANVAS_MESSAGES.connectionsHear}</p>}
      <p className={`agora-controls-speaker${p.activeSpeaker ? ' is-live' : ''}`}>
        Active speaker: <strong>{p.activeSpeaker ?? 'None'}</strong>
      </p>
    </section>
  );
}
