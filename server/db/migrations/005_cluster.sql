-- More than one server process on one PostgreSQL (README 'Running more than one process').
-- live_events: every live update (/ws/updates, /ws/system) a process broadcasts, numbered in commit order (the
-- writer holds an advisory lock while it inserts), so a process that listens (LISTEN agora_live; the NOTIFY
-- payload is only the newest id) or reconnects reads everything after the last id it saw. Pruned after minutes.
CREATE TABLE IF NOT EXISTS live_events (
  id BIGSERIAL PRIMARY KEY,
  origin TEXT NOT NULL,
  user_id TEXT NOT NULL,
  channel TEXT NOT NULL,
  frame TEXT NOT NULL,
  at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS live_events_at_idx ON live_events(at);
-- rate_counters: fixed-window counters shared by every process (the login and register rate limit).
CREATE TABLE IF NOT EXISTS rate_counters (
  key TEXT PRIMARY KEY,
  window_start TIMESTAMPTZ NOT NULL,
  count INTEGER NOT NULL
);
-- Which process runs a discussion, and until when its claim holds without a renewal (the lease).
ALTER TABLE discussions ADD COLUMN IF NOT EXISTS owner_id TEXT;
ALTER TABLE discussions ADD COLUMN IF NOT EXISTS lease_until TIMESTAMPTZ;
CREATE INDEX IF NOT EXISTS discussions_running_idx ON discussions(user_id) WHERE status = 'running';
