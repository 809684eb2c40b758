// A shared discussion (GET /shares/{token}/discussion) as the stored record History replays, and the token a
// /s/{token} address names. Pure.
import type { StoredDiscussion } from '../schemas/history';
import type { SharedDiscussion } from '../schemas/shares';

/** The public shape carries no session id or configuration: the discussion's id stands for the one, its panel for the other. */
export const storedFromShared = (s: SharedDiscussion): StoredDiscussion => ({
  id: s.id,
  session_id: s.id,
  endpoint: s.endpoint,
  topic: s.topic,
  status: s.status,
  frame_count: s.frames.length,
  message_count: s.message_count,
  created_at: s.created_at,
  ended_at: s.ended_at,
  end_reason: s.end_reason,
  format: s.format,
  origin: s.origin,
  participants: s.participants,
  config: { panel: s.panel },
  frames: s.frames,
  human_messages: s.human_messages,
});
