-- 'Continue from here': a discussion may continue another (the same user's) from one of its turns. Deleting the
-- source keeps the continuation, without its link.
ALTER TABLE discussions ADD COLUMN IF NOT EXISTS continued_from_id TEXT REFERENCES discussions(id) ON DELETE SET NULL;
ALTER TABLE discussions ADD COLUMN IF NOT EXISTS continued_from_turn INTEGER;
CREATE INDEX IF NOT EXISTS discussions_continued_from ON discussions (continued_from_id)
  WHERE continued_from_id IS NOT NULL;
