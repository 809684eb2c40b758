import type { Line, Recording } from './recording';

// Fault transcripts the real server cannot be made to produce from outside, edited from recorded ones; each note
// says how.

/** The malformed-frame fault case: a recorded hybrid transcript with one agent_message broken on purpose. */
export function malformedFrom(source: Recording): string {
  const lines = source.lines.map((l) => structuredClone(l));
  const i = lines.findIndex((l) => l.dir === 'server' && (l.data as Line).type === 'agent_message');
  const broken = lines[i].data as Line;
  delete broken.agent_id;
  broken.confidence = 'very high';
  const note = `Edited from hybrid-natural: the first agent_message (line ${i + 2}) lost its agent_id and has confidence "very high" (a string), so it is a malformed known type; every other frame is as recorded.`;
  return [{ endpoint: source.endpoint, note }, ...lines].map((l) => JSON.stringify(l)).join('\n') + '\n';
}

type Edit = (source: Recording) => string;
const jsonl = (endpoint: string, note: string, lines: Line[]) =>
  [{ endpoint, note }, ...lines].map((l) => JSON.stringify(l)).join('\n') + '\n';

/** 1011: the server's answer when setting a discussion up fails (server/routes/discussionSockets.ts refuse(…, 1011)). */
const internalErrorFrom: Edit = (source) => {
  const lines = source.lines.map((l) => structuredClone(l));
  for (const l of lines) {
    if (l.dir === 'server' && (l.data as Line).type === 'error')
      (l.data as Line).message = 'The discussion could not be started because of a server error.';
    if (l.event === 'close') l.code = 1011;
  }
  return jsonl(
    source.endpoint,
    'Edited from standard-close-1003-enhanced (a fault case: a store failure cannot be caused from outside): the fatal error frame says "The discussion could not be started because of a server error." and the close is 1011, as the server answers when setting up a discussion throws.',
    lines,
  );
};

/** 1002: a protocol error close. The server never sends it on purpose (the ws library does on a malformed frame). */
const protocolErrorFrom: Edit = (source) => {
  const cut = source.lines.findIndex((l) => l.event === 'close');
  const lines = source.lines.slice(0, cut + 1).map((l) => structuredClone(l));
  lines[cut].code = 1002;
  return jsonl(
    source.endpoint,
    `Edited from standard-close-1006-enhanced (a fault case: the real server does not produce 1002 from a well-behaved client): the drop at line ${cut + 2} is a close 1002 instead of 1006 and nothing follows; the panel shows the authentication message (docs/product.md#discussions-errors) and does not reconnect.`,
    lines,
  );
};

export const FAULTS_FROM: Record<string, { name: string; edit: Edit }[]> = {
  'standard-close-1003-enhanced': [{ name: 'standard-close-1011', edit: internalErrorFrom }],
  'standard-close-1006-enhanced': [{ name: 'standard-close-1002', edit: protocolErrorFrom }],
};
