import type { Paper } from '../../../src/schemas/discussion';
import { getJson } from './fetchSource';
import { DOMAIN_TERMS, keywords } from './query';
import type { ResearchSourceClient, SourceSearch } from './types';

// PubMed via NCBI E-utilities (https://www.ncbi.nlm.nih.gov/books/NBK25499/): esearch finds ids,
// esummary describes them. esummary has no abstracts; the journal stands in as the venue.

export const PUBMED_BASE = 'https://eutils.ncbi.nlm.nih.gov/entrez/eutils';

interface ESearch {
  esearchresult?: { idlist?: string[]; ERROR?: string };
  error?: string;
}
interface ESummaryDoc {
  uid: string;
  title?: string;
  pubdate?: string;
  sortpubdate?: string;
  fulljournalname?: string;
  source?: string;
  authors?: Array<{ name?: string; authtype?: string }>;
  articleids?: Array<{ idtype?: string; value?: string }>;
}
interface ESummary {
  result?: { uids?: string[] } & Record<string, unknown>;
  error?: string;
}

export function createPubmed(base = PUBMED_BASE, apiKey?: string): ResearchSourceClient {
  const root = base.replace(/\/+$/, '');
  const keyParam: Record<string, string> = apiKey ? { api_key: apiKey } : {};
  return {
    id: 'pubmed',
    label: 'PubMed',
    async search(req: SourceSearch): Promise<Paper[]> {
      const terms = keywords(req.query, 4).join(' ');
      const domain = DOMAIN_TERMS[req.domain];
      const term = domain.length ? `${terms} AND (${domain.join(' OR ')})` : terms;
      const search = await getJson<ESearch>(
        `${root}/esearch.fcgi?${new URLSearchParams({ db: 'pubmed', term, retmax: String(req.maxResults), retmode: 'json', sort: 'relevance', ...keyParam })}`,
        'PubMed',
        'pubmed',
        req.call,
        req.timeoutMs,
      );
      const ids = search.esearchresult?.idlist ?? [];
      if (!ids.length) return [];
      const summary = await getJson<ESummary>(
        `${root}/esummary.fcgi?${new URLSearchParams({ db: 'pubmed', id: ids.join(','), retmode: 'json', ...keyParam })}`,
        'PubMed',
        'pubmed',
        req.call,
        req.timeoutMs,
      );
      return parsePubmedSummary(summary);
    },
  };
}

export function parsePubmedSummary(summary: ESummary): Paper[] {
  const result = summary.result ?? {};
  const uids = (result.uids as string[] | undefined) ?? [];
  return uids
    .map((uid) => result[uid] as ESummaryDoc | undefined)
    .filter((d): d is ESummaryDoc => !!d && !!d.title)
    .map((d) => {
      const year = /(\d{4})/.exec(d.pubdate ?? d.sortpubdate ?? '')?.[1];
      return {
        title: d.title!.replace(/\s+/g, ' ').trim(),
        authors: (d.authors ?? [])
          .filter((a) => !a.authtype || a.authtype === 'Author')
          .map((a) => a.name ?? '')
          .filter(Boolean),
        year: year ? Number(year) : null,
        abstract: null,
        url: `https://pubmed.ncbi.nlm.nih.gov/${d.uid}/`,
        source: 'pubmed',
        venue: d.fulljournalname ?? d.source,
        doi: d.articleids?.find((a) => a.idtype === 'doi')?.value,
      };
    });
}
