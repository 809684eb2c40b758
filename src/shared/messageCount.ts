// The one definition of a discussion's message count (docs/architecture.md#rules): every
// agent turn once, plus every message a human sent. An agent turn is one id, whatever frames carried it (its
// stream start, its final `agent_message`/`text`, or the `argument` it was on the multi-round endpoint); the
// ACL message, request, delegation and audio that go with a turn are part of it, not messages of their own.
// The panel footer, the opened History view, the PDF and the JSON read it from the feed (countMessages in
// feedSelectors.ts); the server's History list counts the stored frames with the same rule (countStoredMessages,
// and the SQL built from MESSAGE_FRAME_TYPES in server/engine/store.ts). Pure.

/** The feed item kinds that are a message in the count: agent turns and the human's messages. */
export const MESSAGE_KINDS = ['hybrid', 'text', 'argument', 'human'] as const;
const MESSAGE_KIND_SET: ReadonlySet<string> = new Set(MESSAGE_KINDS);
export const isMessageKind = (kind: string): boolean => MESSAGE_KIND_SET.has(kind);

/** The stored frame types that carry (a part of) an agent turn, identified by `turnIdOfFrame`. */
export const MESSAGE_FRAME_TYPES = ['agent_message', 'text', 'argument', 'agent_message_start'] as const;
const MESSAGE_FRAME_SET: ReadonlySet<string> = new Set(MESSAGE_FRAME_TYPES);
/** The `kind` of a stream start that opens the closing summary, which is not a message. */
export const SUMMARY_START_KIND = 'summary';

/** The turn a stored frame belongs to, or null when it is not a turn's frame. */
export function turnIdOfFrame(frame: unknown, seq: number): string | null {
  if (typeof frame !== 'object' || frame === null) return null;
  const f = frame as { type?: unknown; id?: unknown; kind?: unknown; argument?: { id?: unknown } };
  if (typeof f.type !== 'string' || !MESSAGE_FRAME_SET.has(f.type)) return null;
  // The closing summary streams like a turn but is not one: its start says so (the SQL has the same exclusion).
  if (f.kind === SUMMARY_START_KIND) return null;
  // In the order the server's SQL reads them (server/engine/store.ts): the frame's id, its argument's id, its place.
  if (typeof f.id === 'string') return f.id;
  return typeof f.argument?.id === 'string' ? f.argument.id : `seq:${seq}`;
}

/** The message count of a stored discussion: its distinct turns plus the human's messages. */
export function countStoredMessages(frames: readonly unknown[], humanMessages: number): number {
  const turns = new Set<string>();
  frames.forEach((f, i) => {
    const id = turnIdOfFrame(f, i);
    if (id !== null) turns.add(id);
  });
  return turns.size + humanMessages;
}

/** '0 messages', '1 message', '12 messages': how every place writes the count. */
export const messageCountLabel = (n: number): string => `${n} message${n === 1 ? '' : 's'}`;
