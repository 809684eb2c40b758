import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { findNul, NUL_DETAIL } from '../../src/schemas/common';
import { incident } from './incident';

/** Thrown by routes; answered as `{"detail": message}` with its status. */
export class HttpError extends Error {
  constructor(
    public readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const notFound = (what = 'Not found') => new HttpError(404, what);

/** Parses a request part with a shared schema; a mismatch is a 422 with a readable detail. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const res = schema.safeParse(value);
  if (!res.success) throw new HttpError(422, zodDetail(res.error));
  return res.data;
}

/** A zod error as one line of `detail`. */
export const zodDetail = (error: z.ZodError) => z.prettifyError(error).replace(/\n\s*/g, ' ');

/** PostgreSQL's 'invalid byte sequence' / 'character not in repertoire' (a NUL reached the database). */
const BAD_TEXT_CODES = new Set(['22021', '22P05']);

/** What a 4xx from Fastify or a plugin says, in words a person can act on. */
function clientDetail(err: FastifyError): string {
  switch (err.code) {
    case 'FST_ERR_BAD_URL':
      return 'The URL is malformed (an invalid %-escape).';
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return 'A part of the URL is too long.';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return err.message;
    default:
      return err.message || 'Bad request';
  }
}

/**
 * Every error the server answers is `{"detail": "…"}` with its status, never a stack. Framework errors raised
 * before routing (a bad %-escape, an over-long path segment) come through `frameworkErrors` here too.
 */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | HttpError, req, reply) => {
    if (err instanceof HttpError) return reply.status(err.status).send({ detail: err.message });
    if (BAD_TEXT_CODES.has(String(err.code))) return reply.status(400).send({ detail: NUL_DETAIL });
    const status =
      typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
    const detail =
      status === 429
        ? 'Too many attempts. Please wait a minute and try again.'
        : status >= 500
          ? incident(req.log, err, 'Internal server error')
          : clientDetail(err);
    return reply.status(status).send({ detail });
  });
}

/**
 * Fastify's `frameworkErrors` option: errors met before a route is chosen. The security headers come with every
 * head (http/security.ts); a JSON error needs nothing, so its CSP is the strictest one.
 */
export function frameworkErrors(err: FastifyError, _req: FastifyRequest, reply: FastifyReply) {
  const status =
    typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  void reply
    .status(status)
    .header('content-security-policy', ERROR_CSP)
    .send({ detail: clientDetail(err) });
}

/** The stricter policy of answers that are only an error's JSON. */
const ERROR_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * Before Fastify sees a request (the server's request handler, http/security.ts): a NUL in the path or the query
 * string can only arrive as `%00` (the HTTP parser refuses a raw one), and the router and the query parser decode
 * it. Refused here with one `indexOf` a request, instead of an onRequest hook every route walks (npm run bench
 * server: /health). Whether it answered.
 */
export function refuseEncodedNul(req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? '';
  const at = url.indexOf('%00');
  if (at < 0) return false;
  const query = url.indexOf('?');
  const body = JSON.stringify({ detail: `${NUL_DETAIL} (in the ${query >= 0 && query < at ? 'query' : 'path'})` });
  res.writeHead(400, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'content-security-policy': ERROR_CSP,
  });
  res.end(body);
  return true;
}

/**
 * onRequest hook: a NUL in a path parameter or the query string is refused before any route or database sees it.
 * A callback hook: it runs on every request, and an async one costs a promise each time.
 */
export function refuseNulInUrl(req: FastifyRequest, reply: FastifyReply, done: () => void) {
  const where = findNul(req.params, 'path') ?? findNul(req.query, 'query');
  if (where) void reply.status(400).send({ detail: `${NUL_DETAIL} (in ${where})` });
  else done();
}
