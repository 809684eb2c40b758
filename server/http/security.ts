import { createServer, ServerResponse, type IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest, FastifyServerFactory } from 'fastify';
import helmet from 'helmet';
import type { WebSocket } from 'ws';
import { CLOSE_POLICY_VIOLATION } from '../../src/schemas/constants';
import type { EarlyAnswers } from './earlyAnswers';
import { refuseEncodedNul } from './errors';

// Security at the edge: headers on every response and the Origin check of every socket.

/**
 * The Content-Security-Policy the built app works under. Scripts and styles come from the app's own files (Vite
 * emits no inline script; React's style props set the CSSOM, which CSP does not govern). Sockets and fetches go
 * to the same origin ('self' covers ws: and wss: of it). Downloads, recordings and previews use blob: URLs;
 * audio comes from /media; the PDF font is fetched from the same origin.
 */
export const CSP_DIRECTIVES = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'media-src': ["'self'", 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'", 'blob:'],
  'worker-src': ["'self'", 'blob:'],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

const HELMET_OPTIONS = {
  contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
  // Served over plain HTTP on a LAN as often as behind TLS: HSTS is the TLS proxy's to send.
  strictTransportSecurity: false,
  xFrameOptions: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
} as const;

/**
 * The headers helmet would set, worked out once: none of them depends on the request (no nonces, no per-route
 * options), so running helmet's middleware chain on every reply only repeated the same strings.
 */
export function securityHeaders(): Readonly<Record<string, string>> {
  worked ??= helmetHeaders();
  return worked;
}
let worked: Readonly<Record<string, string>> | undefined;

function helmetHeaders(): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
    getHeader: (name: string) => headers[name.toLowerCase()],
  };
  helmet(HELMET_OPTIONS)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return Object.freeze(headers);
}

/** The header names a raw array of fields sets, lower-cased. */
function arrayNames(fields: readonly unknown[]): Set<string> {
  const nested = fields.length > 0 && Array.isArray(fields[0]);
  const out = new Set<string>();
  if (nested) for (const pair of fields) out.add(String((pair as unknown[])[0]).toLowerCase());
  else for (let i = 0; i < fields.length; i += 2) out.add(String(fields[i]).toLowerCase());
  return out;
}

/**
 * The server's response class (`http.createServer({ ServerResponse })`): every head it writes carries the security
 * headers. `writeHead` is node:http's public head writer, and node calls it for implicit heads too (a body written
 * without one). Headers go in as one object worked out once at start: names the reply set itself (errors.ts sends
 * a stricter CSP) win, and the rest are added to the object the reply hands over, or set one by one when it
 * hands none. node checks each name and value as it writes them; docs/performance.md says what that costs /health.
 * Fastify's inject() uses its own response class and does not see them (the tests listen for real).
 */
export function secureResponseClass(
  headers: Readonly<Record<string, string>> = securityHeaders(),
): typeof ServerResponse {
  const names = Object.keys(headers);
  class SecureResponse extends ServerResponse {
    override writeHead(statusCode: number, ...rest: unknown[]): this {
      const at = rest.length - 1;
      const last = rest[at];
      if (Array.isArray(last)) {
        // A raw array, flat ([name, value, …]) or of pairs: a copy with the missing names appended the same way.
        const nested = last.length > 0 && Array.isArray(last[0]);
        const own = arrayNames(last);
        const missing = names.filter((n) => !own.has(n) && !this.hasHeader(n));
        rest[at] = nested
          ? [...last, ...missing.map((n) => [n, headers[n]])]
          : [...last, ...missing.flatMap((n) => [n, headers[n]])];
      } else if (last && typeof last === 'object') {
        const given = last as Record<string, unknown>;
        for (const name of names) if (given[name] === undefined && !this.hasHeader(name)) given[name] = headers[name];
      } else {
        // No fields given (an implicit head, or writeHead(status[, reason])): node merges what setHeader stored.
        for (const name of names) if (!this.hasHeader(name)) this.setHeader(name, headers[name]);
      }
      return (super.writeHead as (code: number, ...args: unknown[]) => this)(statusCode, ...rest);
    }
  }
  return SecureResponse as typeof ServerResponse;
}

/**
 * Fastify's `serverFactory`: node's HTTP/1.1 server as Fastify makes it, with the secure response class, and the
 * early answers (http/earlyAnswers.ts) given before the router.
 */
export function secureServerFactory(early?: EarlyAnswers): FastifyServerFactory {
  const ResponseClass = secureResponseClass();
  return (handler, opts) => {
    // A NUL in the address is refused before routing (http/errors.ts); the socket routes' upgrades, which do not
    // come through here, keep the hook (http/sockets.ts).
    const server = createServer({ ServerResponse: ResponseClass }, (req, res) => {
      if (!refuseEncodedNul(req, res) && !early?.answer(req, res)) handler(req, res);
    });
    // What Fastify sets on the server it makes itself (lib/server.js), from its own defaults.
    const o = opts as {
      keepAliveTimeout?: number;
      requestTimeout?: number;
      connectionTimeout?: number;
      maxRequestsPerSocket?: number;
    };
    if (o.keepAliveTimeout !== undefined) server.keepAliveTimeout = o.keepAliveTimeout;
    if (o.requestTimeout !== undefined) server.requestTimeout = o.requestTimeout;
    if (o.connectionTimeout !== undefined) server.setTimeout(o.connectionTimeout);
    if (o.maxRequestsPerSocket) server.maxRequestsPerSocket = o.maxRequestsPerSocket;
    return server;
  };
}

/** An Origin the sockets accept: none (not a browser), the server's own, or one listed in ALLOWED_ORIGINS. */
export function originAllowed(req: FastifyRequest, allowed: readonly string[]): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  if (allowed.includes(origin)) return true;
  try {
    const u = new URL(origin);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.host === req.host;
  } catch {
    return false;
  }
}

export const ORIGIN_REFUSED = 'Origin not allowed';
const NOT_A_SOCKET = 'This address is a WebSocket endpoint; open it with a WebSocket client.';

type WsHandler = (this: FastifyInstance, ws: WebSocket, req: FastifyRequest) => unknown;

/**
 * A socket route in @fastify/websocket's documented full declaration (`handler` for plain HTTP, `wsHandler` for
 * the socket): the Origin is checked first (a refused one closes 1008 before the handler runs), and a plain GET to
 * a socket path answers 426 with a detail.
 */
export function socketRoute(app: FastifyInstance, url: string, wsHandler: WsHandler) {
  const allowed = app.ctx.config.allowedOrigins;
  app.route({
    method: 'GET',
    url,
    handler: async (_req, reply) => reply.status(426).header('upgrade', 'websocket').send({ detail: NOT_A_SOCKET }),
    wsHandler(ws: WebSocket, req: FastifyRequest) {
      if (!originAllowed(req, allowed)) ws.close(CLOSE_POLICY_VIOLATION, ORIGIN_REFUSED);
      else void wsHandler.call(this, ws, req);
    },
  });
}
