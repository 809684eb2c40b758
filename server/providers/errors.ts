import { readCapped } from './boundedBody';
import { maskSecrets } from './mask';

// Errors every provider throws, worded for the person using the app: the engine forwards
// `message` as-is in an `error` frame, so it must say what failed and where. Anything that looks like a
// credential is masked on the way in (mask.ts); a provider that holds a key masks that key too (withoutKey).

export type ProviderErrorKind =
  | 'unreachable'
  | 'timeout'
  | 'http'
  | 'malformed'
  | 'aborted'
  | 'unconfigured'
  | 'failed';

export class ProviderError extends Error {
  constructor(
    message: string,
    readonly provider: string,
    readonly kind: ProviderErrorKind,
    readonly status?: number,
    /** The system's error code for a network failure (ENOTFOUND, ECONNREFUSED), for plain wording and logs. */
    readonly code?: string,
  ) {
    super(maskSecrets(message));
    this.name = kind === 'aborted' ? 'AbortError' : 'ProviderError';
  }
}

/** The error with `key` (and anything credential-shaped) masked in its message; other errors pass unchanged. */
export function withoutKey<E>(e: E, key: string | null | undefined): E {
  if (e instanceof Error && key) e.message = maskSecrets(e.message, [key]);
  return e;
}

/** True for a caller's abort (stop button), false for a time-out or any other failure. */
export const isAbortError = (e: unknown) => e instanceof Error && e.name === 'AbortError';

export function abortError(provider: string, signal?: AbortSignal): ProviderError {
  const why =
    signal?.reason instanceof Error && signal.reason.name !== 'AbortError' ? `: ${signal.reason.message}` : '';
  return new ProviderError(`The request was cancelled${why}`, provider, 'aborted');
}

/** A signal that fires on the caller's abort or after `timeoutMs`, and tells which one happened. */
export function callSignal(timeoutMs: number, outer?: AbortSignal) {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = outer ? AbortSignal.any([outer, timeout]) : timeout;
  return { signal, timedOut: () => timeout.aborted && !outer?.aborted, aborted: () => !!outer?.aborted };
}

/** Turns a fetch failure into a ProviderError that names the service and the address. */
export function networkError(
  e: unknown,
  opts: { provider: string; service: string; url: string; timeoutMs: number; call: ReturnType<typeof callSignal> },
): ProviderError {
  if (e instanceof ProviderError) return e;
  if (opts.call.aborted()) return abortError(opts.provider);
  const blocked = causeWithCode(e, 'EBLOCKED');
  if (blocked)
    return new ProviderError(
      `${opts.service} at ${origin(opts.url)} may not be used: ${blocked.message}`,
      opts.provider,
      'unconfigured',
      undefined,
      'EBLOCKED',
    );
  const name = (e as { name?: string })?.name;
  if (name === 'LineTooLongError' || name === 'BodyTooLargeError') {
    return new ProviderError(
      `${opts.service} at ${origin(opts.url)} sent more than this server accepts: ${(e as Error).message} (LLM_MAX_LINE_BYTES)`,
      opts.provider,
      'malformed',
    );
  }
  if (opts.call.timedOut())
    return new ProviderError(
      `${opts.service} at ${origin(opts.url)} did not answer within ${seconds(opts.timeoutMs)}`,
      opts.provider,
      'timeout',
    );
  const cause = (e as { cause?: { code?: string; message?: string } })?.cause;
  const code = cause?.code ?? (e as { code?: string })?.code;
  return new ProviderError(
    `${opts.service} at ${origin(opts.url)} is not reachable${code ? ` (${code})` : ''}`,
    opts.provider,
    'unreachable',
    undefined,
    code,
  );
}

/** An error answer is read this far at most: its first line is all that is shown. */
const ERROR_BODY_BYTES = 64 * 1024;

/** The error, or one of its causes, with this system error code. */
export function causeWithCode(e: unknown, code: string): Error | null {
  let cur: unknown = e;
  for (let i = 0; i < 5 && cur; i++) {
    if ((cur as { code?: unknown }).code === code) return cur as Error;
    cur = (cur as { cause?: unknown }).cause;
  }
  return null;
}

/** Reads an error body: JSON `{error}` / `{error:{message}}` / `{detail}`, or the first line of text. */
export async function httpError(res: Response, provider: string, service: string): Promise<ProviderError> {
  let text = '';
  try {
    text = await readCapped(res, ERROR_BODY_BYTES);
  } catch {
    /* the body is gone; the status will have to do */
  }
  let why = text.trim().split('\n')[0]?.slice(0, 300) ?? '';
  try {
    const j = JSON.parse(text) as { error?: unknown; detail?: unknown; message?: unknown };
    const err = j.error as { message?: unknown } | string | undefined;
    const picked =
      typeof err === 'string'
        ? err
        : typeof err?.message === 'string'
          ? err.message
          : typeof j.detail === 'string'
            ? j.detail
            : typeof j.message === 'string'
              ? j.message
              : null;
    if (picked) why = picked;
  } catch {
    /* not JSON */
  }
  return new ProviderError(
    `${service} answered ${res.status}${why ? `: ${why}` : ` ${res.statusText}`}`,
    provider,
    'http',
    res.status,
  );
}

export const origin = (url: string) => {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return url;
  }
};
const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`);
