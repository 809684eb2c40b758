import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { asyncApiDocument } from '../apiDocs/asyncapi';
import { openApiDocument } from '../apiDocs/openapi';
import type { CatalogRoute } from '../http/routeSchema';

// The API's own description: /openapi.json (HTTP), /asyncapi.json (sockets) and the interactive reference at
// /docs (Swagger UI from node_modules, no CDN; its page has no inline script or style, so the app's strict CSP
// applies to it unchanged).

const PAGE_DIR = fileURLToPath(new URL('../apiDocs/page/', import.meta.url));
const SWAGGER_UI_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const jsonDocument = z.looseObject({}).describe('The document (JSON)');

export async function apiDocsRoutes(app: FastifyInstance, opts: { catalog: readonly CatalogRoute[] }) {
  // Built on first request, when every route has been registered; the routes do not change after start.
  let openapi: ReturnType<typeof openApiDocument> | null = null;
  let asyncapi: ReturnType<typeof asyncApiDocument> | null = null;
  const isPublic = { tags: ['API documents'], security: [] };

  app.get(
    '/openapi.json',
    { schema: { ...isPublic, summary: 'This document: the HTTP API as OpenAPI 3.1', response: { 200: jsonDocument } } },
    async () => (openapi ??= openApiDocument(opts.catalog)),
  );
  app.get(
    '/asyncapi.json',
    { schema: { ...isPublic, summary: 'The sockets as AsyncAPI 3.0', response: { 200: jsonDocument } } },
    async () => (asyncapi ??= asyncApiDocument()),
  );
  app.get(
    '/docs',
    { schema: { ...isPublic, summary: 'The interactive API reference (this page)', files: { 200: 'text/html' } } },
    async (_req, reply) => reply.type('text/html').sendFile('index.html', PAGE_DIR),
  );

  // The page's own files and the two Swagger UI files it loads, by name: nothing else in those folders is served.
  await app.register(fastifyStatic, { root: PAGE_DIR, serve: false });
  const files: Array<[string, string, string]> = [
    ['/docs/page.js', PAGE_DIR, 'page.js'],
    ['/docs/page.css', PAGE_DIR, 'page.css'],
    ['/docs/assets/swagger-ui.css', SWAGGER_UI_DIR, 'swagger-ui.css'],
    ['/docs/assets/swagger-ui-bundle.js', SWAGGER_UI_DIR, 'swagger-ui-bundle.js'],
  ];
  for (const [url, root, name] of files) {
    app.get(url, { schema: { hide: true } }, async (_req, reply) =>
      reply.header('cache-control', 'public, max-age=3600').sendFile(name, root),
    );
  }
}
