import { randomUUID } from 'node:crypto';
import type { Db } from '../db/db';
import { HttpError } from '../http/errors';
import type { SecretBox } from './secrets';
import { keyHint } from './secrets';

// The model_connections table. Every query is scoped to its user; the sealed key leaves this module only opened,
// and only for the call that needs it (storedKey).

export interface ConnectionRow {
  id: string;
  user_id: string;
  kind: 'ollama' | 'openai';
  preset: string | null;
  name: string;
  base_url: string;
  api_key_sealed: string | null;
  api_key_hint: string | null;
  updated_at: string | Date;
}

export const listRows = (db: Db, userId: string) =>
  db.query<ConnectionRow>('SELECT * FROM model_connections WHERE user_id = $1 ORDER BY created_at, id', [userId]);

/** The user's connection by id; someone else's reads as missing. */
export async function findOwnedRow(db: Db, userId: string, id: string): Promise<ConnectionRow | undefined> {
  const [row] = await db.query<ConnectionRow>('SELECT * FROM model_connections WHERE id = $1 AND user_id = $2', [
    id,
    userId,
  ]);
  return row;
}

export async function ownedRow(db: Db, userId: string, id: string): Promise<ConnectionRow> {
  const row = await findOwnedRow(db, userId, id);
  if (!row) throw new HttpError(404, 'No such model connection');
  return row;
}

export const storedKey = (box: SecretBox, row: ConnectionRow): string | null =>
  row.api_key_sealed ? box.open(row.api_key_sealed, row.id) : null;

async function assertNameFree(db: Db, userId: string, name: string, exceptId: string | null) {
  const rows = await db.query<{ id: string }>(
    'SELECT id FROM model_connections WHERE user_id = $1 AND lower(name) = lower($2)',
    [userId, name],
  );
  if (rows.some((r) => r.id !== exceptId))
    throw new HttpError(409, `You already have a connection named "${name}"; choose another name`);
}

const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505';
const nameClash = (name: string) =>
  new HttpError(409, `You already have a connection named "${name}"; choose another name`);

export interface RowInput {
  kind: 'ollama' | 'openai';
  preset: string | null;
  name: string;
  base_url: string;
  api_key: string | null;
}

export async function insertRow(db: Db, box: SecretBox, userId: string, input: RowInput): Promise<ConnectionRow> {
  await assertNameFree(db, userId, input.name, null);
  const id = randomUUID();
  const sealed = input.api_key ? box.seal(input.api_key, id) : null;
  try {
    const [row] = await db.query<ConnectionRow>(
      `INSERT INTO model_connections (id, user_id, kind, preset, name, base_url, api_key_sealed, api_key_hint)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [
        id,
        userId,
        input.kind,
        input.preset,
        input.name,
        input.base_url,
        sealed,
        input.api_key ? keyHint(input.api_key) : null,
      ],
    );
    return row;
  } catch (e) {
    if (isUniqueViolation(e)) throw nameClash(input.name);
    throw e;
  }
}

/** `api_key`: undefined keeps the stored key, null or '' removes it, a string replaces it. */
export async function updateRow(
  db: Db,
  box: SecretBox,
  userId: string,
  id: string,
  patch: { preset?: string | null; name?: string; base_url?: string; api_key?: string | null },
): Promise<ConnectionRow> {
  const current = await ownedRow(db, userId, id);
  const name = patch.name ?? current.name;
  await assertNameFree(db, userId, name, id);
  let sealed = current.api_key_sealed;
  let hint = current.api_key_hint;
  if (patch.api_key !== undefined) {
    sealed = patch.api_key ? box.seal(patch.api_key, id) : null;
    hint = patch.api_key ? keyHint(patch.api_key) : null;
  }
  try {
    const [row] = await db.query<ConnectionRow>(
      `UPDATE model_connections SET preset = $3, name = $4, base_url = $5, api_key_sealed = $6, api_key_hint = $7, updated_at = now()
       WHERE id = $1 AND user_id = $2 RETURNING *`,
      [
        id,
        userId,
        patch.preset !== undefined ? patch.preset : current.preset,
        name,
        patch.base_url ?? current.base_url,
        sealed,
        hint,
      ],
    );
    if (!row) throw new HttpError(404, 'No such model connection');
    return row;
  } catch (e) {
    if (isUniqueViolation(e)) throw nameClash(name);
    throw e;
  }
}

export async function deleteRow(db: Db, userId: string, id: string) {
  const rows = await db.query<{ id: string }>(
    'DELETE FROM model_connections WHERE id = $1 AND user_id = $2 RETURNING id',
    [id, userId],
  );
  if (!rows.length) throw new HttpError(404, 'No such model connection');
}
