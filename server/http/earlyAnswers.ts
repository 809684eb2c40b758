import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * An answer given by the server's request handler before Fastify's router: it writes the whole answer and returns
 * true, or returns false to pass the request on to the router.
 */
export type EarlyAnswer = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * GET answers the server gives before Fastify's router (http/security.ts runs them): for a probe that a load
 * balancer or a monitor asks many times a second and whose answer is already known (/health): such a request skips
 * the router's work (its request and reply objects, the route's lookup, a logger's listener on the answer's end), a
 * few µs of the ~30 µs it costs here, most of which are node's own (docs/performance.md). Each early path keeps a
 * Fastify route of its own, which documents it (OpenAPI), answers HEAD, OPTIONS and `inject()`, and takes whatever
 * the early answer passes on; the address must match exactly (a query string goes to the router). The server's
 * response class adds any security header the head lacks, as on every answer.
 */
export class EarlyAnswers {
  private readonly gets = new Map<string, EarlyAnswer>();

  /** `answer` for GET requests to exactly `path`. */
  get(path: string, answer: EarlyAnswer): void {
    this.gets.set(path, answer);
  }

  /**
   * No more early answers: from the start of the server's close, so that the router answers, and Fastify's 503
   * while closing tells a load balancer's probe to stop sending traffic here.
   */
  close(): void {
    this.gets.clear();
  }

  /** Whether an early answer was given (the request is then done). */
  answer(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET') return false;
    const answer = this.gets.get(req.url ?? '');
    return answer !== undefined && answer(req, res);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** GET answers given before the router (http/earlyAnswers.ts). */
    earlyAnswers: EarlyAnswers;
  }
}
