import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

// A loopback MCP server built with the SDK (McpServer over Streamable HTTP, stateless: a transport per request), for
// the tools tests. Its tools: `lookup_code` answers a value only it knows; `hang` never answers until it is
// cancelled; `huge` answers 10 MB. Every call it hears is kept, with its arguments; with `apiKey`, a request without
// the bearer is refused.

export const SECRET = 'ZEBRA-4471-only-the-mcp-server-knows';

export interface FakeMcp {
  url: string;
  calls: Array<{ name: string; args: Record<string, unknown> }>;
  /** Calls cancelled by the client (Stop, a time limit). */
  cancelled: string[];
  close(): Promise<void>;
}

export async function startFakeMcp(opts: { apiKey?: string } = {}): Promise<FakeMcp> {
  const calls: FakeMcp['calls'] = [];
  const cancelled: string[] = [];
  const make = () => {
    const mcp = new McpServer({ name: 'fake', version: '1.0.0' });
    mcp.registerTool(
      'lookup_code',
      { description: 'Looks up the code for a name.', inputSchema: { name: z.string() } },
      async (args) => {
        calls.push({ name: 'lookup_code', args });
        return { content: [{ type: 'text', text: `The code for ${args.name} is ${SECRET}.` }] };
      },
    );
    mcp.registerTool('hang', { description: 'Never answers.', inputSchema: {} }, async (args, extra) => {
      calls.push({ name: 'hang', args });
      await new Promise<void>((resolve) =>
        extra.signal.addEventListener('abort', () => {
          cancelled.push('hang');
          resolve();
        }),
      );
      return { content: [{ type: 'text', text: 'too late' }] };
    });
    mcp.registerTool('huge', { description: 'Answers ten megabytes.', inputSchema: {} }, async (args) => {
      calls.push({ name: 'huge', args });
      return { content: [{ type: 'text', text: 'x'.repeat(10 * 1024 * 1024) }] };
    });
    return mcp;
  };
  const server: Server = createServer(async (req, res) => {
    if (opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      return;
    }
    const mcp = make();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    cancelled,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
