-- Costs (README 'Limits'): a turn's tokens ride on its stored frame (`usage`); this column reads them out so the
-- daily budget (USER_DAILY_TOKENS) is one indexed sum over a user's frames of the last 24 hours, not a JSON scan.
ALTER TABLE discussion_frames ADD COLUMN IF NOT EXISTS tokens INTEGER GENERATED ALWAYS AS (
  (data->'usage'->>'prompt_tokens')::integer + (data->'usage'->>'completion_tokens')::integer
) STORED;
CREATE INDEX IF NOT EXISTS discussion_frames_tokens_at ON discussion_frames (discussion_id, at) WHERE tokens IS NOT NULL;
