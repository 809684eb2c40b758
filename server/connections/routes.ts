import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import type { ZodTypeProvider } from '../http/routeSchema';
import { checkUrl } from '../models/addressRule';
import { secretBox } from '../models/service';
import { assertRoomForConnection, connectionRateLimits, type ConnectionTable } from './caps';
import type { ConnectionInput, ConnectionPatch, StoredConnection, connectionStore } from './store';

// The routes every kind of connection has, written once: list, Test, add, edit, delete, each scoped to the
// signed-in user, with the caps of caps.ts (Test and Save rate limits, connections per user), the address rule
// on every address a user gives, and a stored key sent only to the origin it was entered for. The model and
// speech surfaces (routes/modelConnections.ts, routes/speechConnections.ts) are two uses of it, with their URLs.

/** A connection's id in a path, for every connections route. */
export const idParams = z.object({ id: z.string().min(1).max(100) });

export interface ConnectionRoutesSpec<
  Row extends StoredConnection,
  Extra extends string,
  Create extends z.ZodTypeAny,
  Update extends z.ZodTypeAny,
  TestBody extends z.ZodType<{ kind: string; base_url: string; api_key?: string | null; id?: string }>,
> {
  path: string;
  table: ConnectionTable;
  tags: string[];
  /** 'model connection', 'speech connection'. */
  noun: string;
  store: ReturnType<typeof connectionStore<Row, Extra>>;
  schemas: { create: Create; update: Update; testBody: TestBody; testResult: z.ZodTypeAny; view: z.ZodTypeAny };
  testSummary: string;
  /** The server's own connections (from its environment): listed, never edited. */
  serverOwned(id: string): boolean;
  /** The Test: what the server at the body's address answered (the address rule applied inside). */
  test(body: z.infer<TestBody>, apiKey: string | null): Promise<unknown>;
  toInput(body: z.infer<Create>): ConnectionInput<Row, Extra>;
  toPatch(body: z.infer<Update>): ConnectionPatch<Extra>;
  view(userId: string, id: string): Promise<unknown>;
  /** Whatever is cached of a connection, dropped after an edit or a delete. */
  forget(id: string): void;
  /** Before a delete, what goes with the connection. */
  beforeDelete?(userId: string, id: string): Promise<void>;
}

export function connectionRoutes<
  Row extends StoredConnection,
  Extra extends string,
  Create extends z.ZodTypeAny,
  Update extends z.ZodTypeAny,
  TestBody extends z.ZodType<{ kind: string; base_url: string; api_key?: string | null; id?: string }>,
>(fastify: FastifyInstance, ctx: AppContext, spec: ConnectionRoutesSpec<Row, Extra, Create, Update, TestBody>) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { testLimited, saveLimited } = connectionRateLimits(app, ctx);
  const { store, schemas, noun, tags } = spec;
  const readOnly = `The server's own ${noun} is read-only (it comes from the server's environment)`;
  const notFound = { 404: `No such ${noun}` };

  const refuseBlocked = async (baseUrl: string) => {
    const verdict = await checkUrl(baseUrl, ctx.config.modelConnectionsAllowPrivate);
    if (!verdict.ok) throw new HttpError(422, `This address may not be used: ${verdict.detail}`);
  };
  // A stored key only ever goes where it was entered for: pointing the connection (or a Test) at another origin
  // needs the key typed again, so a stolen session cannot send the key to a server of its choosing.
  const keyStaysHome = (stored: Row, baseUrl: string) => {
    if (stored.api_key_sealed && new URL(stored.base_url).origin !== new URL(baseUrl).origin) {
      throw new HttpError(
        422,
        'Enter the API key again to use it at another address (a stored key is only sent where it was entered)',
      );
    }
  };
  const changed = (userId: string) => ctx.hub.broadcast(userId, { type: 'model_connections_changed' });
  // Replies are not validated by Fastify (routeSchema.ts); a connection is parsed here anyway, so a field a
  // client must never see (a sealed key) cannot slip out of a view that grew one.
  const view = async (userId: string, id: string) => schemas.view.parse(await spec.view(userId, id));

  app.post(
    `${spec.path}/test`,
    {
      ...testLimited,
      schema: {
        tags,
        summary: spec.testSummary,
        description: 'With `id` and no `api_key`, tests with the stored key (only at the address it was entered for).',
        body: schemas.testBody,
        response: { 200: schemas.testResult },
        errors: { ...notFound, 429: 'Too many tests in a minute' },
      },
    },
    async (req) => {
      const body = req.body as z.infer<TestBody>;
      // Editing without retyping the key tests with the stored one.
      let apiKey = body.api_key ?? null;
      if (!apiKey && body.id) {
        const row = await store.owned(ctx.db, req.userId, body.id);
        keyStaysHome(row, body.base_url);
        apiKey = store.openKey(await secretBox(ctx), row);
      }
      return spec.test(body, apiKey);
    },
  );

  app.post(
    spec.path,
    {
      ...saveLimited,
      schema: {
        tags,
        summary: `Add a ${noun}`,
        description: 'The API key is stored encrypted and never sent back. Broadcasts `model_connections_changed`.',
        body: schemas.create,
        response: { 201: schemas.view },
        errors: {
          409: `A ${noun} with this name exists, or you have as many as the server allows`,
          429: 'Too many saves in a minute',
        },
      },
    },
    async (req, reply) => {
      const body = req.body as z.infer<Create>;
      await assertRoomForConnection(ctx, spec.table, req.userId, `${noun}s`);
      const input = spec.toInput(body);
      await refuseBlocked(input.base_url);
      const row = await store.insert(ctx.db, await secretBox(ctx), req.userId, input);
      changed(req.userId);
      reply.status(201);
      return view(req.userId, row.id);
    },
  );

  app.patch(
    `${spec.path}/:id`,
    {
      ...saveLimited,
      schema: {
        tags,
        summary: `Edit a ${noun}`,
        description:
          'An absent `api_key` keeps the stored one; `""` removes it. Broadcasts `model_connections_changed`.',
        params: idParams,
        body: schemas.update,
        response: { 200: schemas.view },
        errors: {
          403: readOnly,
          ...notFound,
          409: `A ${noun} with this name exists`,
          429: 'Too many saves in a minute',
        },
      },
    },
    async (req) => {
      const { id } = req.params;
      if (spec.serverOwned(id)) throw new HttpError(403, readOnly);
      const patch = spec.toPatch(req.body as z.infer<Update>);
      if (patch.base_url) {
        await refuseBlocked(patch.base_url);
        if (patch.api_key === undefined) keyStaysHome(await store.owned(ctx.db, req.userId, id), patch.base_url);
      }
      await store.update(ctx.db, await secretBox(ctx), req.userId, id, patch);
      spec.forget(id);
      changed(req.userId);
      return view(req.userId, id);
    },
  );

  app.delete(
    `${spec.path}/:id`,
    {
      schema: {
        tags,
        summary: `Delete a ${noun} and its stored key`,
        params: idParams,
        response: { 204: z.undefined() },
        errors: { 403: readOnly, ...notFound },
      },
    },
    async (req, reply) => {
      const { id } = req.params;
      if (spec.serverOwned(id)) throw new HttpError(403, readOnly);
      await store.owned(ctx.db, req.userId, id);
      await spec.beforeDelete?.(req.userId, id);
      await store.remove(ctx.db, req.userId, id);
      spec.forget(id);
      changed(req.userId);
      return reply.status(204).send();
    },
  );
}
