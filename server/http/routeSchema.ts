import type {
  FastifyInstance,
  FastifySchemaCompiler,
  FastifyServerOptions,
  FastifyTypeProvider,
  RouteOptions,
} from 'fastify';
import type { z } from 'zod';
import { HttpError, zodDetail } from './errors';

// One source of truth for a route: the zod schemas in its `schema` option validate the request (here, before the
// handler runs, with the same 422 detail as parseWith) and describe it in the OpenAPI document (http/openapi.ts).
// A route is documented when its `schema` has a `summary`; see docs/api.md 'Documenting a route'.

declare module 'fastify' {
  interface FastifySchema {
    /** One line, shown as the operation's title in /docs. A route without one counts as undocumented. */
    summary?: string;
    description?: string;
    /** The group in /docs; defaults to the first path segment. */
    tags?: string[];
    /** `[]` for a public route; bearer authentication is the default. */
    security?: Array<Record<string, string[]>>;
    /** Statuses the handler answers with `{detail}` beyond 401 (bearer routes) and 422 (validated parts). */
    errors?: Record<number, string>;
    /** A multipart/form-data body: described only, the handler reads the parts and parses the fields itself. */
    multipart?: z.ZodType;
    /** Non-JSON answers (files), by status: their media type. */
    files?: Record<number, string>;
    /** Left out of the document on purpose (static files of the SPA and of /docs; @fastify/static sets it). */
    hide?: boolean;
  }
}

/** Fastify's type provider for zod: request parts are typed as the schemas' output, replies as their input. */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

/** The request parts Fastify validates: a zod schema each. A body that did not come is `undefined` to zod. */
const zodValidator: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data: unknown) => {
    const input = httpPart === 'body' && data === null ? undefined : data;
    const res = schema.safeParse(input);
    return res.success ? { value: res.data } : { error: new HttpError(422, zodDetail(res.error)) };
  };

/**
 * Response schemas are documentation and the handlers' return types (the type provider checks them at compile
 * time): replies are not validated again at run time, so a reply costs what it cost without a schema.
 */
const plainJson = () => (data: unknown) => JSON.stringify(data);

/**
 * Fastify's `schemaController` option: routes validate with zod and answer with plain JSON. Given as the factories
 * Fastify would otherwise build its defaults with, so ajv and fast-json-stringify (never used here) are not even
 * loaded: they were a tenth of the routes' part of a start (npm run bench server).
 */
export const zodSchemaController: FastifyServerOptions['schemaController'] = {
  // Fastify types these factories after ajv's; at run time each returns the route compiler, as these do.
  compilersFactory: {
    buildValidator: (() => zodValidator) as unknown as CompilersFactory['buildValidator'],
    buildSerializer: (() => plainJson) as unknown as CompilersFactory['buildSerializer'],
  },
};
type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

export interface CatalogRoute {
  methods: string[];
  url: string;
  schema: RouteOptions['schema'];
  websocket: boolean;
  /** Fastify's automatic HEAD for a GET route (described by its GET). */
  autoHead: boolean;
}

/**
 * Every route Fastify registers, seen by an onRoute hook added before any route: the OpenAPI document is built
 * from it, and the test that no route goes undocumented walks it.
 */
export function routeCatalog(app: FastifyInstance): CatalogRoute[] {
  const routes: CatalogRoute[] = [];
  const gets = new Set<string>();
  app.addHook('onRoute', (route) => {
    const methods = ([] as string[]).concat(route.method);
    const websocket = isSocketRoute(route);
    // Fastify adds HEAD for a GET route right after it, with the same options and HEAD as a lone method.
    const autoHead = route.method === 'HEAD' && gets.has(route.url);
    if (methods.includes('GET')) gets.add(route.url);
    routes.push({ methods, url: route.url, schema: route.schema, websocket, autoHead });
  });
  return routes;
}

/** A socket route, before or after the socket guard (http/security.ts) turns it into a plain one with a wsHandler. */
export const isSocketRoute = (route: object) =>
  !!(route as { websocket?: boolean }).websocket || !!(route as { wsHandler?: unknown }).wsHandler;
