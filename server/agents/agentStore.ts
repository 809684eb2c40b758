import type { Agent, Position } from '../../src/schemas/agents';
import { DEFAULT_VIEW_CENTRE, drawnPosition, nextFreeSlot } from '../../src/shared/canvasPlacement';
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
  color: string | null;
  avatar: string | null;
  created_at: string | Date;
  /** The agent's voice as its card names it (agent_voices.label), where the query joined it. */
  voice_label?: string | null;
  /** The agent's own sources, where the query read them. */
  source_ids?: string[] | null;
  /** The tools it may call and whether each call waits for the person (docs/tools.md). */
  tools?: string[] | null;
  ask_before_tools?: boolean | null;
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
    color: r.color ?? null,
    avatar: r.avatar ?? null,
    created_at: iso(r.created_at),
    ...(r.voice_label !== undefined ? { voice: r.voice_label } : {}),
    ...(r.source_ids !== undefined ? { source_ids: r.source_ids ?? [] } : {}),
    tools: r.tools ?? [],
    ask_before_tools: r.ask_before_tools ?? false,
  };
}

const WITH_VOICE = `SELECT a.*, v.label AS voice_label,
  ARRAY(SELECT s.source_id FROM agent_sources s WHERE s.agent_id = a.id ORDER BY s.source_id) AS source_ids
  FROM agents a LEFT JOIN agent_voices v ON v.agent_id = a.id`;

/** The user's agent, or a 404 'Agent not found' — another user's id looks exactly like a missing one. */
export async function ownedAgent(db: Queryable, userId: string, agentId: string): Promise<AgentRow> {
  const [row] = await db.query<AgentRow>(`${WITH_VOICE} WHERE a.id = $1 AND a.user_id = $2`, [agentId, userId]);
  if (!row) throw new HttpError(404, AGENT_MESSAGES.notFound);
  return row;
}

/** Creation order is the canvas's stable order and auto-connect's chain order. */
export const listAgents = (db: Queryable, userId: string) =>
  db.query<AgentRow>(`${WITH_VOICE} WHERE a.user_id = $1 ORDER BY a.created_at, a.id`, [userId]);

/** A row written with RETURNING * gets its voice label read back, so an update never drops it from the card. */
export async function withVoiceLabel(db: Queryable, row: AgentRow): Promise<AgentRow> {
  const [v] = await db.query<{ label: string }>('SELECT label FROM agent_voices WHERE agent_id = $1', [row.id]);
  return { ...row, voice_label: v?.label ?? null };
}

/**
 * A free slot for a new agent the caller gave no position (a script, an import): the grid cell nearest the
 * middle of the default view that no drawn agent crowds, so no two nodes overlap and a click on one is never
 * taken by its neighbour. Call it inside a transaction that holds `lockUserAgents`, so two concurrent creates
 * cannot pick the same cell.
 */
export async function freeSlot(db: Queryable, userId: string): Promise<Position> {
  const rows = await listAgents(db, userId);
  return nextFreeSlot(
    rows.map((r) => drawnPosition(toAgent(r))),
    DEFAULT_VIEW_CENTRE,
  );
}

/** Serialises agent placement per user (the user row is the lock; PGlite runs one transaction at a time anyway). */
export const lockUserAgents = (db: Queryable, userId: string) =>
  db.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
