-- Rooms (README 'Sharing and rooms'): invites to a live discussion and the people they let in. An invite's token
-- (128 random bits) is stored only as its SHA-256; the link shows it once. A member row stays after removal
-- (removed_at set) so a removed person cannot come back through another invite.
CREATE TABLE IF NOT EXISTS room_invites (
  id TEXT PRIMARY KEY,
  discussion_id TEXT NOT NULL REFERENCES discussions(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  role TEXT NOT NULL CHECK (role IN ('participant', 'watcher')),
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX IF NOT EXISTS room_invites_discussion ON room_invites (discussion_id);

CREATE TABLE IF NOT EXISTS room_members (
  discussion_id TEXT NOT NULL REFERENCES discussions(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('participant', 'watcher')),
  -- The format's person seats ('moderator', 'judge') the owner gave this participant.
  seats JSONB NOT NULL DEFAULT '[]',
  joined_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  removed_at TIMESTAMPTZ,
  PRIMARY KEY (discussion_id, user_id)
);
CREATE INDEX IF NOT EXISTS room_members_user ON room_members (user_id);

-- Who wrote a person's message: the owner, or a participant of the room (NULL for messages from before rooms).
ALTER TABLE discussion_human_messages ADD COLUMN IF NOT EXISTS author_id TEXT REFERENCES users(id) ON DELETE SET NULL;
