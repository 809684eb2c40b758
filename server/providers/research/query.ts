import type { RESEARCH_DOMAINS } from '../../../src/schemas/constants';

// Turning a discussion topic into what each search API wants.

export type ResearchDomain = (typeof RESEARCH_DOMAINS)[number];

/** Words added to the query for each domain filter (general adds none). */
export const DOMAIN_TERMS: Record<ResearchDomain, string[]> = {
  agriculture: ['agriculture'],
  vineyard: ['vineyard', 'viticulture'],
  plant_pathology: ['plant pathology'],
  iot_sensors: ['IoT sensors'],
  general: [],
};

const STOP = new Set(
  (
    'a an the and or but of to in on at by for with from as is are was were be been it its this that these those we you they i our ' +
    'your their what which who how why when where can could should would will may might do does did not no more most less very ' +
    'about into over under between than then so if also just best good better use using used need needs way ways make making ' +
    'discuss discussion topic question questions please help'
  ).split(/\s+/),
);

/** The meaningful words of a topic, in order, for APIs that AND every term (arXiv, PubMed). */
export function keywords(query: string, limit = 4): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const w of query.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}-]*/gu) ?? []) {
    if (w.length < 3 || STOP.has(w) || seen.has(w)) continue;
    seen.add(w);
    out.push(w);
    if (out.length >= limit) break;
  }
  return out.length ? out : query.trim().split(/\s+/).slice(0, limit);
}

/** For relevance-ranked free-text APIs: the query with the domain's words appended. */
export const withDomain = (query: string, domain: ResearchDomain) => [query.trim(), ...DOMAIN_TERMS[domain]].join(' ');
