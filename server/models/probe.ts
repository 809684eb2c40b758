import type { ConnectionFailureKind, ModelConnectionTestResult } from '../../src/schemas/modelConnections';
import { modelKind, type AddressedKind } from '../connections/kinds';
import { readCapped } from '../providers/boundedBody';
import { DEFAULT_LIST_LIMITS, ListTooLargeError, boundedNames, type ListLimits } from '../providers/llm/limits';
import { maskSecrets } from '../providers/mask';
import { blockedCause, type FetchLike } from './guardedFetch';

// Lists a connection's models and, when that fails, says exactly what failed: the name did not resolve (DNS),
// nothing listens there (refused), no answer in time, the key was rejected (401/403), or what answered is not the
// kind of server the connection says (not an Ollama / OpenAI-compatible model list). The Models dialog's Test and
// each connection's state both come from here.

export interface ProbeTarget {
  kind: AddressedKind<'model'>;
  baseUrl: string;
  apiKey?: string | null;
}

export const listUrl = (t: Pick<ProbeTarget, 'kind' | 'baseUrl'>) => modelKind(t.kind).listUrl(t.baseUrl);

export interface ProbeOptions {
  timeoutMs: number;
  /** A user's connection: the address rule's fetch (guardedFetch.ts). */
  fetch?: FetchLike;
  limits?: ListLimits;
}

export async function probeConnection(t: ProbeTarget, opts: ProbeOptions): Promise<ModelConnectionTestResult> {
  const { timeoutMs } = opts;
  const limits = opts.limits ?? DEFAULT_LIST_LIMITS;
  // A server may quote the key it refused; what we pass on never holds it.
  const fail = (reason: ConnectionFailureKind, detail: string): ModelConnectionTestResult => ({
    ok: false,
    reason,
    detail: maskSecrets(detail, [t.apiKey]),
  });
  const kind = modelKind(t.kind);
  const url = kind.listUrl(t.baseUrl);
  const where = new URL(url);
  const { serverName } = kind;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (t.apiKey) headers.authorization = `Bearer ${t.apiKey}`;
  let res: Response;
  let text: string;
  try {
    res = await (opts.fetch ?? fetch)(url, { headers, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    text = await readCapped(res, limits.maxBytes);
  } catch (e) {
    const err = e as Error & { cause?: { code?: string } };
    const blocked = blockedCause(e);
    if (blocked) return fail('blocked', blocked.message);
    if (err.name === 'BodyTooLargeError')
      return fail(
        'not_compatible',
        `The answer at ${where.pathname} is larger than this server accepts for a model list (MODEL_LIST_MAX_BYTES=${limits.maxBytes})`,
      );
    if (err.name === 'TimeoutError' || err.name === 'AbortError')
      return fail('timeout', `No answer from ${where.host} within ${Math.round(timeoutMs / 100) / 10} s`);
    const code = err.cause?.code ?? (err as { code?: string }).code;
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME')
      return fail('dns', `The name ${where.hostname} could not be found (DNS: ${code})`);
    if (code === 'ECONNREFUSED') return fail('refused', `Nothing is listening at ${where.host} (connection refused)`);
    return fail('unreachable', `${where.host} is not reachable${code ? ` (${code})` : ''}`);
  }
  if (res.status === 401 || res.status === 403)
    return fail('key_rejected', `The server rejected the API key (${res.status}${firstWords(text)})`);
  if (res.status >= 300 && res.status < 400)
    return fail(
      'not_compatible',
      `${where.host} answered with a redirect (${res.status}) at ${where.pathname}: not ${serverName}`,
    );
  if (res.status === 404)
    return fail('not_compatible', `${where.host} has no ${where.pathname} (404): not ${serverName}`);
  if (!res.ok) return fail('http', `${where.host} answered ${res.status}${firstWords(text)}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return fail('not_compatible', `The answer at ${where.pathname} is not JSON: not ${serverName}`);
  }
  const names = kind.names(body);
  if (!names) return fail('not_compatible', `The answer at ${where.pathname} is not ${kind.listName}`);
  try {
    return { ok: true, models: boundedNames(names, limits) };
  } catch (e) {
    if (e instanceof ListTooLargeError) return fail('not_compatible', `${where.host} ${e.message}`);
    throw e;
  }
}

function firstWords(text: string) {
  let why = text.trim().split('\n')[0]?.slice(0, 200) ?? '';
  try {
    const j = JSON.parse(text) as { error?: { message?: unknown } | string; detail?: unknown };
    const e = j.error;
    const picked =
      typeof e === 'string'
        ? e
        : typeof e?.message === 'string'
          ? e.message
          : typeof j.detail === 'string'
            ? j.detail
            : null;
    if (picked) why = picked;
  } catch {
    /* plain text */
  }
  return why ? `: ${why}` : '';
}
