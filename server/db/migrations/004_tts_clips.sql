-- Who made each generated speech clip and how big it is, for the per-user quota of stored speech (TTS_QUOTA_MB).
-- The files live in <media>/tts and are pruned after TTS_RETENTION_HOURS; a row older than that no longer counts.
CREATE TABLE IF NOT EXISTS tts_clips (
  file_name TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  size_bytes BIGINT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS tts_clips_user_created ON tts_clips (user_id, created_at);
