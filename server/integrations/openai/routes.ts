import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../http/errors';
import type { ZodTypeProvider } from '../../http/routeSchema';
import { requireApiToken } from '../apiTokenGuard';
import { listPanels } from '../panelStore';
import { openAiError, refuseOpenAi } from './errors';
import { modelList, PANEL_MODEL_PREFIX } from '../../../src/schemas/openaiCompat';
import { perUserLimit } from '../../http/userRateLimit';

// The OpenAI-compatible surface (/v1, docs/integrations.md): a person's saved panels are models `panel:<name>` to
// any OpenAI-compatible client, authorised by an API token. Errors, the token's included, come in OpenAI's shape.

export async function openAiRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  app.addHook('onRequest', requireApiToken(ctx, refuseOpenAi));
  // This scope's errors in OpenAI's shape, whatever threw them (a schema, a store's HttpError).
  app.setErrorHandler((err, _req, reply) => {
    const e = err as Error & { statusCode?: number };
    const status = err instanceof HttpError ? err.status : (e.statusCode ?? 500);
    const message = status >= 500 ? 'The server failed to answer' : e.message;
    return reply.status(status).send(openAiError(status, message));
  });

  // One person's API tokens share one budget of calls a minute, whatever client they are in.
  const limited = perUserLimit(app, ctx.config.integrations.apiTokenRateLimit, 'API calls');

  app.get(
    '/v1/models',
    {
      ...limited,
      schema: {
        tags: ['OpenAI-compatible'],
        summary: "Your saved panels as models 'panel:<name>'",
        security: [{ apiToken: [] }],
        response: { 200: modelList },
      },
    },
    async (req) => ({
      object: 'list' as const,
      data: (await listPanels(ctx.db, req.userId)).map((p) => ({
        id: `${PANEL_MODEL_PREFIX}${p.name}`,
        object: 'model' as const,
        created: Math.floor(Date.parse(p.created_at) / 1000),
        owned_by: 'agora',
      })),
    }),
  );
}
