// http.request with the answer's schema named rather than passed: the schemas (and zod with them) live in
// apiWire.ts, fetched with the first call, so the sign-in screen's JavaScript carries neither.
// Every answer is still parsed with its schema before anyone sees it.
import type { z } from 'zod';
import type { Http, RequestOptions } from './http';

export const loadWire = () => import('./apiWire');
type Wire = typeof import('./apiWire');
export type SchemaName = { [K in keyof Wire]: Wire[K] extends z.ZodType ? K : never }[keyof Wire];

export function lazyAsk(request: Http['request']) {
  return async <K extends SchemaName>(
    method: string,
    path: string,
    schema: K,
    opts?: RequestOptions,
  ): Promise<z.infer<Wire[K]>> => request(method, path, (await loadWire())[schema] as Wire[K] & z.ZodType, opts);
}
