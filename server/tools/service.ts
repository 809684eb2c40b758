import { BUILTIN_TOOL_SERVER, splitToolId, toolIdOf } from '../../src/schemas/tools';
import type { ToolCatalog, ToolConnection, ToolConnectionTestResult } from '../../src/schemas/toolConnections';
import type { AppContext } from '../context';
import { connectionStatus } from '../connections/status';
import { serverOwnedTarget, userTarget, type ConnectionTarget } from '../connections/target';
import { checkUrl } from '../models/addressRule';
import { secretBox, userFetch } from '../models/service';
import { type BuiltinEnv, builtinTools, readyBuiltins } from './builtin';
import { callMcpTool, type ListedTool, type McpLimits, type McpTarget } from './mcp/client';
import { SERVER_KINDS } from '../connections/kinds';
import type { OperatorServer } from './mcp/operatorServers';
import { type ToolRow, toolConnectionStore } from './store';
import type { OfferedTool, ReadyTool } from './types';

// A user's tools put together (docs/tools.md): the built-ins, each of the user's MCP servers and each of the
// operator's, listed (briefly cached) and made ready to call. A user's server goes through the address rule before
// every session; the operator's are trusted as the environment is.

/** A listing or a Test stays quick even when a server is down. */
export const TOOL_LIST_TIMEOUT_MS = 5_000;
const LIST_TTL_MS = 30_000;

/**
 * An MCP server a user may use: one of theirs (checked by the address rule before every session), or one of the
 * operator's (read-only; its `baseUrl` is its address or command line, shown to the operator only).
 */
export interface ToolServer extends ConnectionTarget<'mcp'> {
  /** How the MCP client reaches it, the key inside (never sent to any client). */
  mcp: McpTarget;
}

export const mcpLimitsOf = (ctx: AppContext): McpLimits => ({
  responseMaxBytes: ctx.config.tools.responseMaxBytes,
  maxTools: ctx.config.tools.maxToolsPerServer,
  toolListMaxBytes: ctx.config.tools.toolListMaxBytes,
});

export const operatorServer = (s: OperatorServer): ToolServer => {
  const http = s.kind === 'http';
  const target = serverOwnedTarget(
    {
      id: s.id,
      kind: 'mcp' as const,
      name: s.name,
      baseUrl: http ? s.url : [s.command, ...s.args].join(' '),
      apiKey: http ? s.apiKey : null,
    },
    'operator',
  );
  return {
    ...target,
    mcp: http
      ? { kind: 'http', url: s.url, apiKey: s.apiKey, transport: s.transport }
      : { kind: 'stdio', command: s.command, args: s.args, env: s.env, cwd: s.cwd },
  };
};

/** A user's server, saved or being tested: every call goes through the address rule's fetch. */
export const userToolServer = (
  ctx: AppContext,
  t: ConnectionTarget<'mcp'>,
  transport: ToolRow['transport'],
): ToolServer => ({
  ...t,
  mcp: { kind: 'http' as const, url: t.baseUrl, apiKey: t.apiKey, transport, fetch: userFetch(ctx) },
});

export async function rowServer(ctx: AppContext, row: ToolRow): Promise<ToolServer> {
  return userToolServer(ctx, userTarget(await secretBox(ctx), toolConnectionStore, row), row.transport);
}

/** The user's servers and the operator's, in the catalog's order (the operator's after the user's). */
export async function toolServersOf(ctx: AppContext, userId: string): Promise<ToolServer[]> {
  const rows = await toolConnectionStore.list(ctx.db, userId);
  return [...(await Promise.all(rows.map((r) => rowServer(ctx, r)))), ...ctx.tools.operator.map(operatorServer)];
}

async function refuseBlocked(ctx: AppContext, s: ToolServer): Promise<string | null> {
  if (s.readOnly) return null;
  const verdict = await checkUrl(s.baseUrl, ctx.config.modelConnectionsAllowPrivate);
  return verdict.ok ? null : `This address may not be used: ${verdict.detail}`;
}

