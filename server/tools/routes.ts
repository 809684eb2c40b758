import type { FastifyInstance } from 'fastify';
import {
  toolCatalog,
  toolConnection,
  toolConnectionCreate,
  toolConnectionList,
  toolConnectionTestBody,
  toolConnectionTestResult,
  toolConnectionUpdate,
} from '../../src/schemas/toolConnections';
import { requireUser } from '../auth/guard';
import { connectionRoutes } from '../connections/routes';
import { testedTarget } from '../connections/target';
import type { ZodTypeProvider } from '../http/routeSchema';
import { OPERATOR_PREFIX } from './mcp/operatorServers';
import { isOperator } from '../auth/operator';
import {
  forgetToolList,
  serverOwnedToolConnections,
  testToolServer,
  userToolServer,
  toolCatalogOf,
  toolConnectionView,
} from './service';
import { toolConnectionStore } from './store';

// /tool-connections (the MCP servers a user connects: one more use of the connections module) and GET /tools, every
// tool the user can give an agent. Scoped to the signed-in user; no answer holds an API key.

const tags = ['Tools'];

export async function toolRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  app.addHook('onRequest', requireUser(ctx));

  app.get(
    '/tool-connections',
    {
      schema: {
        tags,
        summary:
          'List your MCP tool servers, then the built-in tools and the operator’s servers (read-only), each with its tools',
        response: { 200: toolConnectionList },
      },
    },
    async (req) => {
      const rows = await toolConnectionStore.list(ctx.db, req.userId);
      const [own, serverOwned] = await Promise.all([
        Promise.all(rows.map((r) => toolConnectionView(ctx, req.userId, r.id))),
        serverOwnedToolConnections(ctx, await isOperator(ctx, req.userId)),
      ]);
      return toolConnectionList.parse({ connections: [...own, ...serverOwned] });
    },
  );

  connectionRoutes(app, ctx, {
    path: '/tool-connections',
    table: 'tool_connections',
    tags,
    noun: 'tool server',
    store: toolConnectionStore,
    schemas: {
      create: toolConnectionCreate,
      update: toolConnectionUpdate,
      testBody: toolConnectionTestBody,
      testResult: toolConnectionTestResult,
      view: toolConnection,
    },
    testSummary: 'Test an MCP server: the tools it lists, or exactly what failed',
    serverOwned: (id) => id.startsWith(OPERATOR_PREFIX),
    test: (body, apiKey) =>
      testToolServer(ctx, userToolServer(ctx, testedTarget('mcp', body, apiKey, `test-${Date.now()}`), body.transport)),
    toInput: (body) => ({
      kind: body.kind,
      name: body.name,
      base_url: body.base_url,
      transport: body.transport,
      api_key: body.api_key || null,
    }),
    toPatch: (body) => ({ ...body }),
    view: (userId, id) => toolConnectionView(ctx, userId, id),
    forget: (id) => forgetToolList(ctx, id),
  });

  app.get(
    '/tools',
    {
      schema: {
        tags,
        summary: 'Every tool you can give an agent: the built-ins, then each tool server’s (ids "<server>/<tool>")',
        description:
          "A server that could not be listed carries `error`; the operator's servers (MCP_SERVERS_FILE) are listed too.",
        response: { 200: toolCatalog },
      },
    },
    async (req) => toolCatalog.parse(await toolCatalogOf(ctx, req.userId)),
  );
}
