-- Model connections a user adds in the app (docs/models.md): an Ollama or OpenAI-compatible server. The API key
-- is stored sealed with AES-256-GCM (server/models/secrets.ts); only its last four characters are kept in clear,
-- for the '••••1234' hint. Names are unique per user, case-insensitively.
CREATE TABLE IF NOT EXISTS model_connections (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  preset TEXT,
  name TEXT NOT NULL,
  base_url TEXT NOT NULL,
  api_key_sealed TEXT,
  api_key_hint TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX IF NOT EXISTS model_connections_user_name ON model_connections (user_id, lower(name));
