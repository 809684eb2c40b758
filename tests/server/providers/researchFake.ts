import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import type { ResearchSource } from '../../../server/providers/research';
import { startLoopback, type Recorded } from '../../support/loopback';

// One loopback server answering like all five research APIs, from responses recorded in their real formats.

const dir = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures');
export const fixture = (name: string) => readFileSync(path.join(dir, name), 'utf8');

export type Override = (req: Recorded, res: ServerResponse) => boolean | Promise<boolean>;

export async function startResearchFake(override?: Override) {
  const lb = await startLoopback(async (req, res) => {
    if (override && (await override(req, res))) return;
    const p = new URL(req.url, 'http://x').pathname;
    const send = (type: string, body: string) => {
      res.writeHead(200, { 'content-type': type });
      res.end(body);
    };
    if (p === '/api/query') return send('application/atom+xml; charset=utf-8', fixture('arxiv-query.xml'));
    if (p === '/entrez/eutils/esearch.fcgi')
      return send('application/json; charset=UTF-8', fixture('pubmed-esearch.json'));
    if (p === '/entrez/eutils/esummary.fcgi')
      return send('application/json; charset=UTF-8', fixture('pubmed-esummary.json'));
    if (p === '/graph/v1/paper/search') return send('application/json', fixture('semantic-scholar-search.json'));
    if (p === '/works') return send('application/json;charset=utf-8', fixture('crossref-works.json'));
    if (p === '/v3/search/works') return send('application/json', fixture('core-search.json'));
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('no such path');
  });
  const baseUrls: Record<ResearchSource, string> = {
    arxiv: lb.url,
    pubmed: `${lb.url}/entrez/eutils`,
    semantic_scholar: `${lb.url}/graph/v1`,
    crossref: lb.url,
    core: `${lb.url}/v3`,
  };
  return { ...lb, baseUrls };
}
