-- The discussion machine's persisted snapshot (XState getPersistedSnapshot) as of stored frame snapshot_seq,
-- written in the same transaction as the frames it follows, so a process that takes a discussion over (its owner
-- died, or this process restarted) continues it from exactly the frames that were stored (README 'Running more
-- than one process').
ALTER TABLE discussions ADD COLUMN IF NOT EXISTS snapshot JSONB;
ALTER TABLE discussions ADD COLUMN IF NOT EXISTS snapshot_seq INTEGER;
