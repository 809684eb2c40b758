import type { Paper } from '../../../src/schemas/discussion';
import { ProviderError } from '../errors';
import { getText } from './fetchSource';
import { DOMAIN_TERMS, keywords } from './query';
import type { ResearchSourceClient, SourceSearch } from './types';
import { attributes, elements, firstText, textOf } from './xml';

// arXiv API (https://info.arxiv.org/help/api/user-manual.html): GET /api/query answers an Atom feed.

export const ARXIV_BASE = 'https://export.arxiv.org';

export function createArxiv(base = ARXIV_BASE): ResearchSourceClient {
  return {
    id: 'arxiv',
    label: 'arXiv',
    async search(req: SourceSearch): Promise<Paper[]> {
      const words = keywords(req.query, 3).map((w) => `all:${quoteTerm(w)}`);
      const domain = DOMAIN_TERMS[req.domain].map((t) => `all:${quoteTerm(t)}`);
      const query = [words.join(' AND '), domain.length ? `(${domain.join(' OR ')})` : '']
        .filter(Boolean)
        .join(' AND ');
      const url = `${base.replace(/\/+$/, '')}/api/query?${new URLSearchParams({ search_query: query, start: '0', max_results: String(req.maxResults), sortBy: 'relevance', sortOrder: 'descending' })}`;
      return parseArxivFeed(
        await getText(url, 'arXiv', 'arxiv', req.call, req.timeoutMs, { accept: 'application/atom+xml' }),
      );
    },
  };
}

const quoteTerm = (t: string) => (/\s/.test(t) ? `"${t}"` : t);

export function parseArxivFeed(xml: string): Paper[] {
  if (!/<feed[\s>]/.test(xml))
    throw new ProviderError('arXiv answered something other than an Atom feed', 'arxiv', 'malformed');
  const papers: Paper[] = [];
  for (const entry of elements(xml, 'entry')) {
    const id = firstText(entry.inner, 'id');
    const title = firstText(entry.inner, 'title');
    // arXiv reports a bad query as a single entry titled "Error" whose id points at its error docs.
    if (/arxiv\.org\/api\/errors/.test(id))
      throw new ProviderError(`arXiv rejected the query: ${firstText(entry.inner, 'summary')}`, 'arxiv', 'http');
    if (!title) continue;
    const links = [...entry.inner.matchAll(/<link\b([^>]*?)\/?>/g)].map((m) => attributes(m[1]));
    const page = links.find((l) => l.rel === 'alternate')?.href ?? id;
    const published = firstText(entry.inner, 'published');
    papers.push({
      title,
      authors: elements(entry.inner, 'author')
        .map((a) => firstText(a.inner, 'name'))
        .filter(Boolean),
      year: /^\d{4}/.test(published) ? Number(published.slice(0, 4)) : null,
      abstract: textOf(elements(entry.inner, 'summary')[0]?.inner ?? '') || null,
      url: page || null,
      source: 'arxiv',
      pdf_url: links.find((l) => l.title === 'pdf')?.href,
      doi: firstText(entry.inner, 'doi') || undefined,
    });
  }
  return papers;
}
