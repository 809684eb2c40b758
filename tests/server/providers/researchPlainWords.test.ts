import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../server/providers/errors';
import { plainReason, plainResearchFailure } from '../../../server/providers/research/plainWords';

// A failed paper search is told to the reader as one short sentence naming the service: no address, no error code.

const unreachable = (code: string) =>
  new ProviderError(
    `arXiv at https://export.arxiv.org is not reachable (${code})`,
    'arxiv',
    'unreachable',
    undefined,
    code,
  );

describe('research failures in plain words', () => {
  it('says "no network" when the name does not resolve, and names the service', () => {
    const s = plainResearchFailure([{ label: 'arXiv', error: unreachable('ENOTFOUND') }]);
    expect(s).toBe('Could not reach arXiv: no network.');
  });

  it('groups the services that failed for the same reason, one sentence per reason', () => {
    const s = plainResearchFailure([
      { label: 'arXiv', error: unreachable('EAI_AGAIN') },
      { label: 'PubMed', error: unreachable('ENOTFOUND') },
      {
        label: 'Semantic Scholar',
        error: new ProviderError(
          'Semantic Scholar at https://api.semanticscholar.org did not answer within 8 s',
          's2',
          'timeout',
        ),
      },
    ]);
    expect(s).toBe(
      'Could not reach arXiv and PubMed: no network. Could not reach Semantic Scholar: it did not answer in time.',
    );
  });

  it('never shows an address or a code, whatever the failure', () => {
    const errors = [
      unreachable('ECONNREFUSED'),
      new ProviderError('CORE answered 503: upstream down at https://core.ac.uk', 'core', 'http', 503),
      new ProviderError('Crossref answered 429: slow down', 'crossref', 'http', 429),
      new ProviderError('PubMed answered 400: bad term', 'pubmed', 'http', 400),
      new ProviderError('CORE answered something other than JSON', 'core', 'malformed'),
      new Error('getaddrinfo ENOTFOUND export.arxiv.org'),
      'a string',
    ];
    for (const e of errors) {
      const s = plainResearchFailure([{ label: 'arXiv', error: e }]);
      expect(s).toMatch(/^Could not reach arXiv: [a-z][^:]*\.$/);
      expect(s).not.toMatch(/https?:|\bE[A-Z_]{3,}\b|\d{3}/);
    }
    expect(plainReason(errors[1])).toBe('it is down or busy');
    expect(plainReason(errors[2])).toBe('too many requests, try again later');
  });
});
