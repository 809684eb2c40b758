import { randomBytes } from 'node:crypto';

// Internal failures (a database error, a bug, a provider's raw exception) never reach a client in their own words:
// table names, constraints, paths and addresses are for the operator. The client gets a short, stable sentence
// with a reference; the server log carries the full error under the same reference, so a user's report can be
// matched to its log line.

export interface IncidentLog {
  error(obj: object, msg: string): void;
}

/** A short reference, easy to read aloud or paste: 8 hex digits. */
export const newReference = () => randomBytes(4).toString('hex');

/** The client's words for an internal failure: `what` (a stable sentence without a full stop) and the reference. */
export const withReference = (what: string, ref: string) => `${what} (reference ${ref}).`;

/** Logs `err` in full under a new reference and returns the client's words for it. */
export function incident(log: IncidentLog, err: unknown, what: string, extra: object = {}): string {
  const ref = newReference();
  log.error({ err, ref, ...extra }, what);
  return withReference(what, ref);
}
