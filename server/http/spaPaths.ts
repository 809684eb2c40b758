import type { FastifyInstance } from 'fastify';

// The SPA's own addresses (src/model/address.ts has their grammar) answered with the app's index.html: a reload or
// a link on any view opens the app there (the history fallback), with the same headers and cache rules as `/`
// (fastify-static's sendFile, the security headers of every reply). Exact patterns, so the API paths that share a
// prefix (`/discussions/{id}/shares`) keep their own routes and their own 404s.
export const SPA_PATHS = [
  '/history',
  '/discussions/:id',
  '/discussions/:id/replay',
  '/evaluations',
  '/evaluations/:id',
  '/s/:token',
  '/join/:token',
] as const;

/** Share links are private to those given them: no search engine lists their page. */
const NOINDEX_PREFIX = '/s/';

export async function spaPathRoutes(app: FastifyInstance) {
  for (const url of SPA_PATHS) {
    app.get(url, { schema: { hide: true } }, (req, reply) => {
      if (req.url.startsWith(NOINDEX_PREFIX)) reply.header('x-robots-tag', 'noindex');
      return reply.type('text/html').sendFile('index.html');
    });
  }
}
