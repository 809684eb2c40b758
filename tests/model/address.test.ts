import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ADDRESS_ID_MAX, formatAddress, parseAddress, sameView, type Route } from '../../src/model/address';
import { FORMAT_KINDS } from '../../src/schemas/constants';

/** Split an address as window.location does, then parse it. */
const parse = (address: string) => {
  const url = new URL(address, 'http://agora.test');
  return parseAddress({ pathname: url.pathname, search: url.search, hash: url.hash });
};

describe('addresses (src/model/address.ts)', () => {
  it('reads every view of the issue', () => {
    expect(parse('/')).toEqual({ kind: 'canvas' });
    expect(parse('/history?format=debate&q=cats%20and%20dogs')).toEqual({
      kind: 'history',
      format: 'debate',
      q: 'cats and dogs',
    });
    expect(parse('/history/')).toEqual({ kind: 'history', format: '', q: '' });
    expect(parse('/discussions/d-1')).toEqual({ kind: 'discussion', id: 'd-1' });
    expect(parse('/discussions/d-1/replay#t=12')).toEqual({ kind: 'replay', id: 'd-1', turn: 12 });
    expect(parse('/discussions/d-1/replay')).toEqual({ kind: 'replay', id: 'd-1', turn: 0 });
    expect(parse('/evaluations/r-9')).toEqual({ kind: 'evaluation', id: 'r-9' });
    expect(parse('/evaluations')).toEqual({ kind: 'evaluation', id: null });
    expect(parse('/s/AbC_-9')).toEqual({ kind: 'share', token: 'AbC_-9' });
    expect(parse('/join/xyz')).toEqual({ kind: 'join', token: 'xyz' });
  });

  it('says not found for what it cannot read, keeping the path', () => {
    for (const bad of [
      '/nope',
      '/discussions',
      '/discussions/',
      '/discussions/d/edit',
      '/discussions/d/replay/x',
      '/discussions/%E0%A4%A', // malformed percent-encoding
      '/discussions/a%00b', // a NUL
      '/discussions/a%2Fb', // a slash inside an id
      `/discussions/${'x'.repeat(ADDRESS_ID_MAX + 1)}`,
      '/history/more',
      '/s/',
      '/s/bad token',
      '/s/a/b',
      '/join/%3Cscript%3E',
      `/${'a'.repeat(5000)}`,
    ]) {
      const r = parse(bad);
      expect(r.kind, bad).toBe('notFound');
      if (r.kind === 'notFound') expect(r.path.length).toBeLessThanOrEqual(2048);
    }
  });

  it('bounds what it keeps from the query and the hash', () => {
    expect(parse('/history?format=poetry')).toEqual({ kind: 'history', format: '', q: '' });
    expect((parse(`/history?q=${'y'.repeat(500)}`) as { q: string }).q).toHaveLength(200);
    expect(parse('/discussions/d/replay#t=12345678')).toEqual({ kind: 'replay', id: 'd', turn: 0 });
    expect(parse('/discussions/d/replay#t=-3')).toEqual({ kind: 'replay', id: 'd', turn: 0 });
  });

  it('writes what it reads: every route survives a round trip', () => {
    const id = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => !/[\u0000-\u001f\u007f/]/.test(s));
    const token = fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/);
    const route: fc.Arbitrary<Route> = fc.oneof(
      fc.constant<Route>({ kind: 'canvas' }),
      fc.record({
        kind: fc.constant('history' as const),
        format: fc.constantFrom('' as const, ...FORMAT_KINDS),
        q: fc.string({ maxLength: 50 }).filter((s) => !/[\u0000-\u001f\u007f]/.test(s)),
      }),
      fc.record({ kind: fc.constant('discussion' as const), id }),
      fc.record({ kind: fc.constant('replay' as const), id, turn: fc.integer({ min: 0, max: 9_999_999 }) }),
      fc.record({ kind: fc.constant('evaluation' as const), id: fc.option(id, { nil: null }) }),
      fc.record({ kind: fc.constant('share' as const), token }),
      fc.record({ kind: fc.constant('join' as const), token }),
    );
    fc.assert(
      fc.property(route, (r) => {
        expect(parse(formatAddress(r))).toEqual(r);
      }),
    );
  });

  it("writes the share and invite paths of the rooms' contract", () => {
    expect(formatAddress({ kind: 'share', token: 'T' })).toBe('/s/T');
    expect(formatAddress({ kind: 'join', token: 'T' })).toBe('/join/T');
    expect(formatAddress({ kind: 'history', format: '', q: '' })).toBe('/history');
  });

  it('tells a new view from the same view in another state', () => {
    const replay = (id: string, turn: number): Route => ({ kind: 'replay', id, turn });
    expect(sameView(replay('a', 1), replay('a', 7))).toBe(true);
    expect(sameView(replay('a', 1), replay('b', 1))).toBe(false);
    expect(sameView({ kind: 'history', format: '', q: '' }, { kind: 'history', format: 'debate', q: 'x' })).toBe(true);
    expect(sameView({ kind: 'discussion', id: 'a' }, { kind: 'discussion', id: 'b' })).toBe(false);
    expect(sameView({ kind: 'discussion', id: 'a' }, replay('a', 0))).toBe(false);
  });
});
