import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/db';
import { HttpError } from '../http/errors';
import type { SecretBox } from '../models/secrets';
import { keyHint } from '../models/secrets';

// The speech_connections and agent_voices tables. Every query is scoped to its user; a sealed key leaves this
// module only opened, for the call that needs it.

export interface SpeechRow {
  id: string;
  user_id: string;
  kind: 'openai' | 'chatterbox';
  name: string;
  base_url: string;
  model: string | null;
  api_key_sealed: string | null;
  api_key_hint: string | null;
  updated_at: string | Date;
}

export interface VoiceRow {
  agent_id: string;
  user_id: string;
  connection_id: string;
  mode: 'stock' | 'clone';
  voice: string | null;
  consent: boolean;
  registered_name: string | null;
  audio_id: string | null;
  label: string;
}

const NOT_FOUND = 'No such speech connection';
const nameClash = (name: string) =>
  new HttpError(409, `You already have a speech connection named "${name}"; choose another name`);
const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505';

export const listSpeechRows = (db: Queryable, userId: string) =>
  db.query<SpeechRow>('SELECT * FROM speech_connections WHERE user_id = $1 ORDER BY created_at, id', [userId]);

export async function findSpeechRow(db: Queryable, userId: string, id: string): Promise<SpeechRow | null> {
  const [row] = await db.query<SpeechRow>('SELECT * FROM speech_connections WHERE id = $1 AND user_id = $2', [
    id,
    userId,
  ]);
  return row ?? null;
}

export async function ownedSpeechRow(db: Queryable, userId: string, id: string): Promise<SpeechRow> {
  const row = await findSpeechRow(db, userId, id);
  if (!row) throw new HttpError(404, NOT_FOUND);
  return row;
}

export const openSpeechKey = (box: SecretBox, row: SpeechRow): string | null => {
  try {
    return row.api_key_sealed ? box.open(row.api_key_sealed, row.id) : null;
  } catch {
    // Sealed with another SECRETS_KEY: the key must be entered again.
    return null;
  }
};

async function assertNameFree(db: Queryable, userId: string, name: string, exceptId: string | null) {
  const rows = await db.query<{ id: string }>(
    'SELECT id FROM speech_connections WHERE user_id = $1 AND lower(name) = lower($2)',
    [userId, name],
  );
  if (rows.some((r) => r.id !== exceptId)) throw nameClash(name);
}

export interface SpeechRowInput {
  kind: 'openai' | 'chatterbox';
  name: string;
  base_url: string;
  model: string | null;
  api_key: string | null;
}

export async function insertSpeechRow(
  db: Queryable,
  box: SecretBox,
  userId: string,
  input: SpeechRowInput,
): Promise<SpeechRow> {
  await assertNameFree(db, userId, input.name, null);
  const id = randomUUID();
  try {
    const [row] = await db.query<SpeechRow>(
      `INSERT INTO speech_connections (id, user_id, kind, name, base_url, model, api_key_sealed, api_key_hint)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [
        id,
        userId,
        input.kind,
        input.name,
        input.base_url,
        input.model,
        input.api_key ? box.seal(input.api_key, id) : null,
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
export async function updateSpeechRow(
  db: Queryable,
  box: SecretBox,
  userId: string,
  id: string,
  patch: { name?: string; base_url?: string; model?: string | null; api_key?: string | null },
): Promise<SpeechRow> {
  const current = await ownedSpeechRow(db, userId, id);
  const name = patch.name ?? current.name;
  await assertNameFree(db, userId, name, id);
  let sealed = current.api_key_sealed;
  let hint = current.api_key_hint;
  if (patch.api_key !== undefined) {
    sealed = patch.api_key ? box.seal(patch.api_key, id) : null;
    hint = patch.api_key ? keyHint(patch.api_key) : null;
  }
  try {
    const [row] = await db.query<SpeechRow>(
      `UPDATE speech_connections SET name = $3, base_url = $4, model = $5, api_key_sealed = $6, api_key_hint = $7, updated_at = now()
       WHERE id = $1 AND user_id = $2 RETURNING *`,
      [
        id,
        userId,
        name,
        patch.base_url ?? current.base_url,
        patch.model !== undefined ? patch.model : current.model,
        sealed,
        hint,
      ],
    );
    if (!row) throw new HttpError(404, NOT_FOUND);
    return row;
  } catch (e) {
    if (isUniqueViolation(e)) throw nameClash(name);
    throw e;
  }
}

export async function deleteSpeechRow(db: Queryable, userId: string, id: string) {
  const rows = await db.query<{ id: string }>(
    'DELETE FROM speech_connections WHERE id = $1 AND user_id = $2 RETURNING id',
    [id, userId],
  );
  if (!rows.length) throw new HttpError(404, NOT_FOUND);
}

export async function voiceRow(db: Queryable, userId: string, agentId: string): Promise<VoiceRow | null> {
  const [row] = await db.query<VoiceRow>('SELECT * FROM agent_voices WHERE agent_id = $1 AND user_id = $2', [
    agentId,
    userId,
  ]);
  return row ?? null;
}

export async function putVoiceRow(db: Queryable, row: VoiceRow) {
  await db.query(
    `INSERT INTO agent_voices (agent_id, user_id, connection_id, mode, voice, consent, registered_name, audio_id, label)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (agent_id) DO UPDATE SET connection_id = $3, mode = $4, voice = $5, consent = $6, registered_name = $7,
       audio_id = $8, label = $9, updated_at = now()`,
    [
      row.agent_id,
      row.user_id,
      row.connection_id,
      row.mode,
      row.voice,
      row.consent,
      row.registered_name,
      row.audio_id,
      row.label,
    ],
  );
}

export const deleteVoiceRow = (db: Queryable, userId: string, agentId: string) =>
  db.query('DELETE FROM agent_voices WHERE agent_id = $1 AND user_id = $2', [agentId, userId]);

/** The voices of a user's agents on one connection (what deleting the connection leaves without a server). */
export const voicesOn = (db: Queryable, userId: string, connectionId: string) =>
  db.query<VoiceRow>('SELECT * FROM agent_voices WHERE user_id = $1 AND connection_id = $2', [userId, connectionId]);
