-- Single-use tickets that open one socket (POST /auth/socket-ticket), so a session token never rides in a URL.
-- Kept in the database, not in memory, so a ticket one process issued opens a socket on another.
CREATE TABLE IF NOT EXISTS socket_tickets (
  ticket_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX IF NOT EXISTS socket_tickets_expiry_idx ON socket_tickets(expires_at);
