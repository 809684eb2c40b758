import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileForm } from '../../support/documents';
import { startTestServer, type TestServer } from '../harness';
import { openDiscussion, sessionId } from '../engine/helpers';
import { postgresUnavailableReason, startPostgres, type PgCluster } from '../postgresCluster';
import { addPdf, FACT, makeAgent, startCitingModel, TOPIC } from './citingModel';

// The sources' SQL on a real PostgreSQL (the same as on PGlite): the generated tsvector column, its GIN index,
// websearch_to_tsquery and ts_rank_cd find the passage a turn needs; the citation comes back verified; additions
// that race each other still respect the per-person cap (the user's row lock).
const reason = postgresUnavailableReason();
describe.skipIf(reason !== null)(`sources on PostgreSQL${reason ? ` (skipped: ${reason})` : ''}`, () => {
  let cluster: PgCluster;
  let s: TestServer;
  let model: Awaited<ReturnType<typeof startCitingModel>>;
  beforeAll(async () => {
    cluster = await startPostgres();
    model = await startCitingModel();
    s = await startTestServer({ databaseUrl: cluster.url }, { providers: model.providers });
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    await model?.lb.close();
    await cluster?.stop();
  });

  it('finds the passage a turn needs and verifies its citation', async () => {
    expect(s.server.ctx.db.kind).toBe('postgres');
    // Each addition below is a pg-boss job (server/sources/queue/pgBossQueue.ts), read in a reader thread.
    expect(s.server.ctx.sourceReading?.queue.kind).toBe('postgres');
    const { token } = await s.register();
    const ids = [
      await makeAgent(s, token, 'Ada', 'Transit planner'),
      await makeAgent(s, token, 'Bo', 'Budget officer'),
    ];
    const pdfId = await addPdf(s, token);
    const c = await openDiscussion(s, '/ws/discuss', token, {
      agent_ids: ids,
      session_id: sessionId('pg'),
      context: TOPIC,
      turns: 2,
      source_ids: [pdfId],
    });
    await c.waitClose(30_000);
    expect(model.promptsOf('Ada')[0]).toContain(FACT);
    expect(s.server.ctx.sourceReading?.pool.completed).toBeGreaterThan(0);
    expect(await s.server.ctx.db.query('SELECT id FROM source_reads')).toEqual([]);
    const first = c.frames.find((f) => f.type === 'text');
    expect(first.citations[0]).toMatchObject({ label: 'S1', verified: true, source_id: pdfId, page: 2 });
  });

  it('counts additions that race each other against SOURCES_PER_USER', async () => {
    const { token } = await s.register();
    const cap = s.server.ctx.config.sources.perUser;
    s.server.ctx.config.sources.perUser = 3;
    try {
      const sent = await Promise.all(
        [1, 2, 3, 4, 5, 6].map((n) => s.api('POST', '/sources', { token, body: fileForm(`n${n}.txt`, `Note ${n}.`) })),
      );
      expect(sent.filter((r) => r.status === 201)).toHaveLength(3);
      expect(sent.filter((r) => r.status === 409)).toHaveLength(3);
      expect((await s.api('GET', '/sources', { token })).body).toHaveLength(3);
    } finally {
      s.server.ctx.config.sources.perUser = cap;
    }
  });
});
