import type { Queryable } from '../db/db';
import { connectionStore } from '../connections/store';
import type { UserSpeechKind } from '../../src/schemas/speechConnections';

// The speech_connections table (one use of the connections store, server/connections/store.ts, with a speech
// connection's own column, its model) and agent_voices. Every query is scoped to its user.

export interface SpeechRow {
  id: string;
  user_id: string;
  kind: UserSpeechKind;
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

export const speechConnectionStore = connectionStore<SpeechRow, 'model'>({
  table: 'speech_connections',
  noun: 'speech connection',
  notFound: 'No such speech connection',
  extra: ['model'],
});

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
