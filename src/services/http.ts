// The one request helper every REST call goes through (docs/product.md#workspace-errors 'Generic request helper'):
// bearer token, JSON in and out, the server's `detail` as the error message ('HTTP {status}: {text}' otherwise),
// retries on a 5xx only when the caller asks, answers checked against a zod schema, and any 401 reported to the session
// through `onUnauthorized`. Errors carry `status`, `detail` and `text`, the shape the machines read.
import type { z } from 'zod';
import { HTTP_RETRY_ATTEMPTS, HTTP_RETRY_BASE_DELAY_MS } from '../schemas/constants';
import { HTTP_MESSAGES } from '../schemas/messages';

/** The server answered with a non-2xx status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | undefined,
    readonly text: string,
  ) {
    super(detail ?? HTTP_MESSAGES.status(status, text));
    this.name = 'HttpError';
  }
}

/** The server answered 2xx, but not with what the contract says. Reported like a failure without detail. */
export class ContractError extends Error {
  readonly text = 'unexpected answer';
  constructor(
    readonly status: number,
    path: string,
    why: string,
  ) {
    super(`Unexpected answer from ${path}: ${why}`);
    this.name = 'ContractError';
  }
}

/** The request never got an answer (server down, DNS, CORS, aborted). Has no status on purpose. */
export class NetworkError extends Error {
  constructor(readonly cause: unknown) {
    super(HTTP_MESSAGES.network);
    this.name = 'NetworkError';
  }
}

export interface HttpAnswer {
  status: number;
  ok: boolean;
  statusText: string;
  /** Parsed JSON when the answer had some, else the raw text (or null when empty). */
  body: unknown;
}

export interface RequestOptions {
  json?: unknown;
  form?: FormData;
  /** Retry on a 5xx, up to HTTP_RETRY_ATTEMPTS attempts with a growing delay. */
  retry?: boolean;
  /** Sign-in calls: a 401 there means bad credentials, not an expired session. */
  public?: boolean;
  signal?: AbortSignal;
}

export interface HttpDeps {
  baseUrl?: string;
  getToken: () => string | null;
  onUnauthorized?: (path: string) => void;
  fetch?: typeof fetch;
  /** Waits between retries; injected so tests need no real time. */
  sleep?: (ms: number) => Promise<void>;
}

/** FastAPI-style details may be a list of `{msg}` objects; either way one readable line comes out. */
export function detailOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object' || !('detail' in body)) return undefined;
  const d = (body as { detail: unknown }).detail;
  if (typeof d === 'string') return d || undefined;
  if (Array.isArray(d)) {
    return d
      .map((x) => (x && typeof x === 'object' && 'msg' in x ? String((x as { msg: unknown }).msg) : JSON.stringify(x)))
      .join('; ');
  }
  return undefined;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createHttp(deps: HttpDeps) {
  const { baseUrl = '', getToken, onUnauthorized } = deps;
  const doFetch = deps.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const sleep = deps.sleep ?? defaultSleep;

  async function once(method: string, path: string, opts: RequestOptions): Promise<HttpAnswer> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const token = getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    let body: BodyInit | undefined;
    if (opts.form) body = opts.form;
    else if (opts.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.json);
    }
    let res: Response;
    try {
      res = await doFetch(`${baseUrl}${path}`, { method, headers, body, signal: opts.signal });
    } catch (error) {
      throw new NetworkError(error);
    }
    const text = await res.text().catch(() => '');
    let parsed: unknown = text === '' ? null : text;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        // Not JSON: keep the text so 'HTTP {status}: {text}' can show it.
      }
    }
    if (res.status === 401 && !opts.public) onUnauthorized?.(path);
    return { status: res.status, ok: res.ok, statusText: res.statusText, body: parsed };
  }

  /** The raw answer, retried on 5xx when asked. Never throws for an HTTP status, only for no answer. */
  async function send(method: string, path: string, opts: RequestOptions = {}): Promise<HttpAnswer> {
    const attempts = opts.retry ? HTTP_RETRY_ATTEMPTS : 1;
    for (let attempt = 1; ; attempt++) {
      const answer = await once(method, path, opts);
      if (answer.status < 500 || attempt >= attempts) return answer;
      await sleep(HTTP_RETRY_BASE_DELAY_MS * attempt);
    }
  }

  /** The answer checked against `schema`; a non-2xx becomes an HttpError with the server's detail. */
  async function request<S extends z.ZodType>(
    method: string,
    path: string,
    schema: S,
    opts: RequestOptions = {},
  ): Promise<z.infer<S>> {
    const answer = await send(method, path, opts);
    if (!answer.ok) {
      const text = typeof answer.body === 'string' ? answer.body : answer.statusText;
      throw new HttpError(answer.status, detailOf(answer.body), text);
    }
    const checked = schema.safeParse(answer.body);
    if (!checked.success) throw new ContractError(answer.status, path, checked.error.message);
    return checked.data;
  }

  return { send, request };
}

export type Http = ReturnType<typeof createHttp>;
