-- Read-only share links (README 'Sharing and rooms'): a link is /s/{token}; only the token's SHA-256 is kept, so the
-- table cannot give a valid link back. A revoked link is a deleted row; every process reads this table on each open
-- (no cache), so a revocation holds at once everywhere.
CREATE TABLE IF NOT EXISTS discussion_shares (
  id TEXT PRIMARY KEY,
  discussion_id TEXT NOT NULL REFERENCES discussions(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_sha256 TEXT NOT NULL UNIQUE,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  expires_at TIMESTAMPTZ NOT NULL,
  last_opened_at TIMESTAMPTZ
);
CREATE INDEX IF NOT EXISTS discussion_shares_discussion_idx ON discussion_shares(discussion_id);
