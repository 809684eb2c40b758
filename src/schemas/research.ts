import { z } from 'zod';
import { RESEARCH_DOMAINS, RESEARCH_SOURCES } from './constants';
import { paper, researchResult } from './discussion';
import { text } from './common';
import { bounds } from './settings';

export const researchSearchRequest = z
  .object({
    query: text().trim().min(1).max(500),
    sources: z.array(z.enum(RESEARCH_SOURCES)).min(1).default(['arxiv', 'pubmed', 'semantic_scholar']),
    max_results: z.number().int().min(bounds.researchMaxResults.min).max(bounds.researchMaxResults.max).default(10),
    domain: z.enum(RESEARCH_DOMAINS).default('general'),
  })
  .meta({ examples: [{ query: 'soil moisture sensors irrigation', sources: ['arxiv', 'crossref'], max_results: 5 }] });
export type ResearchSearchRequest = z.infer<typeof researchSearchRequest>;
export const researchSearchResponse = z.looseObject({
  query: z.string(),
  results: z.array(researchResult),
  errors: z.array(z.object({ source: z.string(), message: z.string() })).default([]),
  available: z.boolean(),
});
export const researchPapersResponse = z.looseObject({ papers: z.array(paper) });
