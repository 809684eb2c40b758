import type { RESEARCH_SOURCES } from '../../../src/schemas/constants';
import type { Paper } from '../../../src/schemas/discussion';
import type { callSignal } from '../errors';
import type { ResearchDomain } from './query';

export type ResearchSource = (typeof RESEARCH_SOURCES)[number];

export interface SourceSearch {
  query: string;
  maxResults: number;
  domain: ResearchDomain;
  /** The caller's abort and this source's time-out, as one signal that knows which fired. */
  call: ReturnType<typeof callSignal>;
  timeoutMs: number;
}

/** One public search API. Throws a ProviderError that names the service when it cannot answer. */
export interface ResearchSourceClient {
  readonly id: ResearchSource;
  readonly label: string;
  search(req: SourceSearch): Promise<Paper[]>;
}
