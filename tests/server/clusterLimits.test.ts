import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAgents, offlineLlm, openDiscussion, sessionId, testProviders } from './engine/helpers';
import { startTestServer, type TestServer } from './harness';
import { postgresUnavailableReason, startPostgres, type PgCluster } from './postgresCluster';

// Limits that must hold across processes sharing one PostgreSQL: the login/register rate limit per client address
// and the per-user number of running discussions are counted in the database, not in one process's memory.
// Two server instances with separate memory (in this test process) on one database stand for two processes.
const reason = postgresUnavailableReason();

// The model answers only when the test says so, so a discussion stays running as long as needed.
let release: () => void = () => {};
const gate = new Promise<void>((r) => (release = r));
const llm = offlineLlm(async (req, next) => {
  await gate;
  return next(req);
});

describe.skipIf(reason !== null)(
  `limits across processes on PostgreSQL${reason ? ` (skipped: ${reason})` : ''}`,
  () => {
    let cluster: PgCluster;
    let a: TestServer;
    let b: TestServer;
    beforeAll(async () => {
      cluster = await startPostgres();
      const cfg = { databaseUrl: cluster.url, loginRateLimit: 4, maxRunningDiscussionsPerUser: 1 };
      a = await startTestServer(cfg, { providers: testProviders({ llm }) });
      b = await startTestServer(cfg, { providers: testProviders({ llm }) });
    }, 60_000);
    afterAll(async () => {
      release();
      await a?.close();
      await b?.close();
      await cluster?.stop();
    }, 30_000);

    it('counts login and register attempts of one address across processes', async () => {
      const body = { email: 'nobody@example.com', password: 'wrong-password' };
      const statuses = [];
      for (const s of [a, b, a, b, a, b]) statuses.push((await s.api('POST', '/auth/login', { body })).status);
      expect(statuses.slice(0, 4).every((x) => x === 401)).toBe(true);
      expect(statuses.slice(4)).toEqual([429, 429]);
    });

    it('refuses a second running discussion of one user on the other process', async () => {
      // The rate limit of the first test is spent for this address: make the user directly.
      const { hashPassword } = await import('../../server/auth/passwords');
      const id = `u-${Date.now()}`;
      await a.server.ctx.db.query('INSERT INTO users (id, email, password_hash) VALUES ($1, $2, $3)', [
        id,
        `${id}@example.com`,
        await hashPassword('secret-pass'),
      ]);
      const token = await a.server.ctx.tokens.issue(id);
      const agents = await makeAgents(a, token, 2);
      const first = await openDiscussion(a, '/ws/discuss', token, {
        agent_ids: agents,
        session_id: sessionId('one'),
        context: 'Limits',
        turns: 2,
      });
      await first.waitFor((f) => f.type === 'agent_status' && f.status === 'thinking');
      const second = await openDiscussion(b, '/ws/discuss', token, {
        agent_ids: agents,
        session_id: sessionId('two'),
        context: 'Limits',
        turns: 2,
      });
      const closed = await second.waitClose();
      expect(closed.code).toBe(1013);
      expect(second.frames.find((f) => f.type === 'error')?.message).toMatch(/MAX_RUNNING_DISCUSSIONS_PER_USER/);
      release();
      expect((await first.waitClose()).code).toBe(1000);
      // Once it ended, the user may start one on B.
      const third = await openDiscussion(b, '/ws/discuss', token, {
        agent_ids: agents,
        session_id: sessionId('three'),
        context: 'Limits',
        turns: 2,
      });
      expect((await third.waitClose()).code).toBe(1000);
      expect(third.frames.some((f) => f.type === 'discussion_ended')).toBe(true);
    }, 30_000);
  },
);
