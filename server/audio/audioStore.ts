import type { AudioItem } from '../../src/schemas/audio';
import type { Queryable } from '../db/db';
import { HttpError } from '../http/errors';
import { audioUrl } from './audioFiles';

export interface AudioRow {
  id: string;
  user_id: string;
  agent_id: string;
  name: string;
  file_name: string;
  mime_type: string;
  size_bytes: number;
  access_key: string;
  is_default: boolean;
  transcript: string | null;
  created_at: string | Date;
}

export const AUDIO_NOT_FOUND = 'Audio not found';

/** The wire shape of an audio item (src/schemas/audio.ts `audioItem`). */
export const toAudioItem = (r: AudioRow): AudioItem => ({
  id: r.id,
  name: r.name,
  audio_url: audioUrl(r.file_name, r.access_key),
  is_default: r.is_default,
  transcript: r.transcript,
  agent_id: r.agent_id,
  created_at: new Date(r.created_at).toISOString(),
});

export async function ownedAudio(db: Queryable, userId: string, audioId: string): Promise<AudioRow> {
  const [row] = await db.query<AudioRow>('SELECT * FROM audio_items WHERE id = $1 AND user_id = $2', [audioId, userId]);
  if (!row) throw new HttpError(404, AUDIO_NOT_FOUND);
  return row;
}

/** Newest first, the order the editor lists them in. */
export const listAudio = (db: Queryable, userId: string, agentId: string) =>
  db.query<AudioRow>(
    'SELECT * FROM audio_items WHERE agent_id = $1 AND user_id = $2 ORDER BY created_at DESC, id DESC',
    [agentId, userId],
  );
