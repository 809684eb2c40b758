-- Sources (README 'Sources'): documents a person adds for agents to read. A source is kept as its passages (the
-- file itself is not stored); each passage is searched with PostgreSQL's own full-text search (the same SQL on
-- PGlite and PostgreSQL). A source may also belong to one agent (agent_sources): only that agent reads it.
CREATE TABLE IF NOT EXISTS sources (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  url TEXT,
  pages INTEGER NOT NULL DEFAULT 0,
  passages INTEGER NOT NULL DEFAULT 0,
  bytes BIGINT NOT NULL DEFAULT 0,
  status TEXT NOT NULL DEFAULT 'ready',
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS sources_user ON sources (user_id, created_at DESC);

CREATE TABLE IF NOT EXISTS source_passages (
  id TEXT PRIMARY KEY,
  source_id TEXT NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  ord INTEGER NOT NULL,
  page INTEGER,
  heading TEXT,
  text TEXT NOT NULL,
  tsv tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', coalesce(heading, '')), 'A') || setweight(to_tsvector('english', text), 'B')
  ) STORED
);
CREATE INDEX IF NOT EXISTS source_passages_tsv ON source_passages USING GIN (tsv);
CREATE INDEX IF NOT EXISTS source_passages_order ON source_passages (source_id, ord);

CREATE TABLE IF NOT EXISTS agent_sources (
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  source_id TEXT NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  PRIMARY KEY (agent_id, source_id)
);
CREATE INDEX IF NOT EXISTS agent_sources_source ON agent_sources (source_id);
