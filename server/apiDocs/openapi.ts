import type { FastifySchema } from 'fastify';
import { z } from 'zod';
import { errorBody } from '../../src/schemas/common';
import { APP_VERSION } from '../../src/schemas/constants';
import type { CatalogRoute } from '../http/routeSchema';
import { exampleOf, objectFields, toJsonSchema, type JsonSchema } from './jsonSchema';

// The OpenAPI 3.1 document, built from the routes Fastify registered (http/routeSchema.ts) and the zod schemas
// in their `schema` option. JSON Schema 2020-12 is OpenAPI 3.1's own dialect, so zod's output is used as it is.

const ERROR_REF = { $ref: '#/components/schemas/Error' };
const BEARER = [{ bearer: [] }];

const STATUS_WORDS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No content',
  206: 'Partial content',
  400: 'Bad request',
  401: 'Not signed in, or the token is invalid or expired',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Too large',
  416: 'Range not satisfiable',
  422: 'The request does not match its schema (the detail names the field)',
  426: 'Upgrade required',
  429: 'Too many requests',
  503: 'Unavailable',
};

/** The method and path of a route that is registered but not described (no `schema.summary`), for the test. */
export function undocumentedRoutes(routes: readonly CatalogRoute[]): string[] {
  return routes
    .filter((r) => !r.websocket && !r.autoHead && !r.schema?.hide && !r.schema?.summary)
    .flatMap((r) => r.methods.map((m) => `${m} ${r.url}`));
}

export const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

/** Whether a schema describes an empty reply (`z.undefined()`, as for 204). */
const isEmpty = (s: unknown) => s instanceof z.ZodUndefined || s instanceof z.ZodVoid;

const jsonContent = (schema: z.ZodType) => {
  const example = exampleOf(schema);
  return { 'application/json': { schema: toJsonSchema(schema), ...(example === undefined ? {} : { example }) } };
};

function operation(route: CatalogRoute, method: string, path: string) {
  const schema = route.schema as FastifySchema & { summary: string };
  // The trailing-slash spelling of a route is the same route (the app and older clients use both).
  const alias = path.length > 1 && path.endsWith('/') ? `The same as \`${path.slice(0, -1)}\`.` : '';
  const description = [schema.description, alias].filter(Boolean).join('\n\n');
  const security = schema.security ?? BEARER;
  const bearer = security.some((s) => 'bearer' in s);
  const parameters: JsonSchema[] = [];
  const addParams = (part: unknown, where: 'path' | 'query' | 'header') => {
    if (!(part instanceof z.ZodType)) return;
    for (const p of objectFields(part))
      parameters.push({
        name: p.name,
        in: where,
        required: where === 'path' || p.required,
        schema: p.schema,
        ...(p.description ? { description: p.description } : {}),
      });
  };
  addParams(schema.params, 'path');
  addParams(schema.querystring, 'query');
  addParams(schema.headers, 'header');

  let requestBody: JsonSchema | undefined;
  if (schema.body instanceof z.ZodType) {
    requestBody = { required: !schema.body.safeParse(undefined).success, content: jsonContent(schema.body) };
  } else if (schema.multipart) {
    const fields = toJsonSchema(schema.multipart);
    requestBody = { required: true, content: { 'multipart/form-data': { schema: fields } } };
  }

  const responses: Record<string, JsonSchema> = {};
  for (const [status, body] of Object.entries((schema.response ?? {}) as Record<string, unknown>)) {
    const description = STATUS_WORDS[Number(status)] ?? 'Answer';
    if (isEmpty(body)) responses[status] = { description };
    else if (body instanceof z.ZodType)
      responses[status] = { description: body.description ?? description, content: jsonContent(body) };
  }
  for (const [status, mediaType] of Object.entries(schema.files ?? {})) {
    responses[status] = {
      description: STATUS_WORDS[Number(status)] ?? 'The file',
      content: { [mediaType]: { schema: { type: 'string', contentMediaType: mediaType } } },
    };
  }
  const errors: Record<number, string> = {};
  if ((bearer || security.some((s) => 'apiToken' in s)) && !security.some((s) => Object.keys(s).length === 0))
    errors[401] = STATUS_WORDS[401];
  if (schema.params || schema.querystring || schema.body || schema.headers) errors[422] = STATUS_WORDS[422];
  Object.assign(errors, schema.errors);
  for (const [status, description] of Object.entries(errors)) {
    responses[status] = { description, content: { 'application/json': { schema: ERROR_REF } } };
  }

  return {
    operationId: operationId(method, path),
    summary: schema.summary,
    ...(description ? { description } : {}),
    tags: schema.tags ?? [defaultTag(route.url)],
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
    security,
  };
}

