import { randomUUID } from 'node:crypto';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { perUserLimit } from '../../http/userRateLimit';
import { requireApiToken } from '../apiTokenGuard';
import { closeIdle, closeSession, makeRoom, mcpSessions, type McpSession } from './sessions';

/**
 * The SDK's server side and our tools on it, loaded with the first /mcp request: evaluating the SDK's modules builds
 * a few hundred zod schemas, which every server start paid for before it listened (npm run bench server).
 */
let runtime: Promise<McpRuntime> | undefined;
type McpRuntime = Awaited<ReturnType<typeof importRuntime>>;
const importRuntime = async () => {
  const [transport, types, tools] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('./tools'),
  ]);
  return {
    StreamableHTTPServerTransport: transport.StreamableHTTPServerTransport,
    isInitializeRequest: types.isInitializeRequest,
    mcpServerFor: tools.mcpServerFor,
  };
};
const loadRuntime = () => (runtime ??= importRuntime());

// /mcp: the MCP server over Streamable HTTP (the official SDK's transport, one per session), authorised by an API
// token on every request (docs/integrations.md#mcp-server). A session is opened by `initialize` and bound to its
// token; a request naming a session of another token is answered as if the session did not exist.

const rpcError = (reply: FastifyReply, status: number, message: string) =>
  reply.status(status).send({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });

const SESSION_HEADER = 'mcp-session-id';

/** What the transport answers: a JSON-RPC message, or (text/event-stream) a stream of them. */
const jsonRpcAnswer = z
  .looseObject({ jsonrpc: z.literal('2.0') })
  .describe('A JSON-RPC 2.0 message, or a text/event-stream of them (the MCP Streamable HTTP transport)');

export async function mcpRoutes(fastify: FastifyInstance) {
  const app = fastify;
  const { ctx } = app;
  app.addHook('onRequest', requireApiToken(ctx));
  const limited = perUserLimit(app, ctx.config.integrations.apiTokenRateLimit, 'API calls');
  const sweep = setInterval(() => void closeIdle(ctx), 60_000);
  sweep.unref();
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    await Promise.all([...mcpSessions(ctx).values()].map((s) => closeSession(ctx, s)));
  });

  /** The request's own session (its token's), or null after answering 404 / 400. */
  const sessionOf = (req: FastifyRequest, reply: FastifyReply): McpSession | null => {
    const id = req.headers[SESSION_HEADER];
    if (typeof id !== 'string') return (rpcError(reply, 400, 'No mcp-session-id: initialize a session first'), null);
    const s = mcpSessions(ctx).get(id);
    if (!s || s.tokenId !== req.apiToken?.tokenId) return (rpcError(reply, 404, 'Session not found'), null);
    s.lastActive = Date.now();
    return s;
  };

  const docs = (summary: string) => ({
    tags: ['MCP'],
    summary,
    description:
      'The Model Context Protocol over Streamable HTTP (JSON-RPC). Tools: list_panels, ask_panel, get_discussion; resource agora://discussions/{id}. Send `Authorization: Bearer agora_…`.',
    security: [{ apiToken: [] }],
    response: { 200: jsonRpcAnswer },
    errors: { 400: 'No session, or not an initialize request', 404: 'Session not found (ended, or another token’s)' },
  });

  app.post('/mcp', { ...limited, schema: docs('MCP requests (initialize opens a session)') }, async (req, reply) => {
    const holder = req.apiToken!;
    if (req.headers[SESSION_HEADER] === undefined) {
      const { StreamableHTTPServerTransport, isInitializeRequest, mcpServerFor } = await loadRuntime();
      if (!isInitializeRequest(req.body)) return rpcError(reply, 400, 'Initialize a session first');
      await makeRoom(ctx, holder.userId);
      const server = mcpServerFor(ctx, holder, req.log);
      let session: McpSession | null = null;
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          session = { id, tokenId: holder.tokenId, userId: holder.userId, server, transport, lastActive: Date.now() };
          mcpSessions(ctx).set(id, session);
        },
      });
      transport.onclose = () => {
        if (session && mcpSessions(ctx).get(session.id) === session) mcpSessions(ctx).delete(session.id);
      };
      await server.connect(transport);
      reply.hijack();
      await transport.handleRequest(req.raw, reply.raw, req.body);
      return;
    }
    const s = sessionOf(req, reply);
    if (!s) return;
    reply.hijack();
    await s.transport.handleRequest(req.raw, reply.raw, req.body);
  });

  // The session's stream of server messages, and its end.
  for (const method of ['GET', 'DELETE'] as const)
    app.route({
      method,
      url: '/mcp',
      ...limited,
      schema: docs(method === 'GET' ? 'The session’s stream of server messages' : 'End the session'),
      handler: async (req, reply) => {
        const s = sessionOf(req, reply);
        if (!s) return;
        reply.hijack();
        await s.transport.handleRequest(req.raw, reply.raw);
      },
    });
}
