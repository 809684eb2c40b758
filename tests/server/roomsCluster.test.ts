import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_REMOVED_FROM_ROOM, REMOVED_FROM_ROOM_TEXT } from '../../src/schemas/rooms';
import { client, makeAgents, openDiscussion, sessionId } from './engine/helpers';
import { startTestServer, type TestServer } from './harness';
import { postgresUnavailableReason, startPostgres, type PgCluster } from './postgresCluster';

// A room across processes on PostgreSQL: the discussion runs on A, a member's socket lands on B. B reads the stored
// frames (room messages included) and hears over the bus who is here and that someone was removed; what the member
// sends reaches A, where their role is checked. Two server instances in this test process stand for two processes.
const reason = postgresUnavailableReason();

describe.skipIf(reason !== null)(
  `a room across processes on PostgreSQL${reason ? ` (skipped: ${reason})` : ''}`,
  () => {
    let cluster: PgCluster;
    let a: TestServer;
    let b: TestServer;
    beforeAll(async () => {
      cluster = await startPostgres();
      const cfg = { databaseUrl: cluster.url, discussionLeaseMs: 10_000 };
      a = await startTestServer(cfg);
      b = await startTestServer(cfg);
    }, 60_000);
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await cluster?.stop();
    }, 30_000);

    it('a member on B of a discussion running on A: frames, people, messages, a seat and removal cross', async () => {
      const owner = await a.register();
      const ids = await makeAgents(a, owner.token, 2);
      const c = await openDiscussion(a, '/ws/discuss', owner.token, {
        agent_ids: ids,
        session_id: sessionId('xroom'),
        context: 'Should vineyards switch to drip irrigation?',
        turns: 2,
        format: { kind: 'debate', judge: 'human', sides: { for: [ids[0]], against: [ids[1]] } },
      });
      await c.waitType('format_stage');
      const discussionId = (await a.api('GET', '/discussion/history', { token: owner.token })).body[0].id;

      const made = await a.api('POST', `/discussions/${discussionId}/invites`, {
        token: owner.token,
        body: { role: 'participant' },
      });
      const p = await b.register();
      const token = made.body.url.split('/join/')[1];
      expect((await b.api('POST', `/invites/${token}/accept`, { token: p.token })).status).toBe(200);
      const m = client(await b.socket('/ws/discuss', p.token), 'standard');
      m.send({ type: 'room_join', discussion_id: discussionId });
      await m.waitType('format_stage');
      // Who is here, said by A, reaches B with the member's own `you`.
      const people = await m.waitFor(
        (f) => f.type === 'room_people' && f.people.some((x: any) => x.user_id === p.userId),
      );
      expect(people.you).toEqual({ user_id: p.userId, role: 'participant' });
      await c.waitFor((f) => f.type === 'room_people' && f.people.some((x: any) => x.user_id === p.userId));

      // The member's message, sent on B, is taken on A and stored: both see it as a room message.
      m.send({ type: 'human_message', text: 'From the other process.', timestamp: new Date().toISOString() });
      const got = await c.waitType('room_message', 15_000);
      expect(got.author.user_id).toBe(p.userId);
      await m.waitType('room_message', 15_000);
      // Role checks happen on A: the member's stop is refused, and the answer crosses back to B.
      m.send({ type: 'stop' });
      await m.waitFor((f) => f.type === 'error' && /Only the owner may stop/.test(f.message), 15_000);

      // The judge's seat, given on A, reaches B; the vote sent on B counts on A.
      c.send({ type: 'room_seat', seat: 'judge', user_id: p.userId });
      await m.waitFor(
        (f) => f.type === 'room_people' && f.people.find((x: any) => x.user_id === p.userId)?.seats.includes('judge'),
        15_000,
      );
      m.send({ type: 'judge_vote', side: 'against', confidence: 0.8 });
      expect(await c.waitType('vote', 15_000)).toMatchObject({ side: 'against', confidence: 0.8 });
      await m.waitType('vote', 15_000);

      // Removed on A: B closes the member's socket with the room's code.
      c.send({ type: 'room_remove', user_id: p.userId });
      expect(await m.waitClose(15_000)).toEqual({ code: CLOSE_REMOVED_FROM_ROOM, reason: REMOVED_FROM_ROOM_TEXT });
      c.send({ type: 'stop' });
      await c.waitClose(15_000);
    }, 90_000);
  },
);
