import type { Agent } from '../../src/schemas/agents';
import { AGENT_MESSAGES } from '../../src/schemas/messages';
import type { Queryable } from '../db/db';
import { HttpError } from '../http/errors';

export interface AgentRow {
  id: string;
  user_id: string;
  name: string;
  role: string;
  prompt: string;
  model: string;
  personality: string | null;
  capabilities: string[] | string;
  status: string;
  x: number | null;
  y: number | null;
  created_at: string | Date;
}

const iso = (v: string | Date) => new Date(v).toISOString();

/** The wire shape of an agent (src/schemas/agents.ts `agent`). */
export function toAgent(r: AgentRow): Agent {
  // JSONB comes back parsed from both engines, but be tolerant of a text column on older databases.
  const capabilities = typeof r.capabilities === 'string' ? (JSON.parse(r.capabilities) as string[]) : r.capabilities;
  return {
    id: r.id,
    name: r.name,
    role: r.role,
    prompt: r.prompt,
    model: r.model,
    personality: (r.personality ?? null) as Agent['personality'],
    capabilities,
    status: r.status,
    x: r.x === null ? null : Number(r.x),
    y: r.y === null ? null : Number(r.y),
    created_at: iso(r.created_at),
  };
}

/** The user's agent, or a 404 'Agent not found' — another user's id looks exactly like a missing one. */
export async function ownedAgent(db: Queryable, userId: string, agentId: string): Promise<AgentRow> {
  const [row] = await db.query<AgentRow>('SELECT * FROM agents WHERE id = $1 AND user_id = $2', [agentId, userId]);
  if (!row) throw new HttpError(404, AGENT_MESSAGES.notFound);
  return row;
}

/** Creation order is the canvas's stable order and auto-connect's chain order. */
export const listAgents = (db: Queryable, userId: string) =>
  db.query<AgentRow>('SELECT * FROM agents WHERE user_id = $1 ORDER BY created_at, id', [userId]);
