// The selected agents (the discussion's participants), each removable, pointing to the Discussion panel; two or more
// can be saved as a named panel.
import { CloseIcon } from '../common/icons';
import type { Agent } from '../../schemas/agents';
import { CANVAS_MESSAGES } from '../../schemas/messages';
import { displayName } from '../../model/agentDisplay';

export function ParticipantsBox({
  agents,
  onRemove,
  sayCount = true,
  onSaveAsPanel,
}: {
  agents: readonly Agent[];
  onRemove: (agentId: string) => void;
  /** Say here that two agents are needed: not while the open panel says it beside its Start (said once). */
  sayCount?: boolean;
  onSaveAsPanel?: () => void;
}) {
  if (agents.length === 0 && !sayCount) return null;
  if (agents.length === 0) {
    return (
      <section className="agora-canvas-box agora-participants" aria-label="Participants">
        <p className="agora-participants-hint">{CANVAS_MESSAGES.selectHint}</p>
      </section>
    );
  }
  return (
    <section className="agora-canvas-box agora-participants" aria-label="Participants">
      <h2>Participants ({agents.length})</h2>
      <ul>
        {agents.map((a) => (
          <li key={a.id}>
            <span>{displayName(a)}</span>
            <button
              type="button"
              className="agora-icon-btn"
              onClick={() => onRemove(a.id)}
              aria-label={`Remove ${displayName(a)}`}
            >
              <CloseIcon size={14} />
            </button>
          </li>
        ))}
      </ul>
      {(agents.length >= 2 || sayCount) && (
        <p className="agora-participants-hint">
          {agents.length >= 2
            ? 'Start the discussion in the Discussion panel →'
            : 'Select one more agent, then use the Discussion panel →'}
        </p>
      )}
      {onSaveAsPanel && agents.length >= 2 && (
        <button type="button" className="button button--small agora-participants-save" onClick={onSaveAsPanel}>
          Save as panel…
        </button>
      )}
    </section>
  );
}
