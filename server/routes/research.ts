import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { RESEARCH_DOMAINS, RESEARCH_SOURCES } from '../../src/schemas/constants';
import { researchPapersResponse, researchSearchRequest, researchSearchResponse } from '../../src/schemas/research';
import { bounds } from '../../src/schemas/settings';
import { requireUser } from '../auth/guard';
import type { ZodTypeProvider } from '../http/routeSchema';
import { allPapers, type ResearchOutcome } from '../providers/research';

// /research/search and /research/papers. Without network (or with research disabled) they answer
// `available: false` with the reason per source — never an error status.

const papersQuery = z.object({
  query: z.string().trim().min(1).max(500),
  /** One source, or several separated by commas; default: arXiv, PubMed, Semantic Scholar. */
  source: z
    .string()
    .optional()
    .transform((s) =>
      s
        ? s
            .split(',')
            .map((x) => x.trim())
            .filter(Boolean)
        : undefined,
    )
    .pipe(z.array(z.enum(RESEARCH_SOURCES)).min(1).optional()),
  max_results: z.coerce
    .number()
    .int()
    .min(bounds.researchMaxResults.min)
    .max(bounds.researchMaxResults.max)
    .default(10),
  domain: z.enum(RESEARCH_DOMAINS).default('general'),
});

const NO_RESEARCH = 'No research provider is configured on this server.';

export async function researchRoutes(app: FastifyInstance) {
  const { ctx } = app;

  const search = (
    query: string,
    sources: readonly string[] | undefined,
    max_results: number,
    domain: string,
  ): Promise<ResearchOutcome> => {
    const research = ctx.providers.research;
    if (!research)
      return Promise.resolve({
        query,
        results: [],
        errors: [{ source: 'research', message: NO_RESEARCH }],
        available: false,
        detail: NO_RESEARCH,
      });
    return research.search({ query, sources, max_results, domain });
  };

  const tags = ['Research'];
  await app.register(async (plugin) => {
    const authed = plugin.withTypeProvider<ZodTypeProvider>();
    authed.addHook('onRequest', requireUser(ctx));

    const searchSchema = {
      tags,
      summary: 'Search papers in the public research sources',
      description: 'Never an error status for a source that fails: `available: false` and `errors` say why per source.',
      body: researchSearchRequest,
      response: { 200: researchSearchResponse },
    };
    authed.post('/research/search', { schema: searchSchema }, async (req) => {
      const body = req.body;
      return { ...(await search(body.query, body.sources, body.max_results, body.domain)) };
    });

    authed.get(
      '/research/papers',
      {
        schema: {
          tags,
          summary: 'Papers for a query, as one list',
          querystring: papersQuery,
          response: { 200: researchPapersResponse },
        },
      },
      async (req) => {
        const q = req.query;
        const out = await search(q.query, q.source, q.max_results, q.domain);
        return {
          query: out.query,
          papers: allPapers(out),
          available: out.available,
          errors: out.errors,
          ...(out.detail ? { detail: out.detail } : {}),
        };
      },
    );
  });
}
