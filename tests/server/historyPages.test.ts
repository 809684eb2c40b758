import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discussionHistory, historyPage } from '../../src/schemas/history';
import { startTestServer, type TestServer } from './harness';

// History past 500: 1,200 discussions of one user, paged with a cursor, filtered by topic; the old
// route still answers the latest 500 as it did.

let s: TestServer;
let token: string;
let other: string;
beforeAll(async () => {
  s = await startTestServer();
  const me = await s.register();
  token = me.token;
  ({ token: other } = await s.register());
  // Groups of three share a timestamp, so the cursor's tie-break on the id is exercised too.
  await s.server.ctx.db.query(
    `INSERT INTO discussions (id, user_id, session_id, endpoint, topic, config, status, created_at)
     SELECT 'd' || lpad(g::text, 5, '0'), $1, 's' || g, '/ws/discuss',
            CASE WHEN g % 10 = 0 THEN 'Vineyard 100% plan ' || g ELSE 'Topic ' || g END,
            CASE WHEN g % 7 = 0 THEN '{"format":{"kind":"council"}}' ELSE '{}' END::jsonb, 'ended',
            timestamptz '2026-01-01 00:00:00+00' + (g / 3) * interval '1 second' + (g % 3) * interval '0 second'
     FROM generate_series(1, 1200) g`,
    [me.userId],
  );
});
afterAll(() => s.close());

async function allPages(q?: string, limit = 50, format?: string) {
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const params = new URLSearchParams({
      limit: String(limit),
      ...(cursor ? { cursor } : {}),
      ...(q ? { q } : {}),
      ...(format ? { format } : {}),
    });
    const r = await s.api('GET', `/discussion/history/page?${params}`, { token });
    expect(r.status).toBe(200);
    const page = historyPage.parse(r.body);
    seen.push(...page.items.map((d) => d.id));
    cursor = page.next_cursor;
    pages++;
  } while (cursor && pages < 100);
  return { seen, pages };
}

describe('GET /discussion/history/page', () => {
  it('pages through 1,200 discussions newest first, each exactly once', async () => {
    const { seen, pages } = await allPages();
    expect(pages).toBe(24);
    expect(seen).toHaveLength(1200);
    expect(new Set(seen).size).toBe(1200);
    // Newest first: created_at descending, then id descending within one timestamp.
    const expected = Array.from({ length: 1200 }, (_, i) => i + 1)
      .sort((a, b) => Math.floor(b / 3) - Math.floor(a / 3) || b - a)
      .map((g) => `d${String(g).padStart(5, '0')}`);
    expect(seen).toEqual(expected);
  });

  it('filters by format (no format is the round table), with the topic filter too; an unknown format is a 422', async () => {
    const council = await allPages(undefined, 50, 'council');
    expect(council.seen).toHaveLength(171);
    expect(council.seen.every((id) => Number(id.slice(1)) % 7 === 0)).toBe(true);
    expect((await allPages(undefined, 200, 'round_table')).seen).toHaveLength(1200 - 171);
    expect((await allPages('vineyard 100%', 50, 'council')).seen).toHaveLength(17);
    expect((await allPages(undefined, 50, 'debate')).seen).toHaveLength(0);
    const bad = await s.api('GET', '/discussion/history/page?format=chaos', { token });
    expect(bad.status).toBe(422);
  });

  it('filters by topic, case-insensitively, with % and _ taken literally', async () => {
    const { seen } = await allPages('vineyard 100%', 40);
    expect(seen).toHaveLength(120);
    expect((await allPages('100_')).seen).toHaveLength(0);
  });

  it('keeps the old route: the latest 500 as an array', async () => {
    const r = await s.api('GET', '/discussion/history', { token });
    expect(discussionHistory.parse(r.body)).toHaveLength(500);
  });

  it('is per user, and refuses a bad limit with a 422', async () => {
    const r = await s.api('GET', '/discussion/history/page', { token: other });
    expect(historyPage.parse(r.body)).toEqual({ items: [], next_cursor: null });
    expect((await s.api('GET', '/discussion/history/page?limit=0', { token })).status).toBe(422);
    expect((await s.api('GET', '/discussion/history/page?limit=5000', { token })).status).toBe(422);
    // A cursor that is not ours starts from the top instead of failing.
    const junk = historyPage.parse((await s.api('GET', '/discussion/history/page?cursor=zzz&limit=3', { token })).body);
    expect(junk.items.map((d) => d.id)).toEqual(['d01200', 'd01199', 'd01198']);
  });
});