/** `postAgentsId` for POST /agents/{id}; the trailing-slash alias gets `…Slash`, so every id is unique. */
const operationId = (method: string, path: string) =>
  `${method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}${path.length > 1 && path.endsWith('/') ? 'Slash' : ''}`;

const defaultTag = (url: string) => {
  const first = url.split('/').filter(Boolean)[0] ?? 'root';
  return first.charAt(0).toUpperCase() + first.slice(1);
};

/** The groups in the order a reader meets them in the app; any other group follows. */
const TAG_ORDER = [
  'Auth',
  'Agents',
  'Reference audio',
  'Connections',
  'Discussions',
  'Models',
  'Hybrid settings',
  'Research',
  'Speech',
  'Voices',
  'Media',
  'System',
  'API documents',
];
const tagsInOrder = (paths: Record<string, Record<string, unknown>>) => {
  const used = new Set(
    Object.values(paths).flatMap((ops) => Object.values(ops).flatMap((op) => (op as { tags: string[] }).tags)),
  );
  return [...TAG_ORDER.filter((t) => used.has(t)), ...[...used].filter((t) => !TAG_ORDER.includes(t)).sort()];
};

const DESCRIPTION = [
  'The HTTP API of the Agora server: everything the app calls. Interactive reference at `/docs`; this document at `/openapi.json`.',
  '',
  "**Authentication.** `POST /auth/register` or `POST /auth/login` answers an `access_token` (a JWT). Send it as `Authorization: Bearer <token>` on every other call. Sockets open with `?ticket=` from `POST /auth/socket-ticket` (single-use, short-lived, so the token stays out of URLs and logs), or with `?token=`. **Operator**: the first account (or the `ADMIN_EMAILS`) manages the built-in model files, the server's own Ollama models and `/debug/info`; other accounts get 403 with a `detail` there.",
  '',
  '**Errors.** Every error answers `{"detail": "…"}` with its status: 401 without a valid token, 404 for anything that is not yours, 422 when a request does not match its schema (the detail names the field), 429 when rate-limited.',
  '',
  '**Sockets.** Discussions run over WebSockets and the canvas follows changes over the live-updates socket: they are described in the AsyncAPI document at `/asyncapi.json`.',
].join('\n');

/** The whole document. Routes without a summary are left out (and reported by undocumentedRoutes). */
export function openApiDocument(routes: readonly CatalogRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (route.websocket || route.autoHead || route.schema?.hide || !route.schema?.summary) continue;
    const path = openApiPath(route.url);
    for (const method of route.methods) (paths[path] ??= {})[method.toLowerCase()] = operation(route, method, path);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Agora API', version: APP_VERSION, description: DESCRIPTION },
    tags: tagsInOrder(paths).map((name) => ({ name })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas: { Error: toJsonSchema(errorBody) },
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'The access_token from /auth/login or /auth/register.',
        },
        mediaKey: {
          type: 'apiKey',
          in: 'query',
          name: 'key',
          description: "The unguessable key in an audio item's audio_url (an <audio> element cannot send a header).",
        },
        operatorToken: { type: 'http', scheme: 'bearer', description: "OPERATOR_TOKEN from the server's environment." },
        apiToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'agora_…',
          description: 'An API token from POST /api-tokens, for other clients (/mcp, /v1); docs/integrations.md.',
        },
      },
    },
  };
}
