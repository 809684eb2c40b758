import type { Paper } from '../../../src/schemas/discussion';
import { getJson } from './fetchSource';
import { withDomain } from './query';
import type { ResearchSourceClient, SourceSearch } from './types';
import { textOf } from './xml';

// Crossref REST API (https://api.crossref.org/swagger-ui/index.html): GET /works?query=…

export const CROSSREF_BASE = 'https://api.crossref.org';

interface CrossrefWork {
  DOI?: string;
  URL?: string;
  title?: string[];
  author?: Array<{ given?: string; family?: string; name?: string }>;
  issued?: { 'date-parts'?: Array<Array<number | null>> };
  published?: { 'date-parts'?: Array<Array<number | null>> };
  abstract?: string;
  'container-title'?: string[];
}
interface CrossrefList {
  status?: string;
  message?: { items?: CrossrefWork[] };
}

export function createCrossref(base = CROSSREF_BASE): ResearchSourceClient {
  return {
    id: 'crossref',
    label: 'Crossref',
    async search(req: SourceSearch): Promise<Paper[]> {
      const params = new URLSearchParams({
        query: withDomain(req.query, req.domain),
        rows: String(Math.min(100, req.maxResults)),
        select: 'DOI,URL,title,author,issued,published,abstract,container-title',
      });
      return parseCrossref(
        await getJson<CrossrefList>(
          `${base.replace(/\/+$/, '')}/works?${params}`,
          'Crossref',
          'crossref',
          req.call,
          req.timeoutMs,
        ),
      );
    },
  };
}

export function parseCrossref(body: CrossrefList): Paper[] {
  return (body.message?.items ?? [])
    .filter((w) => w.title?.[0])
    .map((w) => {
      const year = w.issued?.['date-parts']?.[0]?.[0] ?? w.published?.['date-parts']?.[0]?.[0] ?? null;
      return {
        title: w.title![0].replace(/\s+/g, ' ').trim(),
        authors: (w.author ?? []).map((a) => a.name ?? [a.given, a.family].filter(Boolean).join(' ')).filter(Boolean),
        year,
        // Crossref abstracts are JATS XML (<jats:p>…</jats:p>); keep the words.
        abstract: w.abstract ? textOf(w.abstract).replace(/^Abstract\s+/i, '') : null,
        url: w.URL ?? (w.DOI ? `https://doi.org/${w.DOI}` : null),
        source: 'crossref',
        venue: w['container-title']?.[0],
        doi: w.DOI,
      };
    });
}
