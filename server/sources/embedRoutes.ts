import type { FastifyInstance } from 'fastify';
import { embeddingChoice, embeddingSettings, type EmbeddingSettings } from '../../src/schemas/sources';
import type { AppContext } from '../context';
import { requireUser } from '../auth/guard';
import { HttpError } from '../http/errors';
import type { ZodTypeProvider } from '../http/routeSchema';
import { perUserLimit } from '../http/userRateLimit';
import { listConnections } from '../models/service';
import { embedEndpointOf, embedMarkedSources, startEmbedder, stopEmbedder, stopUserJobs, vectorsHere } from './embed';
import { EmbedError, embedTexts } from './embedClient';
import { embeddingSetting, setEmbeddingSetting } from './embedStore';

// /sources/embedding: the one model a person's passages are embedded with, chosen by them and shown on every source
// ('searched by words and meaning' or 'by words'). Nothing is embedded until a model is chosen: a fresh machine
// searches by words. Choosing one embeds a test sentence first, so a model that cannot embed is refused at once.
// This plugin also starts and stops the background embedding (embed.ts).

/** Names that say a model embeds text (Ollama's and OpenAI's embedding models, and the usual open ones). */
const EMBEDDING_NAME = /embed|bge|(^|[-_/])e5([-_.]|$)|gte|minilm|mpnet|arctic|jina|nomic|retriev/i;
const PROBE_SENTENCE = 'Agora checks that this model turns text into a vector.';

async function settingsOf(ctx: AppContext, userId: string): Promise<EmbeddingSettings> {
  const setting = await embeddingSetting(ctx.db, userId);
  const connections = await listConnections(ctx, userId);
  const candidates = connections
    .filter((c) => c.kind === 'ollama' || c.kind === 'openai')
    .flatMap((c) => c.models.filter((m) => EMBEDDING_NAME.test(m.name)).map((m) => ({ id: m.id, label: m.label })));
  const label = setting
    ? await embedEndpointOf(ctx, userId, setting.model).then(
        (e) => e.label,
        () => setting.model,
      )
    : null;
  return {
    model: setting?.model ?? null,
    label,
    dimensions: setting?.dimensions ?? null,
    available: vectorsHere(ctx.db),
    candidates,
  };
}

export async function embeddingRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const cfg = ctx.config.sources;
  await startEmbedder(ctx, app.log);
  app.addHook('onClose', () => stopEmbedder(ctx));
  app.addHook('onRequest', requireUser(ctx));
  const tags = ['Sources'];

  app.get(
    '/sources/embedding',
    {
      schema: {
        tags,
        summary: 'The model your sources are embedded with (searched by meaning as well as words), if any',
        response: { 200: embeddingSettings },
      },
    },
    (req) => settingsOf(ctx, req.userId),
  );

  app.put(
    '/sources/embedding',
    {
      ...perUserLimit(app, 10, 'embedding model changes'),
      schema: {
        tags,
        summary: 'Choose the model your sources are embedded with, or none (searched by words only)',
        description:
          'A model id of one of your Ollama or OpenAI-compatible connections. A test sentence is embedded first; then every source is embedded again in the background and says so (`embedding`, `searched_by`).',
        body: embeddingChoice,
        response: { 200: embeddingSettings },
        errors: {
          409: 'This server keeps no vectors (its PostgreSQL has no pgvector)',
          422: 'The model is not one of your connections, or it could not embed the test sentence',
        },
      },
    },
    async (req) => {
      const { model } = req.body;
      if (model === null) {
        await stopUserJobs(ctx.db, req.userId);
        await setEmbeddingSetting(ctx.db, req.userId, null, vectorsHere(ctx.db));
        return settingsOf(ctx, req.userId);
      }
      if (!vectorsHere(ctx.db))
        throw new HttpError(
          409,
          "This server's PostgreSQL has no pgvector extension, so sources are searched by words only (install pgvector there and restart).",
        );
      let dimensions: number;
      try {
        const { endpoint, model: name } = await embedEndpointOf(ctx, req.userId, model);
        const [vector] = await embedTexts(endpoint, name, [PROBE_SENTENCE], {
          timeoutMs: cfg.embedTimeoutMs,
          maxBytes: cfg.embedMaxResponseBytes,
        });
        dimensions = vector.length;
      } catch (e) {
        if (e instanceof EmbedError) throw new HttpError(422, `This model cannot embed text: ${e.message}.`);
        throw e;
      }
      await stopUserJobs(ctx.db, req.userId);
      await setEmbeddingSetting(ctx.db, req.userId, { model, dimensions }, true);
      await embedMarkedSources(ctx.db, req.userId);
      return settingsOf(ctx, req.userId);
    },
  );
}
