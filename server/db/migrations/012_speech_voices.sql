-- Speech connections a user adds (README 'Voices'): an OpenAI-compatible speech server or a voice-cloning server
-- speaking the Chatterbox TTS API. The key is sealed as model connections' keys are (server/models/secrets.ts).
CREATE TABLE IF NOT EXISTS speech_connections (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  base_url TEXT NOT NULL,
  model TEXT,
  api_key_sealed TEXT,
  api_key_hint TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX IF NOT EXISTS speech_connections_user_name ON speech_connections (user_id, lower(name));

-- Each agent's voice: a stock voice of a connection, or a clone of its default reference recording (registered in
-- the server's voice library as registered_name, made from audio_id). The row outlives nothing: it goes with the
-- agent, after the clone was deleted on the voice server.
CREATE TABLE IF NOT EXISTS agent_voices (
  agent_id TEXT PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  connection_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  voice TEXT,
  consent BOOLEAN NOT NULL DEFAULT false,
  registered_name TEXT,
  audio_id TEXT,
  label TEXT NOT NULL DEFAULT '',
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
