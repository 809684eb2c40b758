import type { Connection } from '../../src/schemas/connections';

export interface ConnectionRow {
  id: string;
  user_id: string;
  from_agent_id: string;
  to_agent_id: string;
  created_at: string | Date;
}

/** Both spellings at once (source/target for the canvas, from/to for older clients). */
export const toConnection = (r: ConnectionRow): Connection & { created_at: string } => ({
  id: r.id,
  source: r.from_agent_id,
  target: r.to_agent_id,
  from_agent_id: r.from_agent_id,
  to_agent_id: r.to_agent_id,
  created_at: new Date(r.created_at).toISOString(),
});

const pairKey = (a: string, b: string) => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

/**
 * Auto-connect's plan: the agents, in creation order (created_at, then id), form a chain
 * a1→a2→…→an; each link is made unless the two are already connected in either direction.
 * Deterministic for the same agents and connections, and idempotent (a second run plans nothing).
 */
export function planAutoConnect(
  orderedAgentIds: string[],
  existing: Array<Pick<ConnectionRow, 'from_agent_id' | 'to_agent_id'>>,
): Array<[string, string]> {
  const linked = new Set(existing.map((c) => pairKey(c.from_agent_id, c.to_agent_id)));
  const plan: Array<[string, string]> = [];
  for (let i = 0; i + 1 < orderedAgentIds.length; i++) {
    const [a, b] = [orderedAgentIds[i], orderedAgentIds[i + 1]];
    if (!linked.has(pairKey(a, b))) plan.push([a, b]);
  }
  return plan;
}
