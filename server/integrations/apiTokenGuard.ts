import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiTokenScope } from '../../src/schemas/apiTokens';
import type { AppContext } from '../context';
import { holderOf, looksLikeApiToken, type TokenHolder } from './apiTokenStore';

// Who calls from another client: an API token (`Authorization: Bearer agora_…`) and its scopes. API tokens open only
// the surfaces for other clients (/mcp, /v1); the app's own routes take the session token only, so a leaked API
// token cannot make more tokens, read keys or change agents.

declare module 'fastify' {
  interface FastifyRequest {
    apiToken?: TokenHolder;
  }
}

export const INVALID_API_TOKEN = 'This API token is not valid (unknown, revoked or expired)';
export const missingScope = (scope: ApiTokenScope) => `This API token lacks the '${scope}' scope`;

const presented = (req: FastifyRequest) => {
  const h = req.headers.authorization;
  return h && /^bearer /i.test(h) ? h.slice(7).trim() : null;
};

/** The request's API token holder, or null (no token, not an API token, unknown, revoked or expired). */
export async function apiTokenHolder(ctx: AppContext, req: FastifyRequest): Promise<TokenHolder | null> {
  const token = presented(req);
  if (!token || !looksLikeApiToken(token) || token.length > 200) return null;
  return holderOf(ctx.db, token);
}

/**
 * onRequest hook for a surface other clients call: a valid API token, with `scope` where given; the request then
 * runs as the token's user (`req.userId`) and its holder is `req.apiToken`. `refuse` words the 401/403 in the
 * surface's own error shape (OpenAI's for /v1).
 */
export function requireApiToken(
  ctx: AppContext,
  refuse: (reply: FastifyReply, status: 401 | 403, message: string) => FastifyReply = (reply, status, message) =>
    reply.status(status).send({ detail: message }),
) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const holder = await apiTokenHolder(ctx, req);
    if (!holder) return refuse(reply.header('www-authenticate', 'Bearer'), 401, INVALID_API_TOKEN);
    req.userId = holder.userId;
    req.apiToken = holder;
  };
}

/** Whether the request's token carries the scope (routes and MCP tools check it before acting). */
export const hasScope = (req: FastifyRequest, scope: ApiTokenScope) => !!req.apiToken?.scopes.includes(scope);
