import { ProviderError } from '../errors';

// What a reader is told when a paper search fails: one short sentence per kind of failure that names the
// services, never an address or an error code (those go to the server log). "Could not reach arXiv: no network."

export interface SourceFailure {
  /** The service's name as people spell it (arXiv, PubMed, Semantic Scholar). */
  label: string;
  error: unknown;
}

/** Codes Node gives when there is no route to the service at all: the name does not resolve or the network is down. */
const NO_NETWORK = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'ENETDOWN', 'EHOSTUNREACH']);

/** Why one service failed, in a few plain words (the tail of "Could not reach X: …"). */
export function plainReason(error: unknown): string {
  if (!(error instanceof ProviderError)) return 'it failed unexpectedly';
  switch (error.kind) {
    case 'unreachable':
      return error.code && NO_NETWORK.has(error.code) ? 'no network' : 'the connection was refused';
    case 'timeout':
      return 'it did not answer in time';
    case 'http':
      if (error.status === 429) return 'too many requests, try again later';
      return (error.status ?? 500) >= 500 ? 'it is down or busy' : 'it refused the search';
    case 'malformed':
      return 'its answer could not be read';
    default:
      return 'it failed unexpectedly';
  }
}

/** "Could not reach arXiv and PubMed: no network." — services that failed for the same reason share a sentence. */
export function plainResearchFailure(failures: readonly SourceFailure[]): string {
  if (!failures.length) return 'No research service answered.';
  const byReason = new Map<string, string[]>();
  for (const f of failures) {
    const reason = plainReason(f.error);
    byReason.set(reason, [...(byReason.get(reason) ?? []), f.label]);
  }
  return [...byReason].map(([reason, labels]) => `Could not reach ${listOf(labels)}: ${reason}.`).join(' ');
}

const listOf = (xs: string[]) =>
  xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
