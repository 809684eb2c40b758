import { callSignal, networkError } from './errors';
import type { ComponentStatus } from './types';

// How providers answer /health: each probe is reused for a few seconds so a page of status
// polls costs one request to the engine, not one per poll.

/** `run` at most once per `ttlMs`; calls in between get the same (possibly pending) answer. */
export function cachedProbe(ttlMs: number, run: () => Promise<ComponentStatus>): () => Promise<ComponentStatus> {
  let probed: { at: number; value: Promise<ComponentStatus> } | null = null;
  return () => {
    const now = Date.now();
    if (!probed || now - probed.at > ttlMs) probed = { at: now, value: run() };
    return probed.value;
  };
}

const REACH_TIMEOUT_MS = 3_000;

/**
 * 'ok' when `url` gives any HTTP answer at all, for servers with no health path in common
 * (speech and transcription servers seldom agree even on listing models).
 */
export function probeAnyAnswer(opts: {
  url: string;
  headers: Record<string, string>;
  provider: string;
  service: string;
  okDetail: string;
}): Promise<ComponentStatus> {
  const { url, provider, service } = opts;
  const call = callSignal(REACH_TIMEOUT_MS);
  return fetch(url, { headers: opts.headers, signal: call.signal }).then(
    async (res): Promise<ComponentStatus> => {
      await res.body?.cancel();
      return { status: 'ok', provider, detail: opts.okDetail };
    },
    (e): ComponentStatus => ({
      status: 'unavailable',
      provider,
      detail: networkError(e, { provider, service, url, timeoutMs: REACH_TIMEOUT_MS, call }).message,
    }),
  );
}
