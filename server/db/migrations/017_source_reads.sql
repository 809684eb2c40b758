-- Sources read as jobs (server/sources/queue/pgBossQueue.ts, with DATABASE_URL): the file of a source being read
-- waits here, as the job's ticket, until a process has read and stored it. Storing the source deletes its ticket in
-- the same transaction; a waiter that gives up deletes it first, so that job stores nothing. A ticket no job will
-- take any more (every process that tried died) is swept. Unused on PGlite, where reading runs in-process.
CREATE TABLE IF NOT EXISTS source_reads (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  file_name TEXT NOT NULL,
  url TEXT,
  bytes BYTEA NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
