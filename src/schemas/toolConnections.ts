import { z } from 'zod';
// First, so zod is configured (no run-time code in a browser) before these schemas are built.
import './common';
import * as shared from './connectionKinds';
import { toolInfo } from './tools';

// Tool servers (docs/tools.md): the REST surface under /tool-connections (one more use of the connections module)
// and GET /tools, every tool an agent may be given. Shared by the SPA and the server.

export const toolConnectionKind = shared.kindsOf('tools');
export type ToolConnectionKind = z.infer<typeof toolConnectionKind>;
export const userToolKind = shared.userKindsOf('tools');
export type UserToolKind = z.infer<typeof userToolKind>;

/** How the MCP client reaches the server: Streamable HTTP (current), or the older HTTP+SSE; 'auto' tries both. */
export const MCP_TRANSPORTS = ['auto', 'streamable_http', 'sse'] as const;
export const mcpTransport = z.enum(MCP_TRANSPORTS);

export const toolConnectionCreate = z.object({
  kind: userToolKind,
  name: shared.connectionName,
  base_url: shared.httpUrl,
  api_key: shared.apiKey.nullish(),
  transport: mcpTransport.default('auto'),
});
export type ToolConnectionCreate = z.infer<typeof toolConnectionCreate>;
export const toolConnectionUpdate = toolConnectionCreate.partial().omit({ kind: true });
export type ToolConnectionUpdate = z.infer<typeof toolConnectionUpdate>;
export const toolConnectionTestBody = shared.connectionTestBodyOf(userToolKind).extend({
  transport: mcpTransport.default('auto'),
});
export type ToolConnectionTestBody = z.infer<typeof toolConnectionTestBody>;

/** What Test found: the server's tools ('lists 4 tools'). */
export const toolConnectionTestResult = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), tools: z.array(toolInfo), summary: z.string() }),
  shared.connectionTestFailure,
]);
export type ToolConnectionTestResult = z.infer<typeof toolConnectionTestResult>;

/** A tool server as any client sees it: never the key, only its hint. */
export const toolConnection = z.object({
  id: z.string(),
  kind: toolConnectionKind,
  name: z.string(),
  base_url: z.string(),
  transport: mcpTransport,
  api_key_hint: z.string().nullable(),
  read_only: z.boolean(),
  status: shared.connectionState,
  tools: z.array(toolInfo),
});
export type ToolConnection = z.infer<typeof toolConnection>;
export const toolConnectionList = z.object({ connections: z.array(toolConnection) });

/**
 * GET /tools: every tool the signed-in user can give an agent, by server ('builtin' first, then each tool server
 * and each server of the operator's MCP_SERVERS_FILE); a server that could not be listed carries `error`.
 */
export const toolCatalog = z.object({
  servers: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      kind: toolConnectionKind,
      tools: z.array(toolInfo.extend({ id: z.string() })),
      error: z.string().optional(),
    }),
  ),
});
export type ToolCatalog = z.infer<typeof toolCatalog>;
