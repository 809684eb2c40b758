import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ContractError, createHttp, HttpError, NetworkError } from '../../src/services/http';
import { HTTP_RETRY_ATTEMPTS, HTTP_RETRY_BASE_DELAY_MS } from '../../src/schemas/constants';

type Reply = { status: number; body?: unknown; text?: string; statusText?: string };

function fakeFetch(replies: (Reply | Error)[]) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    const r = replies.shift();
    if (!r) throw new Error('no reply queued');
    if (r instanceof Error) throw r;
    const text = r.text ?? (r.body === undefined ? '' : JSON.stringify(r.body));
    return new Response(text === '' ? null : text, { status: r.status, statusText: r.statusText ?? '' });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

const ok = z.object({ ok: z.boolean() });

describe('http helper', () => {
  it('sends the bearer token and JSON, and checks the answer with the schema', async () => {
    const { fetch, calls } = fakeFetch([{ status: 200, body: { ok: true } }]);
    const http = createHttp({ baseUrl: 'http://api', getToken: () => 'tok', fetch });
    await expect(http.request('POST', '/things', ok, { json: { a: 1 } })).resolves.toEqual({ ok: true });
    const headers = calls[0].init.headers as Record<string, string>;
    expect(calls[0].url).toBe('http://api/things');
    expect(headers.Authorization).toBe('Bearer tok');
    expect(headers['Content-Type']).toBe('application/json');
    expect(calls[0].init.body).toBe('{"a":1}');
  });

  it('omits Authorization when there is no token', async () => {
    const { fetch, calls } = fakeFetch([{ status: 200, body: { ok: true } }]);
    await createHttp({ getToken: () => null, fetch }).request('GET', '/x', ok);
    expect((calls[0].init.headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it("uses the server's detail as the message", async () => {
    const { fetch } = fakeFetch([{ status: 400, body: { detail: 'Email already registered' } }]);
    const error = await createHttp({ getToken: () => null, fetch })
      .request('GET', '/x', ok)
      .catch((e) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      status: 400,
      detail: 'Email already registered',
      message: 'Email already registered',
    });
  });

  it('joins a list of validation details', async () => {
    const { fetch } = fakeFetch([{ status: 422, body: { detail: [{ msg: 'bad email' }, { msg: 'short' }] } }]);
    const error = await createHttp({ getToken: () => null, fetch })
      .request('GET', '/x', ok)
      .catch((e) => e);
    expect(error.message).toBe('bad email; short');
  });

  it("falls back to 'HTTP {status}: {text}'", async () => {
    const { fetch } = fakeFetch([{ status: 418, text: 'I am a teapot' }]);
    const error = await createHttp({ getToken: () => null, fetch })
      .request('GET', '/x', ok)
      .catch((e) => e);
    expect(error.message).toBe('HTTP 418: I am a teapot');
    expect(error.detail).toBeUndefined();
  });

  it('rejects a 2xx answer that breaks the contract', async () => {
    const { fetch } = fakeFetch([{ status: 200, body: { ok: 'yes' } }]);
    const error = await createHttp({ getToken: () => null, fetch })
      .request('GET', '/x', ok)
      .catch((e) => e);
    expect(error).toBeInstanceOf(ContractError);
    expect(error.status).toBe(200);
  });

  it('reports no answer as a NetworkError without a status', async () => {
    const { fetch } = fakeFetch([new TypeError('Failed to fetch')]);
    const error = await createHttp({ getToken: () => null, fetch })
      .request('GET', '/x', ok)
      .catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.status).toBeUndefined();
  });

  it('does not retry a 5xx unless asked', async () => {
    const { fetch, calls } = fakeFetch([{ status: 503, text: 'down' }]);
    await expect(createHttp({ getToken: () => null, fetch }).request('GET', '/x', ok)).rejects.toMatchObject({
      status: 503,
    });
    expect(calls).toHaveLength(1);
  });

  it('retries a 5xx up to the attempt limit with a growing delay when asked', async () => {
    const { fetch, calls } = fakeFetch([{ status: 500 }, { status: 502 }, { status: 503, text: 'still down' }]);
    const delays: number[] = [];
    const http = createHttp({ getToken: () => null, fetch, sleep: async (ms) => void delays.push(ms) });
    await expect(http.request('GET', '/x', ok, { retry: true })).rejects.toMatchObject({ status: 503 });
    expect(calls).toHaveLength(HTTP_RETRY_ATTEMPTS);
    expect(delays).toEqual([HTTP_RETRY_BASE_DELAY_MS, HTTP_RETRY_BASE_DELAY_MS * 2]);
  });

  it('stops retrying once an attempt succeeds, and never retries a 4xx', async () => {
    const first = fakeFetch([{ status: 500 }, { status: 200, body: { ok: true } }]);
    await expect(
      createHttp({ getToken: () => null, fetch: first.fetch, sleep: async () => {} }).request('GET', '/x', ok, {
        retry: true,
      }),
    ).resolves.toEqual({ ok: true });
    expect(first.calls).toHaveLength(2);
    const second = fakeFetch([{ status: 404, body: { detail: 'Not found' } }]);
    await expect(
      createHttp({ getToken: () => null, fetch: second.fetch, sleep: async () => {} }).request('GET', '/x', ok, {
        retry: true,
      }),
    ).rejects.toMatchObject({ status: 404 });
    expect(second.calls).toHaveLength(1);
  });

  it('calls onUnauthorized on any 401, except on the public sign-in calls', async () => {
    const onUnauthorized = vi.fn();
    const { fetch } = fakeFetch([
      { status: 401, body: { detail: 'Not authenticated' } },
      { status: 401, body: { detail: 'Incorrect email or password' } },
    ]);
    const http = createHttp({ getToken: () => 'old', fetch, onUnauthorized });
    await expect(http.request('GET', '/agents/', ok)).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledWith('/agents/');
    await expect(http.request('POST', '/auth/login', ok, { public: true })).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('send() answers the raw status and body for callers that map failures themselves', async () => {
    const { fetch } = fakeFetch([{ status: 404, body: { detail: 'Agent not found' } }]);
    const answer = await createHttp({ getToken: () => null, fetch }).send('GET', '/agents/1');
    expect(answer).toEqual({ status: 404, ok: false, statusText: '', body: { detail: 'Agent not found' } });
  });

  it('sends FormData as is, without a JSON content type', async () => {
    const { fetch, calls } = fakeFetch([{ status: 200, body: { ok: true } }]);
    const form = new FormData();
    form.append('name', 'x');
    await createHttp({ getToken: () => null, fetch }).request('POST', '/upload', ok, { form });
    expect(calls[0].init.body).toBe(form);
    expect((calls[0].init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
  });
});
