import type { FastifyInstance } from 'fastify';

// The SPA's own addresses (src/model/address.ts has their grammar) answered with the app's index.html: a reload or
// a link on any view opens the app there (the history fallback), with the same headers and cache rules as `/`
// (fastify-static's sendFile, the security headers of every reply). Exact patterns, so the API paths that share a
// prefix (`/discussions/{id}/shares`) keep their own routes and their own 404s. A share link's page (`/s/{token}`) is
// the shares module's: the same index.html, marked noindex and rate-limited (server/shares/routes.ts).
export const SPA_PATHS = [
  '/history',
  '/discussions/:id',
  '/discussions/:id/replay',
  '/evaluations',
  '/evaluations/:id',
  '/join/:token',
] as const;

export async function spaPathRoutes(app: FastifyInstance) {
  for (const url of SPA_PATHS) {
    app.get(url, { schema: { hide: true } }, (_req, reply) => {
      return reply.type('text/html').sendFile('index.html');
    });
  }
}