/** A server's tools (cached LIST_TTL_MS per version), or why they could not be listed. */
export async function toolsOfServer(
  ctx: AppContext,
  s: ToolServer,
  fresh = false,
): Promise<{ tools: ListedTool[]; error?: string }> {
  const known = ctx.tools.lists.get(s.id);
  if (!fresh && known && known.version === s.version && Date.now() - known.at < LIST_TTL_MS)
    return { tools: known.tools ?? [], ...(known.error ? { error: known.error } : {}) };
  let out: { tools: ListedTool[]; error?: string };
  const blocked = await refuseBlocked(ctx, s);
  if (blocked) out = { tools: [], error: blocked };
  else {
    try {
      const signal = AbortSignal.timeout(TOOL_LIST_TIMEOUT_MS);
      out = { tools: await SERVER_KINDS.tools.mcp.list(s.mcp, mcpLimitsOf(ctx), signal, TOOL_LIST_TIMEOUT_MS) };
    } catch (e) {
      out = { tools: [], error: (e as Error).message };
    }
  }
  ctx.tools.lists.set(s.id, {
    version: s.version,
    at: Date.now(),
    tools: out.tools,
    ...(out.error ? { error: out.error } : {}),
  });
  return out;
}

export const forgetToolList = (ctx: AppContext, id: string) => ctx.tools.lists.delete(id);

const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;

/** A connection's Test: the tools its server lists, or exactly why it cannot be asked. */
export async function testToolServer(ctx: AppContext, s: ToolServer): Promise<ToolConnectionTestResult> {
  const blocked = await refuseBlocked(ctx, s);
  if (blocked) return { ok: false, reason: 'blocked', detail: blocked };
  const { tools, error } = await toolsOfServer(ctx, s, true);
  if (error) {
    const reason = /401|403|unauthori[sz]ed|forbidden/i.test(error)
      ? 'key_rejected'
      : /ECONNREFUSED|refused/i.test(error)
        ? 'refused'
        : /timed? ?out|timeout/i.test(error)
          ? 'timeout'
          : /ENOTFOUND|EAI_AGAIN/i.test(error)
            ? 'dns'
            : 'not_compatible';
    return { ok: false, reason, detail: error };
  }
  return {
    ok: true,
    tools: tools.map((t) => ({ name: t.name, description: t.description })),
    summary: `lists ${plural(tools.length, 'tool')}`,
  };
}

/** A stored connection as any client sees it (never its key), with the tools last listed. */
export async function toolConnectionView(ctx: AppContext, userId: string, id: string): Promise<ToolConnection> {
  const row = await toolConnectionStore.owned(ctx.db, userId, id);
  const s = await rowServer(ctx, row);
  const { tools, error } = await toolsOfServer(ctx, s);
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    base_url: row.base_url,
    transport: row.transport,
    api_key_hint: row.api_key_hint,
    read_only: false,
    status: error
      ? connectionStatus({ ok: false, reason: 'unreachable', detail: error }, false)
      : { state: 'reachable' },
    tools: tools.map((t) => ({ name: t.name, description: t.description })),
  };
}

/**
 * The tool servers a user uses but does not own, as GET /tool-connections lists them (read-only): the built-in
 * tools, then each of the operator's MCP_SERVERS_FILE servers. An operator's address (or command) is shown to the
 * operator only; everyone else sees its name and tools.
 */
