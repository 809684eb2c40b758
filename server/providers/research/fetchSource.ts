import { httpError, networkError, ProviderError, type callSignal } from '../errors';

// GET helpers for the research clients: errors name the service ("arXiv answered 503: …").

const USER_AGENT = 'Agora/2.1 (multi-agent discussion platform; research client)';

export async function getText(
  url: string,
  service: string,
  provider: string,
  call: ReturnType<typeof callSignal>,
  timeoutMs: number,
  headers: Record<string, string> = {},
): Promise<string> {
  try {
    const res = await fetch(url, { headers: { 'user-agent': USER_AGENT, ...headers }, signal: call.signal });
    if (!res.ok) throw await httpError(res, provider, service);
    return await res.text();
  } catch (e) {
    throw networkError(e, { provider, service, url, timeoutMs, call });
  }
}

export async function getJson<T>(
  url: string,
  service: string,
  provider: string,
  call: ReturnType<typeof callSignal>,
  timeoutMs: number,
  headers: Record<string, string> = {},
): Promise<T> {
  const text = await getText(url, service, provider, call, timeoutMs, { accept: 'application/json', ...headers });
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ProviderError(`${service} answered something other than JSON`, provider, 'malformed');
  }
}
