import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { RESEARCH_DOMAINS, RESEARCH_SOURCES } from '../../src/schemas/constants';
import { researchSearchRequest } from '../../src/schemas/research';
import { bounds } from '../../src/schemas/settings';
import { requireUser } from '../auth/guard';
import { parseWith } from '../http/errors';
import { allPapers, type ResearchOutcome } from '../providers/research';

// /research/search and /research/papers. Without network (or with research disabled) they answer
// `available: false` with the reason per source — never an error status.

const papersQuery = z.object({
  query: z.string().trim().min(1).max(500),
  /** One source, or several separated by commas; default: arXiv, PubMed, Semantic Scholar. */
  source: z.string().optional().transform((s) => (s ? s.split(',').map((x) => x.trim()).filter(Boolean) : undefined))
    .pipe(z.array(z.enum(RESEARCH_SOURCES)).min(1).optional()),
  max_results: z.coerce.number().int().min(bounds.researchMaxResults.min).max(bounds.researchMaxResults.max).default(10),
  domain: z.enum(RESEARCH_DOMAINS).default('general'),
});

const NO_RESEARCH = 'No research provider is configured on this server.';

export async function researchRoutes(app: FastifyInstance) {
  const { ctx } = app;

  const search = (query: string, sources: readonly string[] | undefined, max_results: number, domain: string): Promise<ResearchOutcome> => {
    const research = ctx.providers.research;
    if (!research) return Promise.resolve({ query, results: [], errors: [{ source: 'research', message: NO_RESEARCH }], available: false, detail: NO_RESEARCH });
    return research.search({ query, sources, max_results, domain });
  };

  await app.register(async (authed) => {
    authed.addHook('onRequest', requireUser(ctx));

    authed.post('/research/search', async (req) => {
      const body = parseWith(researchSearchRequest, req.body);
      return search(body.query, body.sources, body.max_results, body.domain);
    });

    authed.get('/research/papers', async (req) => {
      const q = parseWith(papersQuery, req.query);
      const out = await search(q.query, q.source, q.max_results, q.domain);
      return { query: out.query, papers: allPapers(out), available: out.available, errors: out.errors, ...(out.detail ? { detail: out.detail } : {}) };
    });
  });
}
