-- What the human said in a discussion. Kept apart from discussion_frames, whose sequence numbers are what the
-- server sent (and what a resuming socket is replayed from).
CREATE TABLE IF NOT EXISTS discussion_human_messages (
  discussion_id TEXT NOT NULL REFERENCES discussions(id) ON DELETE CASCADE,
  n INTEGER NOT NULL,
  text TEXT NOT NULL,
  client_timestamp TEXT,
  at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (discussion_id, n)
);
