import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AppContext } from '../../context';

// The open MCP sessions of this process, each bound to the API token that opened it: a request of the session must
// carry that token, and revoking the token closes its sessions at once (their calls in flight are cancelled, so a
// running ask_panel stops its discussion).

export interface McpSession {
  id: string;
  tokenId: string;
  userId: string;
  server: McpServer;
  transport: StreamableHTTPServerTransport;
  lastActive: number;
}

/** At most this many MCP sessions one person keeps open at once (the oldest idle one is closed for a new one). */
export const MCP_SESSIONS_PER_USER = 10;
/** A session nobody used for this long is closed. */
export const MCP_SESSION_IDLE_MS = 30 * 60_000;

const registries = new WeakMap<AppContext, Map<string, McpSession>>();

export function mcpSessions(ctx: AppContext): Map<string, McpSession> {
  let m = registries.get(ctx);
  if (!m) registries.set(ctx, (m = new Map()));
  return m;
}

export async function closeSession(ctx: AppContext, s: McpSession) {
  mcpSessions(ctx).delete(s.id);
  await s.transport.close().catch(() => undefined);
  await s.server.close().catch(() => undefined);
}

/** The token was revoked: every session it opened ends now. */
export async function closeSessionsOfToken(ctx: AppContext, tokenId: string) {
  await Promise.all(
    [...mcpSessions(ctx).values()].filter((s) => s.tokenId === tokenId).map((s) => closeSession(ctx, s)),
  );
}

/** Room for one more session of the person: the least recently used beyond the cap is closed. */
export async function makeRoom(ctx: AppContext, userId: string) {
  const own = [...mcpSessions(ctx).values()]
    .filter((s) => s.userId === userId)
    .sort((a, b) => a.lastActive - b.lastActive);
  for (const s of own.slice(0, Math.max(0, own.length - MCP_SESSIONS_PER_USER + 1))) await closeSession(ctx, s);
}

export async function closeIdle(ctx: AppContext, now = Date.now()) {
  for (const s of mcpSessions(ctx).values()) if (now - s.lastActive > MCP_SESSION_IDLE_MS) await closeSession(ctx, s);
}
