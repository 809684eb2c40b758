import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../http/errors';
import type { ZodTypeProvider } from '../../http/routeSchema';
import { requireApiToken } from '../apiTokenGuard';
import { listPanels } from '../panelStore';
import { OpenAiRefusal, openAiError, refuseOpenAi } from './errors';
import { chatCompletions } from './chatCompletions';
import {
  chatCompletion,
  chatCompletionRequest,
  modelList,
  PANEL_MODEL_PREFIX,
} from '../../../src/schemas/openaiCompat';
import { perUserLimit } from '../../http/userRateLimit';

// The OpenAI-compatible surface (/v1, docs/integrations.md): a person's saved panels are models `panel:<name>` to
// any OpenAI-compatible client, authorised by an API token. Errors, the token's included, come in OpenAI's shape.

export async function openAiRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  app.addHook('onRequest', requireApiToken(ctx, refuseOpenAi));
  // This scope's errors in OpenAI's shape, whatever threw them (a schema, a store's HttpError).
  app.setErrorHandler((err, req, reply) => {
    const e = err as Error & { statusCode?: number };
    const given = err instanceof HttpError ? err.status : (e.statusCode ?? 500);
    // OpenAI answers every malformed request 400 (the shared schemas' 422 included).
    const status = given === 422 ? 400 : given;
    if (status >= 500) req.log.error({ err }, 'an OpenAI-compatible call failed');
    const message = status >= 500 ? 'The server failed to answer' : e.message;
    const code = err instanceof OpenAiRefusal ? err.code : status === 429 ? 'rate_limit_exceeded' : null;
    return reply.status(status).send(openAiError(status, message, code));
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

  app.post(
    '/v1/chat/completions',
    {
      ...limited,
      schema: {
        tags: ['OpenAI-compatible'],
        summary: "Ask a saved panel ('panel:<name>'): its discussion's final answer, whole or streamed as chunks",
        description:
          "The last user message is the question, the messages before it its context. The discussion is an ordinary one (History, marked via API). `stream: true` answers in OpenAI's chunk format, ending with a `usage` chunk when `stream_options.include_usage` is set; `include_turns: true` adds each turn as `reasoning_content`. Needs the `run` scope.",
        security: [{ apiToken: [] }],
        body: chatCompletionRequest,
        response: { 200: chatCompletion },
        errors: {
          400: 'Malformed request: no user message, a message too long, bad JSON',
          403: "The API token lacks the 'run' scope",
          404: 'No such model (panel)',
          429: 'Too many calls a minute (API_TOKEN_RATE_LIMIT), too many discussions running, or the day’s token budget (USER_DAILY_TOKENS) is spent',
        },
      },
    },
    chatCompletions(ctx),
  );
}
