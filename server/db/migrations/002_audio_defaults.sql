-- At most one default reference voice per agent, enforced by the database (the routes keep exactly one).
CREATE UNIQUE INDEX IF NOT EXISTS audio_one_default_per_agent ON audio_items(agent_id) WHERE is_default;
-- /media/audio/<file_name> looks rows up by their server-made file name.
CREATE UNIQUE INDEX IF NOT EXISTS audio_file_name_idx ON audio_items(file_name);
-- Deleting an agent removes the connections at either end.
CREATE INDEX IF NOT EXISTS connections_from_idx ON connections(from_agent_id);
CREATE INDEX IF NOT EXISTS connections_to_idx ON connections(to_agent_id);
