import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
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

/** Writes the fixed security headers on a reply; the edge's onRequest hook calls it for every request (server/app.ts). */
export function securityHeaderWriter(): (reply: FastifyReply) => void {
  const headers = securityHeaders();
  const names = Object.keys(headers);
  return (reply) => {
    for (const name of names) reply.header(name, headers[name]);
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
