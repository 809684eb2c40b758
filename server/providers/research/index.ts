import { RESEARCH_SOURCES } from '../../../src/schemas/constants';
import type { ResearchResult } from '../../../src/schemas/discussion';
import { ENGINE_MESSAGES } from '../../../src/schemas/messages';
import { abortError, callSignal } from '../errors';
import { createArxiv } from './arxiv';
import { createCore } from './core';
import { createCrossref } from './crossref';
import { createPubmed } from './pubmed';
import type { ResearchDomain } from './query';
import { plainResearchFailure, type SourceFailure } from './plainWords';
import { createSemanticScholar } from './semanticScholar';
import type { ResearchSource, ResearchSourceClient } from './types';

// Searches the requested public research APIs in parallel, each with its own time-out, and reports
// per source: what it found, or why it could not answer. It never throws for a source failing;
// only the caller's own abort rejects.

export type { ResearchSource } from './types';
export type { ResearchDomain } from './query';

export interface ResearchQuery {
  query: string;
  sources?: readonly string[];
  maxResults?: number;
  /** Same as maxResults, in the wire spelling. */
  max_results?: number;
  domain?: string;
  signal?: AbortSignal;
}

export interface ResearchOutcome {
  query: string;
  /** One entry per source that answered (possibly with no papers). */
  results: Array<ResearchResult & { source: ResearchSource }>;
  errors: Array<{ source: string; message: string }>;
  /** False when no source answered (or research is disabled). */
  available: boolean;
  /** Present when unavailable: the sentence to show, naming the services in plain words (plainWords.ts). */
  detail?: string;
}

export interface ResearchService {
  readonly enabled: boolean;
  search(req: ResearchQuery, signal?: AbortSignal): Promise<ResearchOutcome>;
}

export interface ResearchOptions {
  enabled?: boolean;
  /** Per-source base URLs (tests point them at a loopback server). */
  baseUrls?: Partial<Record<ResearchSource, string>>;
  /** Per source. Default 8 s. */
  timeoutMs?: number;
  apiKeys?: Partial<Record<'pubmed' | 'semantic_scholar' | 'core', string>>;
}

export const DEFAULT_RESEARCH_SOURCES: ResearchSource[] = ['arxiv', 'pubmed', 'semantic_scholar'];
export const RESEARCH_DISABLED = 'Research is disabled on this server (RESEARCH_ENABLED=false).';

const isSource = (s: string): s is ResearchSource => (RESEARCH_SOURCES as readonly string[]).includes(s);
const isDomain = (d: string | undefined): d is ResearchDomain =>
  ['agriculture', 'vineyard', 'plant_pathology', 'iot_sensors', 'general'].includes(d ?? '');

export function createResearchService(opts: ResearchOptions = {}): ResearchService {
  const enabled = opts.enabled ?? true;
  const timeoutMs = opts.timeoutMs ?? 8_000;
  const b = opts.baseUrls ?? {};
  const k = opts.apiKeys ?? {};
  const clients: Record<ResearchSource, ResearchSourceClient> = {
    arxiv: createArxiv(b.arxiv),
    pubmed: createPubmed(b.pubmed, k.pubmed),
    semantic_scholar: createSemanticScholar(b.semantic_scholar, k.semantic_scholar),
    crossref: createCrossref(b.crossref),
    core: createCore(b.core, k.core),
  };

  return {
    enabled,
    async search(req, signalArg) {
      const signal = req.signal ?? signalArg;
      const query = req.query.trim();
      if (!enabled)
        return {
          query,
          results: [],
          errors: [{ source: 'research', message: RESEARCH_DISABLED }],
          available: false,
          detail: RESEARCH_DISABLED,
        };
      if (signal?.aborted) throw abortError('research', signal);
      const maxResults = Math.max(1, Math.min(50, Math.round(req.maxResults ?? req.max_results ?? 10)));
      const domain: ResearchDomain = isDomain(req.domain) ? req.domain : 'general';
      const requested = [...new Set(req.sources?.length ? req.sources : DEFAULT_RESEARCH_SOURCES)];
      const errors: ResearchOutcome['errors'] = requested
        .filter((s) => !isSource(s))
        .map((s) => ({ source: s, message: `Unknown research source "${s}"` }));
      const sources = requested.filter(isSource);

      const settled = await Promise.all(
        sources.map(async (source) => {
          const call = callSignal(timeoutMs, signal);
          try {
            const papers = await clients[source].search({ query, maxResults, domain, call, timeoutMs });
            return { source, papers: papers.slice(0, maxResults) };
          } catch (e) {
            return { source, error: (e as Error).message, cause: e };
          }
        }),
      );
      if (signal?.aborted) throw abortError('research', signal);

      const results: ResearchOutcome['results'] = [];
      const failures: SourceFailure[] = [];
      for (const s of settled) {
        if ('papers' in s && s.papers) results.push({ source: s.source, query, results: s.papers });
        else {
          errors.push({ source: s.source, message: s.error ?? 'failed' });
          failures.push({ label: clients[s.source].label, error: 'cause' in s ? s.cause : undefined });
        }
      }
      const available = results.length > 0;
      return {
        query,
        results,
        errors,
        available,
        ...(available
          ? {}
          : { detail: failures.length ? plainResearchFailure(failures) : ENGINE_MESSAGES.researchUnavailable }),
      };
    },
  };
}

/** Every paper of an outcome, in source order (for /research/papers and for evidence lists). */
export const allPapers = (o: ResearchOutcome) => o.results.flatMap((r) => r.results ?? []);
