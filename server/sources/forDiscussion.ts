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

/** The person's sources with these ids, named, in their order; null when one is not theirs. */
export async function ownNamedSources(
  db: Queryable,
  userId: string,
  ids: readonly string[],
): Promise<Array<{ id: string; name: string }> | null> {
  const unique = [...new Set(ids)];
  const rows = await db.query<{ id: string; name: string }>(
    'SELECT id, name FROM sources WHERE user_id = $1 AND id = ANY($2::text[])',
    [userId, unique],
  );
  if (rows.length !== unique.length) return null;
  const byId = new Map(rows.map((r) => [r.id, r.name]));
  return unique.map((id) => ({ id, name: byId.get(id) ?? id }));
}
