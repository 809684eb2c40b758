-- Human messages are numbered by their discussion's own counter, taken with a row lock in the same statement
-- as the insert, so messages stored at once over several pool connections (PostgreSQL) never draw one number.
ALTER TABLE discussions ADD COLUMN IF NOT EXISTS human_messages INTEGER NOT NULL DEFAULT 0;
UPDATE discussions d SET human_messages = m.n
  FROM (SELECT discussion_id, max(n) AS n FROM discussion_human_messages GROUP BY discussion_id) m
  WHERE m.discussion_id = d.id AND d.human_messages < m.n;
