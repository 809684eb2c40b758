-- Sources searched by meaning (docs/sources.md#searched-by-words-and-meaning): a person may name one embedding
-- model (source_embedding_settings); each passage of their sources is then embedded with it and the vectors kept in
-- source_passage_vectors (pgvector), with the model and the dimension beside each vector (models differ in
-- dimension; an HNSW index is made per dimension, as a partial index over a cast, by server/sources/embedStore.ts).
-- Without pgvector (a PostgreSQL where it is not installed) the block below creates nothing and says why: sources
-- are searched by words alone, and the server starts as before. A server whose PostgreSQL gains pgvector later
-- runs this file again on its next start (embedStore.ts), so everything here is idempotent.
ALTER TABLE sources ADD COLUMN IF NOT EXISTS embed_state TEXT NOT NULL DEFAULT 'none';
ALTER TABLE sources ADD COLUMN IF NOT EXISTS embed_model TEXT;
ALTER TABLE sources ADD COLUMN IF NOT EXISTS embed_error TEXT;

CREATE TABLE IF NOT EXISTS source_embedding_settings (
  user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  model TEXT NOT NULL,
  dimensions INTEGER NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS vector;
  CREATE TABLE IF NOT EXISTS source_passage_vectors (
    passage_id TEXT NOT NULL REFERENCES source_passages(id) ON DELETE CASCADE,
    source_id TEXT NOT NULL,
    model TEXT NOT NULL,
    dim INTEGER NOT NULL,
    embedding vector NOT NULL,
    PRIMARY KEY (passage_id, model)
  );
  CREATE INDEX IF NOT EXISTS source_passage_vectors_source ON source_passage_vectors (source_id, model);
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pgvector is not available (%): sources are searched by words only', SQLERRM;
END
$$;
