import { createServer, ServerResponse, type IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest, FastifyServerFactory, RouteOptions } from 'fastify';
import helmet from 'helmet';
import type { WebSocket } from 'ws';
import { CLOSE_POLICY_VIOLATION } from '../../src/schemas/constants';

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

type HeadFields = Record<string, unknown> | readonly unknown[] | null | undefined;

/** The names among `names` that a reply set itself, in any of the shapes node:http hands its head writer. */
function namesSetBy(fields: HeadFields, names: readonly string[]): Set<string> | null {
  if (!fields) return null;
  let found: Set<string> | null = null;
  const see = (name: unknown) => {
    const lower = String(name).toLowerCase();
    if (names.includes(lower)) (found ??= new Set()).add(lower);
  };
  if (Array.isArray(fields)) {
    // [[name, value], …] or [name, value, name, value, …]
    if (fields.length && Array.isArray(fields[0])) for (const pair of fields) see((pair as unknown[])[0]);
    else for (let i = 0; i < fields.length; i += 2) see(fields[i]);
  } else {
    // Fastify's own object and node's progressive-API store both key the fields by lower-case name.
    for (const name of names) if ((fields as Record<string, unknown>)[name] !== undefined) (found ??= new Set()).add(name);
  }
  return found;
}

/**
 * The server's response class (`http.createServer({ ServerResponse })`): every head it writes carries the security
 * headers, as one block worked out once and put after the status line. Setting them on each reply in a hook walked
 * node's header checks eleven more times per answer and cost a quarter of /health's rate (npm run bench server);
 * this costs one string join. Every answer gets them, the framework's early errors included. A header a reply set
 * itself wins (errors.ts sends a stricter CSP): the block leaves that name out for that answer.
 *
 * `_storeHeader(statusLine, fields)` is node:http's one head writer for writeHead and implicit heads alike (Node 20
 * to 24); tests/server/hardening.test.ts checks the headers on real answers, so a node that changed it would fail
 * there. Fastify's inject() uses its own response class and does not see the block (the tests listen for real).
 */
export function secureResponseClass(headers: Readonly<Record<string, string>> = securityHeaders()): typeof ServerResponse {
  const names = Object.keys(headers);
  const line = (name: string) => `${name}: ${headers[name]}\r\n`;
  const block = names.map(line).join('');
  type StoreHeader = (this: ServerResponse, statusLine: string, fields: HeadFields) => unknown;
  const store = (ServerResponse.prototype as unknown as { _storeHeader: StoreHeader })._storeHeader;
  class SecureResponse extends ServerResponse {
    _storeHeader(statusLine: string, fields: HeadFields) {
      const own = namesSetBy(fields, names);
      const extra = own ? names.filter((n) => !own.has(n)).map(line).join('') : block;
      return store.call(this, statusLine + extra, fields);
    }
  }
  return SecureResponse as typeof ServerResponse;
}

/** Fastify's `serverFactory`: node's HTTP/1.1 server as Fastify makes it, with the secure response class. */
export function secureServerFactory(): FastifyServerFactory {
  const ResponseClass = secureResponseClass();
  return (handler, opts) => {
    const server = createServer({ ServerResponse: ResponseClass }, handler);
    // What Fastify sets on the server it makes itself (lib/server.js), from its own defaults.
    const o = opts as { keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number; maxRequestsPerSocket?: number };
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
 * onRoute hook, added before the websocket plugin: every socket route checks the Origin first (a refused one
 * closes 1008 before the handler runs), and a plain GET to a socket path answers 426 with a detail.
 */
export function guardSocketRoutes(app: FastifyInstance, allowedOrigins: readonly string[]) {
  app.addHook('onRoute', (route: RouteOptions) => {
    const opts = route as unknown as { websocket?: boolean; wsHandler?: WsHandler; handler: RouteOptions['handler'] };
    if (!opts.websocket) return;
    const inner = opts.handler as unknown as WsHandler;
    opts.wsHandler = function (ws: WebSocket, req: FastifyRequest) {
      if (!originAllowed(req, allowedOrigins)) return ws.close(CLOSE_POLICY_VIOLATION, ORIGIN_REFUSED);
      return inner.call(this, ws, req);
    };
    opts.handler = async (_req, reply) => reply.status(426).header('upgrade', 'websocket').send({ detail: NOT_A_SOCKET });
    opts.websocket = false;
  });
}
