import type { Paper } from '../../../src/schemas/discussion';
import { getJson } from './fetchSource';
import { withDomain } from './query';
import type { ResearchSourceClient, SourceSearch } from './types';

// Semantic Scholar Academic Graph (https://api.semanticscholar.org/api-docs/graph): relevance search.

export const SEMANTIC_SCHOLAR_BASE = 'https://api.semanticscholar.org/graph/v1';

interface S2Search {
  total?: number;
  data?: Array<{
    paperId?: string;
    title?: string;
    abstract?: string | null;
    year?: number | null;
    url?: string;
    venue?: string;
    authors?: Array<{ name?: string }>;
    externalIds?: { DOI?: string } | null;
  }>;
}

export function createSemanticScholar(base = SEMANTIC_SCHOLAR_BASE, apiKey?: string): ResearchSourceClient {
  return {
    id: 'semantic_scholar',
    label: 'Semantic Scholar',
    async search(req: SourceSearch): Promise<Paper[]> {
      const params = new URLSearchParams({
        query: withDomain(req.query, req.domain),
        limit: String(Math.min(100, req.maxResults)),
        fields: 'title,authors,year,abstract,url,venue,externalIds',
      });
      const body = await getJson<S2Search>(
        `${base.replace(/\/+$/, '')}/paper/search?${params}`,
        'Semantic Scholar',
        'semantic_scholar',
        req.call,
        req.timeoutMs,
        apiKey ? { 'x-api-key': apiKey } : {},
      );
      return parseSemanticScholar(body);
    },
  };
}

export function parseSemanticScholar(body: S2Search): Paper[] {
  return (body.data ?? [])
    .filter((p) => p.title)
    .map((p) => ({
      title: p.title!,
      authors: (p.authors ?? []).map((a) => a.name ?? '').filter(Boolean),
      year: p.year ?? null,
      abstract: p.abstract ?? null,
      url: p.url ?? (p.paperId ? `https://www.semanticscholar.org/paper/${p.paperId}` : null),
      source: 'semantic_scholar',
      venue: p.venue || undefined,
      doi: p.externalIds?.DOI,
    }));
}
