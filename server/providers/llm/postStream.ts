import { ProviderError, callSignal, httpError, networkError } from '../errors';
import type { FetchLike } from '../../models/guardedFetch';

// One chat call to a streaming LLM server: POST the JSON body, hand the open answer to `read`.
// Whatever fails — the network, the time-out, the caller's abort, an HTTP status, or `read`
// itself — comes out as one ProviderError that names the service and where it is.

export interface PostStreamOptions {
  provider: string;
  service: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  timeoutMs: number;
  signal?: AbortSignal;
  /** A user's connection passes the address rule's fetch (models/guardedFetch.ts); the server's own, the global. */
  fetch?: FetchLike;
}

export async function postStream<T>(
  opts: PostStreamOptions,
  read: (res: Response, body: ReadableStream<Uint8Array>) => Promise<T>,
): Promise<T> {
  const { provider, service, url, timeoutMs } = opts;
  const call = callSignal(timeoutMs, opts.signal);
  try {
    // Redirects are not followed: a model server has no reason to send one, and a user's connection must not be
    // bounced to an address the connection rule refuses (docs/models.md).
    const res = await (opts.fetch ?? fetch)(url, {
      method: 'POST',
      headers: opts.headers,
      body: JSON.stringify(opts.body),
      signal: call.signal,
      redirect: 'manual',
    });
    if (!res.ok) throw await httpError(res, provider, service);
    if (!res.body) throw new ProviderError(`${service} sent an empty answer`, provider, 'malformed');
    return await read(res, res.body);
  } catch (e) {
    throw networkError(e, { provider, service, url, timeoutMs, call });
  }
}
