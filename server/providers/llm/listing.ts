import type { FetchLike } from '../../models/guardedFetch';
import { readCapped } from '../boundedBody';
import { ProviderError, callSignal, httpError, networkError } from '../errors';
import { cachedProbe } from '../probe';
import type { ComponentStatus, LlmProvider, ModelInfo } from '../types';
import { DEFAULT_LIST_LIMITS, ListTooLargeError, boundedNames, type ListLimits } from './limits';

// What a real LLM server lists, remembered between calls: the registry sends a bare model name to
// the provider that listed it (or whose prefix it carries), and an unknown one only to a provider
// whose last listing reached it. Probing is listing.

export interface ListingOptions {
  provider: string;
  service: string;
  /** Starts a model name meant for this provider whatever it lists: 'ollama:' / 'openai:'. */
  prefix: string;
  /** How a listed model reads in the picker: `${name} (${kindLabel})`. */
  kindLabel: string;
  url: string;
  headers?: Record<string, string>;
  timeoutMs: number;
  probeCacheMs: number;
  /** Where the server is, for the probe's detail. */
  at: string;
  readNames(body: unknown): string[];
  fetch?: FetchLike;
  limits?: ListLimits;
}

export type Listing = Pick<LlmProvider, 'owns' | 'listModels' | 'probe'> & {
  reachable(): boolean;
  /** A chat that got an answer proves the server is there too. */
  markReachable(): void;
  /** The name the server knows the model by, without this provider's prefix. */
  bareName(model: string): string;
};

export function createListing(opts: ListingOptions): Listing {
  const { provider, service, url, timeoutMs } = opts;
  let listed = new Set<string>();
  let reachable = false;

  async function names(): Promise<string[]> {
    const call = callSignal(timeoutMs);
    try {
      const limits = opts.limits ?? DEFAULT_LIST_LIMITS;
      const res = await (opts.fetch ?? fetch)(url, { headers: opts.headers, signal: call.signal, redirect: 'manual' });
      if (!res.ok) throw await httpError(res, provider, service);
      let found: string[];
      try {
        found = boundedNames(opts.readNames(JSON.parse(await readCapped(res, limits.maxBytes))), limits);
      } catch (e) {
        if (e instanceof ListTooLargeError)
          throw new ProviderError(`${service} at ${opts.at} ${e.message}`, provider, 'malformed');
        if ((e as Error).name === 'BodyTooLargeError') {
          throw new ProviderError(
            `${service} at ${opts.at} sent a model list larger than this server accepts (MODEL_LIST_MAX_BYTES=${limits.maxBytes})`,
            provider,
            'malformed',
          );
        }
        throw e;
      }
      listed = new Set(found);
      reachable = true;
      return found;
    } catch (e) {
      reachable = false;
      throw networkError(e, { provider, service, url, timeoutMs, call });
    }
  }

  return {
    owns: (model) => listed.has(model) || model.startsWith(opts.prefix),
    reachable: () => reachable,
    markReachable: () => {
      reachable = true;
    },
    bareName: (model) => (model.startsWith(opts.prefix) ? model.slice(opts.prefix.length) : model),

    async listModels(): Promise<ModelInfo[]> {
      try {
        return (await names()).map((name) => ({ name, provider, label: `${name} (${opts.kindLabel})` }));
      } catch {
        return [];
      }
    },

    probe: cachedProbe(opts.probeCacheMs, () =>
      names().then(
        (found): ComponentStatus => ({
          status: 'ok',
          provider,
          detail: `${found.length} model${found.length === 1 ? '' : 's'} at ${opts.at}`,
        }),
        (e): ComponentStatus => ({ status: 'unavailable', provider, detail: (e as Error).message }),
      ),
    ),
  };
}
