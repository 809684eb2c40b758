import { randomUUID } from 'node:crypto';
import type { Panel, PanelCreate, PanelUpdate } from '../../src/schemas/panels';
import type { Db, Queryable } from '../db/db';
import { HttpError } from '../http/errors';

// The saved panels' SQL. Every query names the user: another person's panel is not found, in the same words as one
// that does not exist; a panel seats only its owner's agents.

export const PANEL_NOT_FOUND = 'Panel not found';

interface PanelRow {
  id: string;
  name: string;
  agent_ids: string[] | string;
  format: Panel['format'] | string | null;
  settings: Panel['settings'] | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);
const toPanel = (r: PanelRow): Panel => ({
  id: r.id,
  name: r.name,
  agent_ids: json(r.agent_ids),
  format: r.format === null ? null : json(r.format),
  settings: r.settings === null ? null : json(r.settings),
  created_at: new Date(r.created_at).toISOString(),
  updated_at: new Date(r.updated_at).toISOString(),
});

export const listPanels = async (db: Queryable, userId: string): Promise<Panel[]> =>
  (await db.query<PanelRow>('SELECT * FROM panels WHERE user_id = $1 ORDER BY lower(name), id', [userId])).map(toPanel);

export async function ownedPanel(db: Queryable, userId: string, id: string): Promise<Panel> {
  const [row] = await db.query<PanelRow>('SELECT * FROM panels WHERE id = $1 AND user_id = $2', [id, userId]);
  if (!row) throw new HttpError(404, PANEL_NOT_FOUND);
  return toPanel(row);
}

/** A panel by its id, or by its name whatever the case (how outside clients name it). */
export async function panelByIdOrName(db: Queryable, userId: string, ref: string): Promise<Panel> {
  const [row] = await db.query<PanelRow>(
    'SELECT * FROM panels WHERE user_id = $1 AND (id = $2 OR lower(name) = lower($2)) ORDER BY (id = $2) DESC LIMIT 1',
    [userId, ref],
  );
  if (!row) throw new HttpError(404, PANEL_NOT_FOUND);
  return toPanel(row);
}

/** Each agent must be the person's own: one that is not is named as missing, never as someone else's. */
async function checkAgents(db: Queryable, userId: string, ids: string[]) {
  const rows = await db.query<{ id: string }>('SELECT id FROM agents WHERE user_id = $1 AND id = ANY($2::text[])', [
    userId,
    ids,
  ]);
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length)
    throw new HttpError(
      422,
      `No agent ${missing.map((m) => `'${m}'`).join(', ')} among yours: a panel seats your agents`,
    );
}

const nameTaken = (name: string) => new HttpError(409, `You already have a panel named '${name}'`);
const isUniqueViolation = (e: unknown) => (e as { code?: string }).code === '23505';

export async function createPanel(db: Db, userId: string, body: PanelCreate, perUser: number): Promise<Panel> {
  return db.transaction(async (tx) => {
    // One person's panels are counted and named under a lock on the person, so two creates cannot pass the cap.
    await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
    const [{ n }] = await tx.query<{ n: string }>('SELECT count(*) AS n FROM panels WHERE user_id = $1', [userId]);
    if (Number(n) >= perUser)
      throw new HttpError(
        409,
        `You have ${perUser} panels, the most this server keeps (PANELS_PER_USER); delete one first`,
      );
    await checkAgents(tx, userId, body.agent_ids);
    try {
      const [row] = await tx.query<PanelRow>(
        `INSERT INTO panels (id, user_id, name, agent_ids, format, settings)
         VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6::jsonb) RETURNING *`,
        [
          randomUUID(),
          userId,
          body.name,
          JSON.stringify(body.agent_ids),
          body.format ? JSON.stringify(body.format) : null,
          body.settings ? JSON.stringify(body.settings) : null,
        ],
      );
      return toPanel(row);
    } catch (e) {
      throw isUniqueViolation(e) ? nameTaken(body.name) : e;
    }
  });
}

export async function updatePanel(db: Queryable, userId: string, id: string, patch: PanelUpdate): Promise<Panel> {
  const current = await ownedPanel(db, userId, id);
  if (patch.agent_ids) await checkAgents(db, userId, patch.agent_ids);
  const next = {
    name: patch.name ?? current.name,
    agent_ids: patch.agent_ids ?? current.agent_ids,
    // null clears; absent keeps what is stored.
    format: patch.format === undefined ? current.format : patch.format,
    settings: patch.settings === undefined ? current.settings : patch.settings,
  };
  try {
    const [row] = await db.query<PanelRow>(
      `UPDATE panels SET name = $3, agent_ids = $4::jsonb, format = $5::jsonb, settings = $6::jsonb, updated_at = now()
       WHERE id = $1 AND user_id = $2 RETURNING *`,
      [
        id,
        userId,
        next.name,
        JSON.stringify(next.agent_ids),
        next.format ? JSON.stringify(next.format) : null,
        next.settings ? JSON.stringify(next.settings) : null,
      ],
    );
    if (!row) throw new HttpError(404, PANEL_NOT_FOUND);
    return toPanel(row);
  } catch (e) {
    throw isUniqueViolation(e) ? nameTaken(next.name) : e;
  }
}

export async function deletePanel(db: Queryable, userId: string, id: string) {
  const rows = await db.query('DELETE FROM panels WHERE id = $1 AND user_id = $2 RETURNING id', [id, userId]);
  if (!rows.length) throw new HttpError(404, PANEL_NOT_FOUND);
}
