import type { FastifyReply } from 'fastify';
import { HttpError } from '../../http/errors';

// OpenAI's error shape, which every OpenAI-compatible client reads (`error.message`, `error.type`, `error.code`).

const TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict_error',
  413: 'invalid_request_error',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
};

export const openAiError = (status: number, message: string, code: string | null = null) => ({
  error: { message, type: TYPES[status] ?? 'server_error', param: null, code },
});

export const refuseOpenAi = (reply: FastifyReply, status: number, message: string) =>
  reply.status(status).send(openAiError(status, message));

/** A refusal with OpenAI's machine-readable `code` ('model_not_found', …). */
export class OpenAiRefusal extends HttpError {
  constructor(
    status: number,
    message: string,
    readonly code: string,
  ) {
    super(status, message);
  }
}
