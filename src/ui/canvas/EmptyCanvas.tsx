// What a new workspace shows: what agents are for and the one thing to do next.
import { PlusIcon, UsersIcon } from '../common/icons';
import { CANVAS_MESSAGES } from '../../schemas/messages';

export function EmptyCanvas({ onCreate }: { onCreate: () => void }) {
  return (
    <section className="agora-empty" aria-labelledby="agora-empty-title">
      <span className="agora-empty-icon">
        <UsersIcon size={28} />
      </span>
      <h2 id="agora-empty-title">Build your panel of agents</h2>
      <p>
        Each agent has a name, a role, a prompt and a model. Create two or more, connect them, then select them to start
        a discussion.
      </p>
      <p className="agora-empty-note">{CANVAS_MESSAGES.connectionMeaning}</p>
      <button type="button" className="agora-btn agora-btn--primary agora-btn--large" onClick={onCreate}>
        <PlusIcon size={16} />
        Create your first agent
      </button>
    </section>
  );
}
