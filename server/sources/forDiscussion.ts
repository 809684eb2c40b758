import type { Queryable } from '../db/db';
import type { AgentRef } from '../engine/agentRef';
import { agentSourceIds } from './store';

// What a discussion's entrance asks of the sources: whether the configuration names only the person's own, and
// each agent's own sources (the editor's 'Knowledge'), which only that agent reads.

export { ownsAllSources as ownsSources } from './store';

export async function withOwnSources(db: Queryable, agents: AgentRef[]): Promise<AgentRef[]> {
  const own = await agentSourceIds(
    db,
    agents.map((a) => a.id),
  );
  return own.size ? agents.map((a) => (own.has(a.id) ? { ...a, sourceIds: own.get(a.id) } : a)) : agents;
}
