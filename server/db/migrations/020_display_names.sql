-- Display names (README 'Sharing and rooms'): what other people in a room see instead of an email. NULL means the
-- default, the part of the email before '@' (computed where it is read, so a changed email changes it too).
ALTER TABLE users ADD COLUMN IF NOT EXISTS display_name TEXT;
