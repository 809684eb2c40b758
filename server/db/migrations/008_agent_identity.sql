-- An agent's reader-facing identity (src/model/agentIdentity.ts): a chosen colour ('#rrggbb') and avatar (an
-- emoji or initials). NULL means "derived from the id and the name", so existing agents keep a stable look.
ALTER TABLE agents ADD COLUMN IF NOT EXISTS color TEXT;
ALTER TABLE agents ADD COLUMN IF NOT EXISTS avatar TEXT;
