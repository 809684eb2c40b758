import type { FastifyError, FastifyInstance } from 'fastify';
import { z } from 'zod';

/** Thrown by routes; answered as `{"detail": message}` with its status. */
export class HttpError extends Error {
  constructor(public readonly status: number, message: string) {
    super(message);
  }
}

export const notFound = (what = 'Not found') => new HttpError(404, what);

/** Parses a request part with a shared schema; a mismatch is a 422 with a readable detail. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const res = schema.safeParse(value);
  if (!res.success) throw new HttpError(422, z.prettifyError(res.error).replace(/\n\s*/g, ' '));
  return res.data;
}

export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | HttpError, req, reply) => {
    if (err instanceof HttpError) return reply.status(err.status).send({ detail: err.message });
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 500) req.log.error({ err }, 'request failed');
    const detail = status === 429 ? 'Too many attempts. Please wait a minute and try again.' : status >= 500 ? 'Internal server error' : err.message;
    return reply.status(status).send({ detail });
  });
}