export async function serverOwnedToolConnections(ctx: AppContext, operator: boolean): Promise<ToolConnection[]> {
  const servers = ctx.tools.operator.map(operatorServer);
  const listed = await Promise.all(servers.map((s) => toolsOfServer(ctx, s)));
  return [
    {
      id: BUILTIN_TOOL_SERVER,
      kind: 'builtin',
      name: 'Built-in tools',
      base_url: '',
      transport: 'auto',
      api_key_hint: null,
      read_only: true,
      status: { state: 'reachable' },
      tools: builtinTools.map((t) => ({ name: t.name, description: t.description })),
    },
    ...servers.map((s, i): ToolConnection => {
      const { tools, error } = listed[i];
      const { transport } = s.mcp.kind === 'http' ? s.mcp : { transport: 'auto' as const };
      return {
        id: s.id,
        kind: s.kind,
        name: s.name,
        base_url: operator ? s.baseUrl : '',
        transport,
        api_key_hint: null,
        read_only: true,
        status: error
          ? connectionStatus({ ok: false, reason: 'unreachable', detail: error }, false)
          : { state: 'reachable' },
        tools: tools.map((t) => ({ name: t.name, description: t.description })),
      };
    }),
  ];
}

/** GET /tools: the built-ins first, then each server's tools (a server that could not be listed says why). */
export async function toolCatalogOf(ctx: AppContext, userId: string): Promise<ToolCatalog> {
  const servers = await toolServersOf(ctx, userId);
  const listed = await Promise.all(servers.map((s) => toolsOfServer(ctx, s)));
  return {
    servers: [
      {
        id: BUILTIN_TOOL_SERVER,
        name: 'Built-in tools',
        kind: 'builtin',
        tools: builtinTools.map((t) => ({ id: t.id, name: t.name, description: t.description })),
      },
      ...servers.map((s, i) => ({
        id: s.id,
        name: s.name,
        kind: s.kind,
        tools: listed[i].tools.map((t) => ({ id: toolIdOf(s.id, t.name), name: t.name, description: t.description })),
        ...(listed[i].error ? { error: listed[i].error } : {}),
      })),
    ],
  };
}

/** The ids among `ids` that name no tool of the user's catalog (a PATCH of an agent refuses them). */
export async function unknownToolIds(ctx: AppContext, userId: string, ids: readonly string[]): Promise<string[]> {
  if (!ids.length) return [];
  const catalog = await toolCatalogOf(ctx, userId);
  const known = new Set(catalog.servers.flatMap((s) => s.tools.map((t) => t.id)));
  // A server that could not be listed just now keeps the ids already given for it (it may be down for a minute).
  const down = new Set(catalog.servers.filter((s) => s.error).map((s) => s.id));
  return ids.filter((id) => !known.has(id) && !down.has(splitToolId(id).server));
}

/**
 * The agent's tools, ready to call in one turn: only the ids it was given that its servers still list (a tool the
 * agent does not have is never offered). A user's server is checked by the address rule before each call.
 */
export async function readyToolsFor(
  ctx: AppContext,
  userId: string,
  ids: readonly string[],
  env: Omit<BuiltinEnv, 'ctx' | 'userId'>,
): Promise<ReadyTool[]> {
  if (!ids.length) return [];
  const wanted = new Set(ids);
  const out: ReadyTool[] = readyBuiltins({ ctx, userId, ...env }).filter((t) => wanted.has(t.id));
  const servers = (await toolServersOf(ctx, userId)).filter((s) => ids.some((id) => splitToolId(id).server === s.id));
  for (const s of servers) {
    const { tools } = await toolsOfServer(ctx, s);
    for (const t of tools) {
      const id = toolIdOf(s.id, t.name);
      if (!wanted.has(id)) continue;
      const offered: OfferedTool = {
        id,
        server: s.id,
        name: t.name,
        description: t.description,
        inputSchema: t.inputSchema,
      };
      out.push({
        ...offered,
        run: async (args, signal) => {
          const blocked = await refuseBlocked(ctx, s);
          if (blocked) return { content: blocked, isError: true };
          return callMcpTool(s.mcp, mcpLimitsOf(ctx), t.name, args, signal, ctx.config.tools.callTimeoutMs);
        },
      });
    }
  }
  return out;
}
