import { knownTypes } from '../../src/schemas/frames';
import type { z } from 'zod';
import type { storedDiscussion } from '../../src/schemas/history';
import { hybridServerFrame } from '../../src/schemas/hybridSocket';
import { sharedDiscussion, type SharedDiscussion } from '../../src/schemas/shares';
import { standardServerFrame } from '../../src/schemas/standardSocket';
import { allowListed } from './allowList';

// A stored discussion as a share link shows it, built as an allow-list: the public schema (src/schemas/shares.ts)
// names every field of the answer, and each frame keeps only the fields its own frame schema names. Frames a reader
// has no use for, or that can carry the server's or a provider's words (errors and system lines may name a model or an
// address), are left out; so are audio addresses (the media routes need the owner's session). Pure.

/** Frame types a shared page does not get. */
const LEFT_OUT: ReadonlySet<string> = new Set([
  'agent_status',
  'agent_message_delta',
  'audio',
  'audio_message',
  'tts_streaming_start',
  'tts_streaming_end',
  'tts_error',
  'performance_metric',
  'error',
  'system',
  'probe',
]);
/** Fields dropped from every frame that has them. */
const DROPPED_FIELDS = ['audio_url', 'audio_id', 'tts_pending'] as const;

const STANDARD_KNOWN = knownTypes(standardServerFrame);
const HYBRID_KNOWN = knownTypes(hybridServerFrame);

export function publicFrame(panel: 'standard' | 'hybrid', data: Record<string, unknown>) {
  const type = typeof data.type === 'string' ? data.type : '';
  const [schema, known] =
    panel === 'hybrid' ? [hybridServerFrame, HYBRID_KNOWN] : [standardServerFrame, STANDARD_KNOWN];
  if (LEFT_OUT.has(type) || !known.has(type)) return null;
  const kept = allowListed(schema, data);
  if (!kept || typeof kept !== 'object') return null;
  const frame = kept as Record<string, unknown>;
  for (const f of DROPPED_FIELDS) delete frame[f];
  // A tool call names the connection that served it; a reader sees only whether it was a built-in.
  if (type === 'tool_call' && frame.server !== 'builtin') frame.server = 'tool';
  return frame;
}

/** As the store reads it (human_messages may be absent from an older record). */
type Stored = z.input<typeof storedDiscussion>;

export function publicDiscussion(stored: Stored, expiresAt: string): SharedDiscussion {
  const panel = stored.config.panel === 'hybrid' ? 'hybrid' : 'standard';
  const frames = stored.frames.flatMap((f) => {
    const data = publicFrame(panel, f.data);
    return data ? [{ seq: f.seq, at: f.at, data }] : [];
  });
  // parse, not a cast: the schema drops whatever the summary carries beyond the fields it names.
  return sharedDiscussion.parse({
    ...stored,
    panel,
    participants: stored.participants ?? [],
    frames,
    human_messages: (stored.human_messages ?? []).map((h) => ({ text: h.text, at: h.at, timestamp: h.timestamp })),
    expires_at: expiresAt,
  });
}
