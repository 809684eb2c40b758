import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { apiTokenCreate, apiTokenCreated, apiTokenList } from '../../src/schemas/apiTokens';
import { deletedResponse, idText } from '../../src/schemas/common';
import { panel, panelCreate, panelList, panelUpdate } from '../../src/schemas/panels';
import { requireUser } from '../auth/guard';
import type { ZodTypeProvider } from '../http/routeSchema';
import { perUserLimit } from '../http/userRateLimit';
import { API_TOKEN_NOT_FOUND, createToken, listTokens, revokeToken } from './apiTokenStore';
import { closeSessionsOfToken } from './mcp/sessions';
import { createPanel, deletePanel, listPanels, ownedPanel, PANEL_NOT_FOUND, updatePanel } from './panelStore';

// Saved panels (/panels) and API tokens (/api-tokens), managed from the app with the session token: an API token
// cannot make another (docs/integrations.md).

const idParams = z.object({ id: idText() });

export async function integrationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const cfg = ctx.config.integrations;
  app.addHook('onRequest', requireUser(ctx));
  const panelTags = ['Panels'];
  const tokenTags = ['API tokens'];
  const saveLimited = perUserLimit(app, 60, 'panel or token changes');

  app.get(
    '/panels',
    { schema: { tags: panelTags, summary: 'Your saved panels', response: { 200: panelList } } },
    (req) => listPanels(ctx.db, req.userId),
  );
  app.post(
    '/panels',
    {
      ...saveLimited,
      schema: {
        tags: panelTags,
        summary: 'Save a panel: a named selection of your agents with its format and settings',
        body: panelCreate,
        response: { 201: panel },
        errors: {
          409: 'A panel of that name exists, or too many panels (PANELS_PER_USER)',
          422: 'An agent is not yours',
        },
      },
    },
    async (req, reply) => {
      const created = await createPanel(ctx.db, req.userId, req.body, cfg.panelsPerUser);
      reply.status(201);
      return created;
    },
  );
  app.get(
    '/panels/:id',
    {
      schema: {
        tags: panelTags,
        summary: 'One saved panel',
        params: idParams,
        response: { 200: panel },
        errors: { 404: PANEL_NOT_FOUND },
      },
    },
    (req) => ownedPanel(ctx.db, req.userId, req.params.id),
  );
  app.patch(
    '/panels/:id',
    {
      ...saveLimited,
      schema: {
        tags: panelTags,
        summary: 'Rename a panel or change its agents, format or settings',
        params: idParams,
        body: panelUpdate,
        response: { 200: panel },
        errors: { 404: PANEL_NOT_FOUND, 409: 'A panel of that name exists', 422: 'An agent is not yours' },
      },
    },
    (req) => updatePanel(ctx.db, req.userId, req.params.id, req.body),
  );
  app.delete(
    '/panels/:id',
    {
      schema: {
        tags: panelTags,
        summary: 'Delete a saved panel (its discussions stay in History)',
        params: idParams,
        response: { 200: deletedResponse },
        errors: { 404: PANEL_NOT_FOUND },
      },
    },
    async (req) => {
      await deletePanel(ctx.db, req.userId, req.params.id);
      return { success: true, id: req.params.id };
    },
  );

  app.get(
    '/api-tokens',
    {
      schema: {
        tags: tokenTags,
        summary: 'Your API tokens, newest first, with their last use (never the tokens themselves)',
        response: { 200: apiTokenList },
      },
    },
    (req) => listTokens(ctx.db, req.userId),
  );
  app.post(
    '/api-tokens',
    {
      ...saveLimited,
      schema: {
        tags: tokenTags,
        summary: 'Create an API token (the answer is the only time the token is shown)',
        description:
          'Other clients send it as `Authorization: Bearer agora_…` to /mcp and /v1. Scopes: `read` (list panels, read discussions) and `run` (ask a panel).',
        body: apiTokenCreate,
        response: { 201: apiTokenCreated },
        errors: { 409: 'Too many API tokens (API_TOKENS_PER_USER)' },
      },
    },
    async (req, reply) => {
      const created = await createToken(ctx.db, req.userId, req.body, cfg.apiTokensPerUser);
      // The token is in this answer only: no cache may keep it.
      reply.status(201).header('cache-control', 'no-store');
      return created;
    },
  );
  app.delete(
    '/api-tokens/:id',
    {
      schema: {
        tags: tokenTags,
        summary: 'Revoke an API token: refused at once, by every process',
        params: idParams,
        response: { 200: deletedResponse },
        errors: { 404: API_TOKEN_NOT_FOUND },
      },
    },
    async (req) => {
      await revokeToken(ctx.db, req.userId, req.params.id);
      // Its MCP sessions end now, their calls in flight cancelled (other processes refuse its next request).
      await closeSessionsOfToken(ctx, req.params.id);
      return { success: true, id: req.params.id };
    },
  );
}
