import { z } from 'zod';
import { DISCUSSION_ORIGINS } from './constants';

// The public side of a read-only share link (README 'Sharing and rooms'; the owner's routes are in rooms.ts):
// GET /shares/{token}/discussion answers this shape and nothing else. It is an allow-list: z.object drops every key
// it does not name, so the owner's email, the agents' prompts and models, connection ids and keys cannot ride along.

/** A token is 128 random bits in base64url: 22 characters. Anything else is not looked up. */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{22}$/;
/** Opens of shared discussions one address may make in a minute. */
export const SHARE_OPENS_PER_MINUTE = 60;

/** An agent as a shared page shows it: its name, role and look (no prompt, no model). */
export const sharedParticipant = z.object({
  id: z.string(),
  name: z.string(),
  role: z.string().nullish(),
  color: z.string().nullish(),
  avatar: z.string().nullish(),
});

/** One stored frame; `data` is already cut to its frame schema's fields by the server (server/shares/publicFrames.ts). */
export const sharedFrame = z.object({
  seq: z.number().int(),
  data: z.record(z.string(), z.unknown()),
  at: z.string(),
});

export const sharedDiscussion = z.object({
  id: z.string(),
  topic: z.string(),
  status: z.enum(['running', 'ended', 'abandoned']),
  created_at: z.string(),
  ended_at: z.string().nullish(),
  end_reason: z.string().nullish(),
  format: z.string().nullish(),
  message_count: z.number().int().nonnegative().optional(),
  origin: z.enum(DISCUSSION_ORIGINS).optional(),
  /** Which panel's frames these are (they are read with that panel's schema). */
  panel: z.enum(['standard', 'hybrid']),
  /** The socket path it ran on (one of ENDPOINTS' paths). */
  endpoint: z.string(),
  participants: z.array(sharedParticipant),
  frames: z.array(sharedFrame),
  /** What the person who ran it said (the words only). */
  human_messages: z.array(z.object({ text: z.string(), at: z.string(), timestamp: z.string().nullish() })),
  /** When this link stops working. */
  expires_at: z.string(),
});
export type SharedDiscussion = z.infer<typeof sharedDiscussion>;
