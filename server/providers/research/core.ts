import type { Paper } from '../../../src/schemas/discussion';
import { getJson } from './fetchSource';
import { withDomain } from './query';
import type { ResearchSourceClient, SourceSearch } from './types';

// CORE API v3 (https://api.core.ac.uk/docs/v3): GET /search/works?q=… (an API key raises the rate limit).

export const CORE_BASE = 'https://api.core.ac.uk/v3';

interface CoreWork {
  id?: number | string;
  title?: string;
  authors?: Array<{ name?: string }>;
  yearPublished?: number | null;
  abstract?: string | null;
  doi?: string | null;
  downloadUrl?: string | null;
  links?: Array<{ type?: string; url?: string }>;
  publisher?: string;
}
interface CoreSearch {
  totalHits?: number;
  results?: CoreWork[];
}

export function createCore(base = CORE_BASE, apiKey?: string): ResearchSourceClient {
  return {
    id: 'core',
    label: 'CORE',
    async search(req: SourceSearch): Promise<Paper[]> {
      const params = new URLSearchParams({
        q: withDomain(req.query, req.domain),
        limit: String(Math.min(100, req.maxResults)),
      });
      const headers = apiKey ? { authorization: `Bearer ${apiKey}` } : undefined;
      return parseCore(
        await getJson<CoreSearch>(
          `${base.replace(/\/+$/, '')}/search/works?${params}`,
          'CORE',
          'core',
          req.call,
          req.timeoutMs,
          headers,
        ),
      );
    },
  };
}

export function parseCore(body: CoreSearch): Paper[] {
  return (body.results ?? [])
    .filter((w) => w.title)
    .map((w) => ({
      title: w.title!.replace(/\s+/g, ' ').trim(),
      authors: (w.authors ?? []).map((a) => a.name ?? '').filter(Boolean),
      year: w.yearPublished ?? null,
      abstract: w.abstract?.replace(/\s+/g, ' ').trim() || null,
      url:
        w.links?.find((l) => l.type === 'display')?.url ||
        (w.doi ? `https://doi.org/${w.doi}` : '') ||
        w.downloadUrl ||
        (w.id !== undefined ? `https://core.ac.uk/works/${w.id}` : null),
      source: 'core',
      doi: w.doi ?? undefined,
    }));
}
