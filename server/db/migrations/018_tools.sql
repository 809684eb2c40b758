-- Tools (docs/tools.md): the MCP servers a user connects (a connection like a model or speech server; the key
-- sealed as theirs are), and on each agent the tools it may call and whether each call waits for the person.
CREATE TABLE IF NOT EXISTS tool_connections (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  base_url TEXT NOT NULL,
  transport TEXT NOT NULL DEFAULT 'auto',
  api_key_sealed TEXT,
  api_key_hint TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX IF NOT EXISTS tool_connections_user_name ON tool_connections (user_id, lower(name));

ALTER TABLE agents ADD COLUMN IF NOT EXISTS tools TEXT[] NOT NULL DEFAULT '{}';
ALTER TABLE agents ADD COLUMN IF NOT EXISTS ask_before_tools BOOLEAN NOT NULL DEFAULT false;
