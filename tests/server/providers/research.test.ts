import { afterEach, describe, expect, it } from 'vitest';
import { paper } from '../../../src/schemas/discussion';
import { researchSearchResponse } from '../../../src/schemas/research';
import {
  RESEARCH_DISABLED,
  allPapers,
  createResearchService,
  type ResearchSource,
} from '../../../server/providers/research';
import { decodeEntities, textOf } from '../../../server/providers/research/xml';
import { closedPort, sleep } from '../../support/loopback';
import { fixture, startResearchFake, type Override } from './researchFake';

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

async function serviceWith(override?: Override, timeoutMs?: number) {
  const fake = await startResearchFake(override);
  close = fake.close;
  return { fake, research: createResearchService({ baseUrls: fake.baseUrls, timeoutMs }) };
}

const ALL: ResearchSource[] = ['arxiv', 'pubmed', 'semantic_scholar', 'crossref', 'core'];
const papersOf = (o: Awaited<ReturnType<ReturnType<typeof createResearchService>['search']>>, s: string) =>
  o.results.find((r) => r.source === s)?.results ?? [];

describe('research sources, from recorded answers', () => {
  it('maps each API’s real format to papers', async () => {
    const { research } = await serviceWith();
    const out = await research.search({ query: 'irrigation in vineyards', sources: ALL, maxResults: 5 });
    expect(researchSearchResponse.parse(out)).toBeTruthy();
    expect(out.available).toBe(true);
    expect(out.errors).toEqual([]);
    expect(out.results.map((r) => r.source)).toEqual(ALL);
    for (const p of allPapers(out)) expect(paper.safeParse(p).success).toBe(true);

    expect(papersOf(out, 'arxiv')).toEqual([
      expect.objectContaining({
        title: 'Deep Learning for Vineyard Water Stress Estimation from Thermal Imagery',
        authors: ['Maria Rossi', 'Jean-Luc Dupont'],
        year: 2023,
        abstract:
          'Water stress in grapevines affects yield & quality. We propose a convolutional model that estimates crop water stress index (CWSI) from UAV thermal images, reaching R^2 > 0.8 on three vineyards.',
        url: 'http://arxiv.org/abs/2304.01234v2',
        source: 'arxiv',
        pdf_url: 'http://arxiv.org/pdf/2304.01234v2',
        doi: '10.1016/j.compag.2023.107001',
      }),
      expect.objectContaining({
        title: 'Soil Moisture Sensor Networks for Deficit Irrigation Scheduling',
        authors: ['A. García'],
        year: 2021,
      }),
    ]);
    expect(papersOf(out, 'pubmed')).toEqual([
      expect.objectContaining({
        title: 'Regulated deficit irrigation alters berry composition in Vitis vinifera: a meta-analysis.',
        authors: ['Chen L', 'Okafor N'],
        year: 2023,
        url: 'https://pubmed.ncbi.nlm.nih.gov/37012345/',
        source: 'pubmed',
        doi: '10.3390/plants12061234',
        venue: 'Plants (Basel, Switzerland)',
      }),
      expect.objectContaining({ title: 'Water footprint of Mediterranean viticulture under drought.', year: 2022 }),
    ]);
    expect(papersOf(out, 'semantic_scholar')).toEqual([
      expect.objectContaining({
        title: 'Precision irrigation in vineyards: a review of sensing technologies',
        authors: ['Luca Bianchi', 'Sara Kim'],
        year: 2020,
        source: 'semantic_scholar',
        doi: '10.1007/s00271-020-00675-5',
      }),
      expect.objectContaining({
        title: 'Cover crops and vineyard water balance',
        authors: [],
        year: null,
        abstract: null,
      }),
    ]);
    expect(papersOf(out, 'crossref')).toEqual([
      expect.objectContaining({
        title: 'Irrigation strategies for grapevines under climate change',
        authors: ['Ana Costa', 'Peter Müller'],
        year: 2020,
        abstract:
          'Climate change increases vine water demand. We compare deficit & partial root-zone drying strategies across 12 sites.',
        url: 'https://doi.org/10.1016/j.agwat.2019.105849',
        source: 'crossref',
      }),
      expect.objectContaining({
        title: 'Vineyard soil moisture dataset',
        authors: ['Viticulture Open Data Group'],
        year: 2021,
      }),
    ]);
    expect(papersOf(out, 'core')).toEqual([
      expect.objectContaining({
        title: 'Soil moisture feedback for drip irrigation in vineyards',
        authors: ['Novak, Tomas', 'Horvat, Ema'],
        year: 2022,
        abstract:
          'Drip irrigation with soil moisture feedback reduced water use by 31% in a Slovenian vineyard without yield loss.',
        url: 'https://core.ac.uk/works/112233445',
        source: 'core',
      }),
      expect.objectContaining({ title: 'Grapevine drought tolerance notes', url: 'https://core.ac.uk/works/99887766' }),
    ]);
  });

  it('asks each API in its own query language, with the domain filter and the result limit', async () => {
    const { fake, research } = await serviceWith();
    await research.search({
      query: 'How should we reduce irrigation water?',
      sources: ALL,
      maxResults: 7,
      domain: 'vineyard',
    });
    const q = (p: string) => new URL(fake.requests.find((r) => r.url.startsWith(p))!.url, 'http://x').searchParams;
    expect(q('/api/query').get('search_query')).toBe(
      'all:reduce AND all:irrigation AND all:water AND (all:vineyard OR all:viticulture)',
    );
    expect(q('/api/query').get('max_results')).toBe('7');
    expect(q('/entrez/eutils/esearch.fcgi').get('term')).toBe('reduce irrigation water AND (vineyard OR viticulture)');
    expect(q('/entrez/eutils/esearch.fcgi').get('retmax')).toBe('7');
    expect(q('/entrez/eutils/esummary.fcgi').get('id')).toBe('37012345,36543210');
    expect(q('/graph/v1/paper/search').get('query')).toBe(
      'How should we reduce irrigation water? vineyard viticulture',
    );
    expect(q('/graph/v1/paper/search').get('limit')).toBe('7');
    expect(q('/works').get('rows')).toBe('7');
    expect(q('/v3/search/works').get('limit')).toBe('7');
    const general = await research.search({ query: 'soil moisture', sources: ['semantic_scholar'], domain: 'general' });
    expect(general.available).toBe(true);
    expect(new URL(fake.requests.at(-1)!.url, 'http://x').searchParams.get('query')).toBe('soil moisture');
  });

  it('defaults to arXiv, PubMed and Semantic Scholar', async () => {
    const { research } = await serviceWith();
    const out = await research.search({ query: 'irrigation' });
    expect(out.results.map((r) => r.source)).toEqual(['arxiv', 'pubmed', 'semantic_scholar']);
  });

  it('keeps the others when one source fails, and says which failed and why', async () => {
    const { research } = await serviceWith((req, res) => {
      if (!req.url.startsWith('/graph/v1/')) return false;
      res.writeHead(429, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          message: 'Too Many Requests. Please wait and try again or apply for a key for higher rate limits.',
          code: '429',
        }),
      );
      return true;
    });
    const out = await research.search({ query: 'irrigation', sources: ['arxiv', 'semantic_scholar', 'crossref'] });
    expect(out.available).toBe(true);
    expect(out.results.map((r) => r.source)).toEqual(['arxiv', 'crossref']);
    expect(out.errors).toEqual([
      {
        source: 'semantic_scholar',
        message:
          'Semantic Scholar answered 429: Too Many Requests. Please wait and try again or apply for a key for higher rate limits.',
      },
    ]);
  });

  it('times out a slow source without holding up the others', async () => {
    const { fake, research } = await serviceWith(async (req) => {
      if (req.url.startsWith('/works')) await sleep(2000);
      return false;
    }, 200);
    const t0 = Date.now();
    const out = await research.search({ query: 'irrigation', sources: ['arxiv', 'crossref'] });
    expect(Date.now() - t0).toBeLessThan(1500);
    expect(out.results.map((r) => r.source)).toEqual(['arxiv']);
    expect(out.errors).toEqual([
      { source: 'crossref', message: `Crossref at ${fake.url} did not answer within 0.2 s` },
    ]);
  });

  it('reports arXiv’s own error feed and malformed answers as errors of that source', async () => {
    const { research } = await serviceWith((req, res) => {
      if (req.url.startsWith('/api/query')) {
        res.writeHead(200, { 'content-type': 'application/atom+xml' });
        res.end(fixture('arxiv-error.xml'));
        return true;
      }
      if (req.url.startsWith('/v3/')) {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>maintenance</html>');
        return true;
      }
      return false;
    });
    const out = await research.search({ query: 'irrigation', sources: ['arxiv', 'core', 'pubmed'] });
    expect(out.errors).toEqual([
      { source: 'arxiv', message: 'arXiv rejected the query: max_results must be non-negative' },
      { source: 'core', message: 'CORE answered something other than JSON' },
    ]);
    expect(out.results.map((r) => r.source)).toEqual(['pubmed']);
  });

  it('is unavailable, never throwing, when no source answers', async () => {
    const url = await closedPort();
    const research = createResearchService({
      baseUrls: { arxiv: url, pubmed: url, semantic_scholar: url, crossref: url, core: url },
    });
    const out = await research.search({ query: 'irrigation', sources: ALL, max_results: 3 });
    expect(out.available).toBe(false);
    expect(out.results).toEqual([]);
    // The reader's sentence names the services in plain words; the address and the code stay in `errors` (the log).
    expect(out.detail).toBe(
      'Could not reach arXiv, PubMed, Semantic Scholar, Crossref and CORE: the connection was refused.',
    );
    expect(out.detail).not.toMatch(/https?:|ECONN|127\.0\.0\.1/);
    expect(out.errors.map((e) => e.source)).toEqual(ALL);
    expect(out.errors[0].message).toBe(`arXiv at ${url} is not reachable (ECONNREFUSED)`);
    expect(researchSearchResponse.safeParse(out).success).toBe(true);
  });

  it('is unavailable when disabled, and names an unknown source', async () => {
    const off = await createResearchService({ enabled: false }).search({ query: 'x' });
    expect(off).toMatchObject({
      available: false,
      results: [],
      errors: [{ source: 'research', message: RESEARCH_DISABLED }],
    });
    const { research } = await serviceWith();
    const out = await research.search({ query: 'irrigation', sources: ['arxiv', 'google_scholar'] });
    expect(out.errors).toEqual([{ source: 'google_scholar', message: 'Unknown research source "google_scholar"' }]);
    expect(out.available).toBe(true);
  });

  it('stops on the caller’s abort', async () => {
    const { research } = await serviceWith(async () => {
      await sleep(1000);
      return false;
    });
    const ac = new AbortController();
    const call = research.search({ query: 'irrigation', sources: ['arxiv'] }, ac.signal);
    setTimeout(() => ac.abort(), 30);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reads XML text carefully', () => {
    expect(decodeEntities('a &amp; b &lt;c&gt; &#233;&#x00E9; &bogus;')).toBe('a & b <c> éé &bogus;');
    expect(textOf(' <![CDATA[x < y]]> and <b>bold</b>\n text ')).toBe('x < y and bold text');
  });
});
